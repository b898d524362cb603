/// The pages of one query, the next page fetched while the current one is used; see
/// ``OrgClient/queryPages(_:options:)``.
///
/// When the iterator hands out a page that has a `nextRecordsUrl`, it starts the request for that
/// next page at once, so the org's answer travels while the caller writes the current page. It
/// never fetches more than one page ahead: at most two pages are held, the one handed out and the
/// one on its way, whatever the length of the result.
///
/// - An error of the page fetched ahead is thrown by the `next()` that asks for that page, after
///   every earlier page was handed out, never earlier.
/// - Leaving the loop (a `break`, a `return`, a thrown error) releases the iterator, which cancels
///   the request in flight; cancelling the task that iterates cancels it too, at the latest when
///   the task next asks for a page.
/// - Pages are followed through `nextRecordsUrl` with ``OrgClient/queryMore(_:options:)``, which
///   refuses any URL that is not a path under `/services/data/`.
public struct QueryPageSequence: AsyncSequence, Sendable {
    public typealias Element = QueryPage

    /// Where the pages start.
    enum Start: Sendable {
        /// A query's first page, then the pages after it.
        case query(String)
        /// A page already fetched (handed out first, as it is), then the pages after it.
        case page(QueryPage)
        /// The page at a `nextRecordsUrl` (none when `nil`), then the pages after it.
        case nextRecordsURL(String?)
    }

    let client: any OrgClient
    let start: Start
    let options: QueryOptions

    /// Walks the pages, one page ahead of the caller.
    ///
    /// A class so that releasing it (leaving the loop early) cancels the page fetched ahead.
    public final class AsyncIterator: AsyncIteratorProtocol {
        private let client: any OrgClient
        private let options: QueryOptions
        private var start: Start?
        private var ahead: Task<QueryPage, any Error>?

        init(client: any OrgClient, start: Start, options: QueryOptions) {
            self.client = client
            self.start = start
            self.options = options
        }

        deinit {
            ahead?.cancel()
        }

        /// The next page: the one fetched ahead (waiting for it when it is still on its way), or
        /// `nil` after the last page.
        ///
        /// - Throws: ``OrgClientError`` of the page asked for, or `CancellationError`.
        public func next() async throws -> QueryPage? {
            let page: QueryPage
            if let start {
                self.start = nil
                switch start {
                case .query(let soql):
                    page = try await client.queryFirstPage(soql, options: options)
                case .page(let first):
                    page = first
                case .nextRecordsURL(let url):
                    guard let url else { return nil }
                    page = try await client.queryMore(url, options: options)
                }
            } else if let pending = ahead {
                ahead = nil
                page = try await withTaskCancellationHandler {
                    try await pending.value
                } onCancel: {
                    pending.cancel()
                }
            } else {
                return nil
            }
            if let url = page.nextRecordsURL, !Task.isCancelled {
                ahead = Task { [client, options] in try await client.queryMore(url, options: options) }
            }
            return page
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, start: start, options: options)
    }
}
