import SyncConfig

// Narrowing a plan to some syncs (`syncrun plan --only NAME`).
extension SyncPlan {
    /// The part of the plan that runs the syncs named in `names` and everything they wait for,
    /// directly or not, in the same order.
    ///
    /// - Parameter names: Sync names; order and repeats do not matter.
    /// - Returns: A plan whose steps are a subset of this plan's, with the same ids, dependencies
    ///   and reasons.
    /// - Throws: ``PlanError`` with code ``PlanError/Code/unknownSync`` for the first name the plan
    ///   does not have, with a "did you mean" suggestion when one is close.
    public func only(_ names: some Sequence<String>) throws -> SyncPlan {
        let known = syncNames
        let knownSet = Set(known)
        var wanted: [String] = []
        for name in names {
            guard knownSet.contains(name) else {
                throw PlanError.unknownSync(name, suggestion: Suggestion.closest(to: name, in: known))
            }
            wanted.append(name)
        }
        let wantedSet = Set(wanted)
        let stepsByID = Dictionary(steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var kept = Set<String>()
        var pending = steps.filter { wantedSet.contains($0.syncName) }.map(\.id)
        while let id = pending.popLast() {
            guard kept.insert(id).inserted, let step = stepsByID[id] else { continue }
            pending.append(contentsOf: step.dependsOn)
        }
        return SyncPlan(steps: steps.filter { kept.contains($0.id) }, formatVersion: formatVersion)
    }
}
