import SyncConfig

/// Turns sync definitions into an ordered ``SyncPlan``.
///
/// Each sync gets one main step (sync up or sync down) and, for a sync down with
/// `options.cleanGhosts`, a clean-ghosts step right after it. Edges between syncs come from three
/// rules (see ``PlanReason/Rule``) and always go from the waiting sync's main step to the last
/// step of the sync it waits for, so a sync that depends on a sync down also waits for that sync's
/// ghost cleaning.
struct PlanBuilder {
    /// An edge between two syncs, by index in ``syncs``.
    private struct SyncEdge {
        var waiting: Int
        var waitedFor: Int
        var rule: PlanReason.Rule
        var detail: String
    }

    private let syncs: [SyncDefinition]
    /// Graph node of each sync's main step.
    private var mainNode: [Int] = []
    /// Graph node of each sync's last step (its clean-ghosts step when it has one).
    private var lastNode: [Int] = []
    /// For each node, the sync it belongs to and its kind.
    private var nodes: [(sync: Int, kind: PlanStep.Kind)] = []

    init(syncs: [SyncDefinition]) {
        self.syncs = syncs
        for (index, sync) in syncs.enumerated() {
            mainNode.append(nodes.count)
            nodes.append((index, sync.planStepKind))
            if sync.plansCleanGhosts {
                nodes.append((index, .cleanGhosts))
            }
            lastNode.append(nodes.count - 1)
        }
    }

    /// Builds the plan.
    /// - Throws: ``PlanError`` for duplicate names, unknown `dependsOn` names and cycles.
    func build() throws -> SyncPlan {
        let indexByName = try makeNameIndex()
        var graph = DependencyGraph(count: nodes.count)
        var reasons = Array(repeating: [(dependency: Int, reason: PlanReason)](), count: nodes.count)

        func connect(_ node: Int, waitsFor dependency: Int, rule: PlanReason.Rule, detail: String) {
            graph.add(node, waitsFor: dependency)
            let reason = PlanReason(step: stepID(of: dependency), rule: rule, detail: detail)
            if !reasons[node].contains(where: { $0.dependency == dependency && $0.reason == reason }) {
                reasons[node].append((dependency, reason))
            }
        }

        for edge in try dependsOnEdges(indexByName) + upBeforeDownEdges() + parentBeforeChildrenEdges() {
            connect(mainNode[edge.waiting], waitsFor: lastNode[edge.waitedFor], rule: edge.rule, detail: edge.detail)
        }
        for (index, sync) in syncs.enumerated() where sync.plansCleanGhosts {
            connect(
                lastNode[index],
                waitsFor: mainNode[index],
                rule: .afterSyncDown,
                detail: "ghosts are cleaned right after sync down '\(sync.name)'"
            )
        }

        switch graph.order() {
        case .sorted(let order):
            return SyncPlan(steps: makeSteps(order: order, reasons: reasons))
        case .cycle(let cycle):
            throw cycleError(cycle, reasons: reasons)
        }
    }

    // MARK: - Edges

    private func makeNameIndex() throws -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, sync) in syncs.enumerated() {
            if let first = index[sync.name] {
                throw PlanError.duplicateSync(sync.name, location: sync.location, firstLocation: syncs[first].location)
            }
            index[sync.name] = position
        }
        return index
    }

    /// `dependsOn`: the sync waits for every sync it lists.
    private func dependsOnEdges(_ indexByName: [String: Int]) throws -> [SyncEdge] {
        var edges: [SyncEdge] = []
        for (waiting, sync) in syncs.enumerated() {
            for name in sync.dependsOn {
                guard let waitedFor = indexByName[name] else {
                    let suggestion = Suggestion.closest(to: name, in: syncs.map(\.name))
                    throw PlanError.unknownDependency(name, of: sync, suggestion: suggestion)
                }
                let detail = "'\(sync.name)' lists '\(name)' in 'dependsOn'"
                edges.append(SyncEdge(waiting: waiting, waitedFor: waitedFor, rule: .dependsOn, detail: detail))
            }
        }
        return edges
    }

    /// For every soup, each sync down touching it waits for each sync up touching it.
    private func upBeforeDownEdges() -> [SyncEdge] {
        var soupOrder: [String] = []
        var upsBySoup: [String: [Int]] = [:]
        for (index, sync) in syncs.enumerated() {
            for soup in sync.plannedSoups {
                if upsBySoup[soup] == nil {
                    soupOrder.append(soup)
                    upsBySoup[soup] = []
                }
                if sync.type == .syncUp {
                    upsBySoup[soup, default: []].append(index)
                }
            }
        }
        var edges: [SyncEdge] = []
        for (down, sync) in syncs.enumerated() where sync.type == .syncDown {
            // Soups shared with each sync up, in the order the sync down names them.
            var sharedSoups: [Int: [String]] = [:]
            var upOrder: [Int] = []
            for soup in sync.plannedSoups {
                for up in upsBySoup[soup] ?? [] {
                    if sharedSoups[up] == nil { upOrder.append(up) }
                    sharedSoups[up, default: []].append(soup)
                }
            }
            for up in upOrder.sorted() {
                let soups = sharedSoups[up] ?? []
                let detail =
                    soups.count == 1
                    ? "sync ups of soup '\(soups[0])' run before its sync downs"
                    : "sync ups of soups \(Wording.quotedList(soups)) run before their sync downs"
                edges.append(SyncEdge(waiting: down, waitedFor: up, rule: .upBeforeDown, detail: detail))
            }
        }
        return edges
    }

    /// For every parent/children soup pair of a `parent_children` target, syncs of the children
    /// soup wait for the same-direction syncs of the parent soup.
    private func parentBeforeChildrenEdges() -> [SyncEdge] {
        var relations: [(parent: String, children: String, declaredBy: String)] = []
        var seen = Set<[String]>()
        for sync in syncs {
            guard let pair = sync.parentChildSoups, seen.insert([pair.parent, pair.children]).inserted else { continue }
            relations.append((pair.parent, pair.children, sync.name))
        }
        guard !relations.isEmpty else { return [] }
        var syncsBySoup: [String: [Int]] = [:]
        for (index, sync) in syncs.enumerated() {
            syncsBySoup[sync.soupName, default: []].append(index)
        }
        var edges: [SyncEdge] = []
        for relation in relations {
            let detail =
                "soup '\(relation.parent)' is the parent of soup '\(relation.children)' in '\(relation.declaredBy)'"
            for child in syncsBySoup[relation.children] ?? [] {
                for parent in syncsBySoup[relation.parent] ?? []
                where syncs[parent].type == syncs[child].type && parent != child {
                    edges.append(
                        SyncEdge(waiting: child, waitedFor: parent, rule: .parentBeforeChildren, detail: detail)
                    )
                }
            }
        }
        return edges
    }

    // MARK: - Results

    private func stepID(of node: Int) -> String {
        PlanStep.id(kind: nodes[node].kind, syncName: syncs[nodes[node].sync].name)
    }

    private func makeSteps(order: [Int], reasons: [[(dependency: Int, reason: PlanReason)]]) -> [PlanStep] {
        var position = Array(repeating: 0, count: nodes.count)
        for (index, node) in order.enumerated() { position[node] = index }
        let ruleRank = Dictionary(uniqueKeysWithValues: PlanReason.Rule.allCases.enumerated().map { ($1, $0) })
        return order.map { node in
            let sync = syncs[nodes[node].sync]
            let kind = nodes[node].kind
            // By the plan position of the step waited for, then by rule.
            let sortedReasons = reasons[node].sorted { left, right in
                let leftKey = (position[left.dependency], ruleRank[left.reason.rule] ?? 0)
                let rightKey = (position[right.dependency], ruleRank[right.reason.rule] ?? 0)
                return leftKey < rightKey
            }
            var dependsOn: [String] = []
            for entry in sortedReasons where dependsOn.last != entry.reason.step {
                dependsOn.append(entry.reason.step)
            }
            var step = PlanStep(
                kind: kind,
                syncName: sync.name,
                soupName: sync.soupName,
                soups: sync.plannedSoups,
                target: sync.planTargetName,
                resync: kind == .syncDown ? sync.planResync : nil,
                dependsOn: dependsOn,
                reasons: sortedReasons.map(\.reason),
                requests: sync.planRequests
            )
            if kind == .syncDown, case .down(.soql(let soql)) = sync.target { step.api = soql.apiRule }
            return step
        }
    }

    private func cycleError(_ cycle: [Int], reasons: [[(dependency: Int, reason: PlanReason)]]) -> PlanError {
        var links: [CycleLink] = []
        for (offset, node) in cycle.enumerated() {
            let next = cycle[(offset + 1) % cycle.count]
            guard let reason = reasons[node].first(where: { $0.dependency == next })?.reason else { continue }
            // A clean-ghosts step waiting for its own sync down is one sync, not a link.
            if reason.rule == .afterSyncDown { continue }
            let detail = reason.rule == .dependsOn ? "dependsOn" : reason.detail
            links.append(CycleLink(syncName: syncs[nodes[node].sync].name, rule: reason.rule, reason: detail))
        }
        // Point at a sync whose 'dependsOn' is on the cycle: that is where the fix usually goes.
        let locations = links.map { link in
            (link.rule, syncs.first { $0.name == link.syncName }?.location)
        }
        let location =
            locations.first { $0.0 == .dependsOn && $0.1 != nil }?.1 ?? locations.first { $0.1 != nil }?.1
        return PlanError.cycle(links, location: location)
    }
}
