import SyncConfig

// Every message of the module is built here, so their wording stays consistent.
extension PlanError {
    /// Two syncs named `name`.
    static func duplicateSync(_ name: String, location: SourceLocation?, firstLocation: SourceLocation?) -> PlanError {
        var message = "two syncs are named '\(name)'"
        if let firstLocation {
            message += " (the first at \(firstLocation))"
        }
        message += "; rename one of them, sync names must be unique"
        return PlanError(code: .duplicateSync, message: message, location: location, syncNames: [name])
    }

    /// `sync` lists `missing` in `dependsOn`, and no such sync exists.
    static func unknownDependency(
        _ missing: String,
        of sync: SyncDefinition,
        suggestion: String?
    ) -> PlanError {
        var message = "'\(sync.name)' depends on '\(missing)', which is not defined"
        if let suggestion {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; remove it from 'dependsOn' or add a sync with that name"
        }
        return PlanError(code: .unknownDependency, message: message, location: sync.location, syncNames: [sync.name])
    }

    /// The plan's graph has a cycle through `links`, each a sync waiting for the next one (the
    /// last waits for the first).
    static func cycle(_ links: [CycleLink], location: SourceLocation?) -> PlanError {
        let names = links.map(\.syncName)
        let message: String
        if links.count == 1, let link = links.first {
            message =
                "'\(link.syncName)' depends on itself (\(link.reason)); "
                + "remove '\(link.syncName)' from its own 'dependsOn'"
        } else {
            let waits = links.indices.map { index in
                let next = links[(index + 1) % links.count]
                return "'\(links[index].syncName)' waits for '\(next.syncName)' (\(links[index].reason))"
            }
            let fix =
                links.contains { $0.rule == .dependsOn }
                ? "remove one of these 'dependsOn' entries"
                : "the parent_children targets make these soups each other's parents; keep one direction"
            message = "dependency cycle between \(Wording.quotedList(names)): \(waits.joined(separator: ", ")); \(fix)"
        }
        return PlanError(code: .cycle, message: message, location: location, syncNames: names)
    }

    /// ``SyncPlan/only(_:)`` named a sync the plan does not have.
    static func unknownSync(_ name: String, suggestion: String?) -> PlanError {
        var message = "there is no sync named '\(name)'"
        if let suggestion {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; use one of the names in the syncs config"
        }
        return PlanError(code: .unknownSync, message: message, syncNames: [name])
    }
}

/// One sync on a dependency cycle and why it waits for the next sync on the cycle.
struct CycleLink: Sendable, Hashable {
    /// The waiting sync.
    var syncName: String
    /// The rule of the edge to the next sync.
    var rule: PlanReason.Rule
    /// The edge's detail, e.g. `dependsOn` or `sync ups of soup 'a' run before its sync downs`.
    var reason: String
}
