import Foundation

extension OrgClient {
    /// Every page of a query, fetched one at a time as the sequence is iterated: a page is
    /// requested only after the previous one was consumed, so a slow store slows the fetching
    /// instead of filling memory.
    ///
    /// - Parameters:
    ///   - soql: The query.
    ///   - options: Page size and whether to include deleted rows.
    /// - Returns: The pages, first to last; iteration throws ``OrgClientError``.
    public func queryPages(_ soql: String, options: QueryOptions = QueryOptions()) -> QueryPageSequence {
        QueryPageSequence(client: self, soql: soql, options: options)
    }

    /// Updates fields of a record without a precondition.
    public func update(_ objectType: String, id: String, fields: [String: OrgValue]) async throws {
        try await update(objectType, id: id, fields: fields, ifUnmodifiedSince: nil)
    }

    /// Counters are not kept by default.
    public func statistics() -> OrgClientStatistics { OrgClientStatistics() }
}

/// The pages of one query; see ``OrgClient/queryPages(_:options:)``.
public struct QueryPageSequence: AsyncSequence, Sendable {
    public typealias Element = QueryPage

    let client: any OrgClient
    let soql: String
    let options: QueryOptions

    /// Walks the pages.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: any OrgClient
        let soql: String
        let options: QueryOptions
        var hasStarted = false
        var nextRecordsURL: String?

        public mutating func next() async throws -> QueryPage? {
            let page: QueryPage
            if !hasStarted {
                hasStarted = true
                page = try await client.queryFirstPage(soql, options: options)
            } else if let url = nextRecordsURL {
                page = try await client.queryMore(url, options: options)
            } else {
                return nil
            }
            nextRecordsURL = page.isDone ? nil : page.nextRecordsURL
            return page
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, soql: soql, options: options)
    }
}
