import SyncConfig

// What the planner needs to know about a sync, derived from its typed target.
extension SyncDefinition {
    /// The plan step kind of the sync's main step.
    var planStepKind: PlanStep.Kind {
        switch type {
        case .syncDown: .syncDown
        case .syncUp: .syncUp
        }
    }

    /// Every soup the sync reads or writes, the configured soup first, without repeats. A
    /// briefcase ignores `soupName` and writes one soup per info.
    var plannedSoups: [String] {
        var soups: [String]
        switch target {
        case .down(.refresh(let refresh)):
            soups = [soupName, refresh.soupName]
        case .down(.parentChildren(let target)):
            soups = [soupName, target.parent.soupName, target.children.soupName]
        case .down(.briefcase(let briefcase)):
            soups = briefcase.infos.map(\.soupName)
        case .up(let up):
            soups = [soupName]
            if let info = up.parentChildren {
                soups += [info.parent.soupName, info.children.soupName]
            }
        case .down:
            soups = [soupName]
        }
        var seen = Set<String>()
        return soups.filter { seen.insert($0).inserted }
    }

    /// The parent and children soups a `parent_children` target links, when they differ.
    var parentChildSoups: (parent: String, children: String)? {
        let pair: (String, String)
        switch target {
        case .down(.parentChildren(let target)):
            pair = (target.parent.soupName, target.children.soupName)
        case .up(let up):
            guard let info = up.parentChildren else { return nil }
            pair = (info.parent.soupName, info.children.soupName)
        case .down:
            return nil
        }
        return pair.0 == pair.1 ? nil : pair
    }

    /// The target kind as written in plans: the sync down `type`, or the sync up kind.
    var planTargetName: String {
        switch target {
        case .down(let down): down.kind.rawValue
        case .up(let up): up.kind.productTypeName ?? "custom"
        }
    }

    /// How a re-run of the sync fetches; `nil` for sync ups.
    var planResync: PlanStep.Resync? {
        guard case .down(let down) = target else { return nil }
        switch down.kind {
        case .soql, .parentChildren, .refresh, .briefcase: return .incremental
        case .sosl, .mru, .layout, .metadata: return .full
        case .custom: return .pluginDefined
        case .endpoint:
            guard case .endpoint(let endpoint) = down, endpoint.since != nil else { return .full }
            return .incremental
        }
    }

    /// Whether the plan adds a clean-ghosts step after this sync: a sync down with
    /// `options.cleanGhosts`. The option has no meaning for a sync up, which gets no such step.
    var plansCleanGhosts: Bool {
        type == .syncDown && options.cleanGhosts
    }
}
