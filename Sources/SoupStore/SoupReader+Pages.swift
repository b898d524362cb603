import GRDB

extension SoupReader {
    /// Up to `limit` entries of `soup` with `_soupEntryId` greater than `afterEntryID`, in numeric
    /// `_soupEntryId` order: page through a soup by passing the last id back, never holding it whole.
    public func entries(in soup: String, afterEntryID: Int64, limit: Int) throws -> [SoupEntry] {
        let layout = try layout(soup)
        return try Row.fetchAll(
            db,
            sql: "SELECT id, created, lastModified, soup FROM \(layout.tableName) WHERE id > ? ORDER BY id LIMIT ?",
            arguments: [afterEntryID, limit]
        ).map(Self.entry)
    }
}
