/// The checks that look across entries and files: `dependsOn` names and cycles, soups named by
/// syncs but not declared in the store config, and soups lacking the indexes syncs need.
struct ConfigValidator {
    let log: DiagnosticLog

    /// Runs every cross-item check of one syncs file against its store file (if any).
    func validate(syncs: SyncsConfigDecoder.Result, store: StoreConfigDecoder.Result?) {
        let context = DecodingContext(file: syncs.file, log: log)
        checkDependencies(syncs, context: context)
        guard let store else { return }
        checkDeclaredSoups(syncs, store: store, context: context)
        checkIndexes(syncs, store: store)
    }

    private func checkDependencies(_ syncs: SyncsConfigDecoder.Result, context: DecodingContext) {
        let names = syncs.sources.compactMap(\.name)
        for source in syncs.sources {
            for dependency in source.dependencies where !names.contains(dependency.name) {
                let candidates = names.filter { $0 != source.name }
                context.error(
                    .unknownDependency,
                    at: dependency.position,
                    path: dependency.path,
                    ConfigMessages.unknownDependency(
                        dependency.name,
                        suggestion: Suggestion.closest(to: dependency.name, in: candidates)
                    )
                )
            }
        }
        // Report each cycle once, at the first sync (in file order) that is part of it.
        var edges: [String: [SyncSource.Reference]] = [:]
        for source in syncs.sources {
            if let name = source.name, edges[name] == nil { edges[name] = source.dependencies }
        }
        var reported: Set<String> = []
        for source in syncs.sources {
            guard let name = source.name, !reported.contains(name) else { continue }
            guard let (cycle, firstEdge) = findCycle(from: name, edges: edges) else { continue }
            reported.formUnion(cycle)
            context.error(
                .dependencyCycle,
                at: firstEdge.position,
                path: firstEdge.path,
                ConfigMessages.dependencyCycle(cycle)
            )
        }
    }

    /// A cycle through `start`, as the list of names from `start`, with the edge leaving `start`.
    private func findCycle(
        from start: String,
        edges: [String: [SyncSource.Reference]]
    ) -> ([String], SyncSource.Reference)? {
        var stack: [(name: String, edge: SyncSource.Reference?)] = []
        var visited: Set<String> = []
        func visit(_ name: String, via edge: SyncSource.Reference?) -> [String]? {
            stack.append((name, edge))
            defer { stack.removeLast() }
            for next in edges[name] ?? [] {
                if next.name == start { return stack.map(\.name) }
                guard !visited.contains(next.name), edges[next.name] != nil else { continue }
                visited.insert(next.name)
                if let cycle = visit(next.name, via: next) { return cycle }
            }
            return nil
        }
        guard let cycle = visit(start, via: nil) else { return nil }
        let nextName = cycle.count > 1 ? cycle[1] : start
        guard let edge = edges[start]?.first(where: { $0.name == nextName }) else { return nil }
        return (cycle, edge)
    }

    private func checkDeclaredSoups(
        _ syncs: SyncsConfigDecoder.Result,
        store: StoreConfigDecoder.Result,
        context: DecodingContext
    ) {
        let declared = store.declaredNames.sorted()
        let storeFile = store.file.split(separator: "/").last.map(String.init) ?? store.file
        for source in syncs.sources {
            for reference in source.soupReferences where !store.declaredNames.contains(reference.name) {
                context.error(
                    .undeclaredSoup,
                    at: reference.position,
                    path: reference.path,
                    ConfigMessages.undeclaredSoup(
                        reference.name,
                        storeFile: storeFile,
                        suggestion: Suggestion.closest(to: reference.name, in: declared)
                    )
                )
            }
        }
    }

    private func checkIndexes(_ syncs: SyncsConfigDecoder.Result, store: StoreConfigDecoder.Result) {
        let storeContext = DecodingContext(file: store.file, log: log)
        let definitions = syncs.sources.compactMap(\.definition)
        var syncDownsPerSoup: [String: Int] = [:]
        for definition in definitions {
            if case .down = definition.target { syncDownsPerSoup[definition.soupName, default: 0] += 1 }
        }
        var reported: Set<String> = []
        for definition in definitions {
            for need in IndexNeed.needs(of: definition, syncDownsPerSoup: syncDownsPerSoup) {
                guard let soup = store.config.soup(named: need.soup), soup.index(onPath: need.field) == nil,
                    let soupSource = store.sources[need.soup],
                    reported.insert(need.soup + "\u{0}" + need.field).inserted
                else { continue }
                storeContext.warning(
                    .missingSyncIndex,
                    at: soupSource.position,
                    path: soupSource.path.appending("indexes"),
                    ConfigMessages.missingSyncIndex(
                        soup: need.soup,
                        field: need.field,
                        sync: definition.name,
                        reason: need.reason,
                        type: need.type
                    )
                )
            }
        }
    }
}
