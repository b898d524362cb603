/// One soup entry: its store-assigned id and times, and its JSON document.
public struct SoupEntry: Sendable, Hashable {
    /// `_soupEntryId`: the entry's id in its soup (the `id` column).
    public var entryID: Int64
    /// Insert time in milliseconds since the Unix epoch (the `created` column).
    public var created: Int64
    /// Last write time in milliseconds since the Unix epoch (`_soupLastModifiedDate`).
    public var lastModified: Int64
    /// The whole JSON object, `_soupEntryId` and `_soupLastModifiedDate` included, as stored.
    public var json: String
}

/// A registered soup as the store describes it.
public struct SoupDescription: Sendable, Hashable {
    /// The soup's name.
    public var name: String
    /// Its index specs, in spec order.
    public var indexes: [IndexSpec]
    /// The SQLite table holding its entries (`TABLE_N`).
    public var tableName: String
    /// How many entries it holds.
    public var entryCount: Int

    /// Creates a description.
    public init(name: String, indexes: [IndexSpec], tableName: String, entryCount: Int) {
        self.name = name
        self.indexes = indexes
        self.tableName = tableName
        self.entryCount = entryCount
    }
}
