import Foundation

extension OrgClient {
    /// Every page of a query, each next page fetched while the caller uses the current one (one
    /// page ahead, never more; see ``QueryPageSequence``).
    ///
    /// ```swift
    /// for try await page in org.queryPages("SELECT Id, Name FROM Account") {
    ///     try await store.write(page.body)   // the next page travels meanwhile
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - soql: The query.
    ///   - options: Page size and whether to include deleted rows.
    /// - Returns: The pages, first to last; iteration throws ``OrgClientError``.
    public func queryPages(_ soql: String, options: QueryOptions = QueryOptions()) -> QueryPageSequence {
        QueryPageSequence(client: self, start: .query(soql), options: options)
    }

    /// `first`, a page the caller already fetched (to read its `totalSize` before deciding how to
    /// go on), then the pages after it, fetched one page ahead like ``queryPages(_:options:)``.
    ///
    /// - Parameters:
    ///   - first: A query page, handed out first as it is.
    ///   - options: The page size of the pages after it.
    public func queryPages(continuing first: QueryPage, options: QueryOptions = QueryOptions()) -> QueryPageSequence {
        QueryPageSequence(client: self, start: .page(first), options: options)
    }

    /// The pages of a nested child set (a parent record's `{"totalSize", "done",
    /// "nextRecordsUrl", "records"}`) after the ones nested in the parent's page: the page at
    /// `nextRecordsURL`, then the pages after it, fetched one page ahead like
    /// ``queryPages(_:options:)``. No pages when `nextRecordsURL` is `nil`.
    ///
    /// - Parameters:
    ///   - nextRecordsURL: The nested set's `nextRecordsUrl`.
    ///   - options: The page size.
    public func queryPages(following nextRecordsURL: String?, options: QueryOptions = QueryOptions())
        -> QueryPageSequence
    {
        QueryPageSequence(client: self, start: .nextRecordsURL(nextRecordsURL), options: options)
    }

    /// Updates fields of a record without a precondition.
    public func update(_ objectType: String, id: String, fields: [String: OrgValue]) async throws {
        try await update(objectType, id: id, fields: fields, ifUnmodifiedSince: nil)
    }

    /// Counters are not kept by default.
    public func statistics() -> OrgClientStatistics { OrgClientStatistics() }
}
