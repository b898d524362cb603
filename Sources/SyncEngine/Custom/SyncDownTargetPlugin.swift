import JSONCore
import OrgClient

/// One page of records a sync down plug-in fetched, and how to fetch the next one.
public struct CustomFetchPage: Sendable, Hashable {
    /// The records, as the org sent them (each a JSON object with the id field).
    public var records: [JSONValue]
    /// The number of records the whole fetch expects, as far as the plug-in knows it.
    public var totalSize: Int
    /// What ``SyncDownTargetPlugin/continueFetch(cursor:context:)`` needs to fetch the next page
    /// (a next-records URL, an offset, a token); `nil` on the last page.
    public var cursor: JSONValue?

    /// Creates a page.
    public init(records: [JSONValue], totalSize: Int, cursor: JSONValue? = nil) {
        self.records = records
        self.totalSize = totalSize
        self.cursor = cursor
    }
}

extension CustomFetchPage {
    /// The records of a query page (`records`), its `totalSize`, and its `nextRecordsUrl` as the
    /// cursor: what a plug-in that pages a SOQL query returns.
    ///
    /// - Throws: `JSONSyntaxError` when the page is not JSON.
    public init(queryPage page: QueryPage) throws {
        let body = try JSONValue(parsing: page.body.text)
        self.init(
            records: body["records"]?.arrayValue ?? [],
            totalSize: page.totalSize,
            cursor: page.nextRecordsURL.map(JSONValue.string)
        )
    }
}

/// One page of the ids a sync down plug-in's records have on the server now (ghost cleaning).
public struct CustomIDsPage: Sendable, Hashable {
    /// The ids.
    public var ids: [String]
    /// What ``SyncDownTargetPlugin/continueRemoteIDs(cursor:context:)`` needs for the next page;
    /// `nil` on the last page.
    public var cursor: JSONValue?

    /// Creates a page.
    public init(ids: [String], cursor: JSONValue? = nil) {
        self.ids = ids
        self.cursor = cursor
    }
}

/// A sync down target written in Swift: Mobile SDK's `SyncDownTarget` contract (start fetch,
/// continue fetch, remote ids for ghost cleaning, the latest modification date) as a protocol.
///
/// The engine calls ``startFetch(maxTimeStamp:context:)`` once per run, then
/// ``continueFetch(cursor:context:)`` with each page's cursor until a page has none, writing each
/// page to the soup (merge mode, watermark, progress and stop handling are the engine's) before
/// asking for the next: a plug-in holds no more than one page. The state between pages travels
/// in the cursor, so a plug-in can be a value type with no mutable state.
///
/// ```swift
/// struct RecentCases: SyncDownTargetPlugin {
///     func startFetch(maxTimeStamp: Int64, context: CustomTargetContext) async throws -> CustomFetchPage {
///         let page = try await context.org.queryFirstPage("SELECT Id, Subject FROM Case", options: QueryOptions())
///         return try CustomFetchPage(queryPage: page)
///     }
///     func continueFetch(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomFetchPage {
///         try CustomFetchPage(queryPage: try await context.org.queryMore(cursor.stringValue ?? "", options: QueryOptions()))
///     }
/// }
/// ```
public protocol SyncDownTargetPlugin: Sendable {
    /// The first page of the records modified at or after `maxTimeStamp` (ms since the epoch;
    /// `-1` or less: everything). A plug-in that cannot filter by date may ignore it and return
    /// everything (set ``isIncremental`` to `false` to say so).
    func startFetch(maxTimeStamp: Int64, context: CustomTargetContext) async throws -> CustomFetchPage

    /// The page after the one whose cursor is `cursor`.
    func continueFetch(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomFetchPage

    /// The first page of every id the target's records have on the server now, for ghost
    /// cleaning; `nil` (the default) when the plug-in cannot list them, and ghost cleaning is
    /// refused with that reason.
    func startRemoteIDs(context: CustomTargetContext) async throws -> CustomIDsPage?

    /// The page of ids after the one whose cursor is `cursor`.
    func continueRemoteIDs(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomIDsPage

    /// The latest modification date of `records` in ms since the epoch; `nil` (the default) to
    /// let the engine read the target's `modificationDateFieldName` (Salesforce date-time text or
    /// epoch ms).
    func latestModification(in records: [JSONValue]) -> Int64?

    /// Whether pages arrive ordered by modification date, ascending, so the watermark can be saved
    /// after every page (default `false`: saved at the end of the run).
    var isSortedByModification: Bool { get }

    /// Whether ``startFetch(maxTimeStamp:context:)`` honours `maxTimeStamp` (default `true`): a
    /// resync then passes the stored watermark.
    var isIncremental: Bool { get }
}

extension SyncDownTargetPlugin {
    public func startRemoteIDs(context: CustomTargetContext) async throws -> CustomIDsPage? { nil }

    public func continueRemoteIDs(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomIDsPage {
        CustomIDsPage(ids: [])
    }

    public func latestModification(in records: [JSONValue]) -> Int64? { nil }

    public var isSortedByModification: Bool { false }

    public var isIncremental: Bool { true }
}
