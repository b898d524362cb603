/// An index a sync needs on one of its soups (sync-semantics §2.3, seeds/003).
struct IndexNeed: Hashable {
    var soup: String
    var field: String
    /// Completes "which sync 'x' needs …".
    var reason: String
    /// The index type to suggest.
    var type: String

    static let upsertReason = "to store records by id"
    static let localReason = "to find locally changed records"
    static let syncIDReason = "so ghost cleaning deletes only the records it wrote (several sync downs fill this soup)"

    /// The indexes `definition` relies on. `syncDownsPerSoup` counts the sync downs writing to
    /// each soup: `__sync_id__` matters only when several share a soup and ghosts are cleaned.
    static func needs(of definition: SyncDefinition, syncDownsPerSoup: [String: Int]) -> [IndexNeed] {
        func stored(_ soup: String, id: String) -> [IndexNeed] {
            [
                IndexNeed(soup: soup, field: id, reason: upsertReason, type: "string"),
                IndexNeed(soup: soup, field: "__local__", reason: localReason, type: "string"),
            ]
        }
        var needs: [IndexNeed] = []
        switch definition.target {
        case .down(let target):
            switch target {
            case .soql, .sosl, .mru, .refresh, .endpoint:
                needs = stored(definition.soupName, id: target.idFieldName)
            case .parentChildren(let target):
                needs =
                    stored(target.parent.soupName, id: target.parent.idFieldName)
                    + stored(target.children.soupName, id: target.children.idFieldName)
            case .briefcase(let target):
                needs = target.infos.flatMap { stored($0.soupName, id: $0.idFieldName) }
            case .layout, .metadata, .custom:
                needs = []
            }
            if definition.options.cleanGhosts, (syncDownsPerSoup[definition.soupName] ?? 0) > 1 {
                needs.append(
                    IndexNeed(soup: definition.soupName, field: "__sync_id__", reason: syncIDReason, type: "integer")
                )
            }
        case .up(let target):
            needs = [IndexNeed(soup: definition.soupName, field: "__local__", reason: localReason, type: "string")]
            if let info = target.parentChildren {
                needs.append(
                    IndexNeed(soup: info.children.soupName, field: "__local__", reason: localReason, type: "string")
                )
            }
        }
        return needs
    }
}
