import Foundation
import OrgClient

/// Settings of a ``SyncEngine``.
///
/// | key | type | default |
/// |---|---|---|
/// | ``processID`` | `Int32` | this process's id |
/// | ``hostName`` | `String` | this machine's host name |
/// | ``now`` | `@Sendable () -> Int64` | the system clock, ms since the epoch |
/// | ``bulkResultsPageSize`` | `Int` | 10,000 (`maxRecords` of each Bulk results page) |
/// | ``clock`` | `any Clock<Duration>` | `ContinuousClock()`: the waits between Bulk job polls |
/// | ``bulkJobPolling`` | ``BulkJobPolling`` | 50 ms doubling up to 2 s, deadline 1 hour |
/// | ``customTargets`` | ``CustomTargets`` | none |
/// | ``maxConcurrentRequests`` | `Int?` | `nil`: each sync's `options.maxConcurrentRequests` (default 4) |
/// | ``minApiShare`` / ``stopApiShare`` | `Int?` | `nil`: each sync's options (10 and 2 percent) |
/// | ``recordLockRetry`` | ``OrgClient/RetryPolicy`` | the default policy: `UNABLE_TO_LOCK_ROW` records resent up to 3 times |
/// | ``longTransactions`` | `Bool` | `true` |
/// | ``scatteredIndexesSetAside`` | ``ScatteredIndexesSetAside`` | 20,000 records and 1/20 of the soup, a 64 MB cache |
/// | ``longTransactionCommitBytes`` | `Int` | 96 MiB of pages (about 200,000 records of 10 fields) |
public struct SyncEngineConfiguration: Sendable {
    /// The id recorded as the owner of the syncs this engine runs.
    public var processID: Int32
    /// The host recorded with ``processID``; an owner on another host is never presumed dead.
    public var hostName: String
    /// The clock for `startTime` / `endTime` and durations, ms since the epoch.
    public var now: @Sendable () -> Int64
    /// The records asked for per Bulk API 2.0 results page (`maxRecords`); each page is written
    /// before the next is fetched, so this bounds the memory a Bulk sync down holds.
    public var bulkResultsPageSize = 10_000
    /// The clock the engine waits on (between the polls of a Bulk API 2.0 job); tests pass one
    /// that does not wait.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// How a Bulk API 2.0 job is awaited: the waits between polls and the deadline.
    public var bulkJobPolling = BulkJobPolling()
    /// The plug-ins (custom targets in Swift) the syncs of this engine may name; none by default.
    public var customTargets = CustomTargets()
    /// The most requests a sync up keeps in flight, overriding every sync's
    /// `options.maxConcurrentRequests` (`--max-requests`); `nil` leaves each sync's own.
    public var maxConcurrentRequests: Int?
    /// The share of the daily API allocation (percent) below which a sync up sends one request at
    /// a time, overriding every sync's `options.minApiShare` (`--min-api-share`).
    public var minApiShare: Int?
    /// The share below which a sync up stops, overriding `options.stopApiShare` (`--stop-api-share`).
    public var stopApiShare: Int?
    /// How records refused with `UNABLE_TO_LOCK_ROW` are resent (the waits run on ``clock``).
    public var recordLockRetry = RetryPolicy.default
    /// Whether a SOQL sync down into a soup that holds records writes its pages in long
    /// transactions (``SoupStore/withLongTransaction(cacheBytes:_:)``: far fewer bytes written).
    /// While one is open, a write of the same store from another task fails, so an embedder that
    /// writes the store concurrently with a sync down (as `migrate` does) turns it off.
    public var longTransactions = true
    /// When a long transaction into a filled soup sets the soup's scattered field indexes aside and
    /// builds them again before each commit (issue 33 item 4).
    public var scatteredIndexesSetAside = ScatteredIndexesSetAside()
    /// How many bytes of pages a long transaction takes before it commits: a kill, or a write
    /// that fails, loses at most that much work, which the next run fetches again.
    public var longTransactionCommitBytes = defaultLongTransactionCommitBytes
    /// The default of ``longTransactionCommitBytes``: 96 MiB.
    public static let defaultLongTransactionCommitBytes = 96 * 1024 * 1024

    /// Creates a configuration; see the type's documentation for the defaults.
    public init(
        processID: Int32 = ProcessInfo.processInfo.processIdentifier,
        hostName: String = SyncEngineConfiguration.localHostName(),
        now: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
    ) {
        self.processID = processID
        self.hostName = hostName
        self.now = now
    }

    /// Applies the tuning variables of `environment` that hold a positive whole number (the
    /// kill tests make the long transaction's paths small enough for a small org through the
    /// executable; any other value leaves the setting): `SYNCRUN_SET_ASIDE_MIN_RECORDS`
    /// (``ScatteredIndexesSetAside/minimumRecords``) and `SYNCRUN_COMMIT_BYTES`
    /// (``longTransactionCommitBytes``).
    public mutating func applyTuning(environment: [String: String]) {
        scatteredIndexesSetAside = ScatteredIndexesSetAside(environment: environment)
        if let value = positiveInteger(Self.commitBytesVariable, in: environment) {
            longTransactionCommitBytes = value
        }
    }

    /// The environment variable that sets ``longTransactionCommitBytes`` (``applyTuning(environment:)``).
    public static let commitBytesVariable = "SYNCRUN_COMMIT_BYTES"

    /// This machine's host name, from `gethostname` (no DNS lookup).
    public static func localHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// When a SOQL sync down's long transaction into a soup that holds records sets the soup's
/// scattered field indexes (`Name`…) aside and builds them from a sort before each commit, and
/// defers the record-syncs rows to insert them in key order: after its first group of mostly new
/// records, when the query brings at least ``minimumRecords`` more and at least 1/``soupShare`` of
/// the soup's size. Below that, record by record costs less than sorting the whole soup.
public struct ScatteredIndexesSetAside: Sendable, Hashable {
    /// The fewest records still to come.
    public var minimumRecords: Int
    /// The query's total against the soup's size: at least 1/`soupShare` of it.
    public var soupShare: Int

    /// The writer's page cache meanwhile, in bytes: the key's index of a soup of a million
    /// records (about 45 MB) and the index sorts before each commit fit it, within the 256 MB a
    /// sync down may use (Benchmarks/sync-down/README.md, session 16).
    public var cacheBytes: Int

    /// Creates the thresholds; the defaults are measured (Benchmarks/sync-down/README.md, sessions 15–16).
    public init(minimumRecords: Int = 20_000, soupShare: Int = 20, cacheBytes: Int = 64 * 1024 * 1024) {
        self.minimumRecords = minimumRecords
        self.soupShare = soupShare
        self.cacheBytes = cacheBytes
    }

    /// The defaults, with ``minimumRecords`` from `SYNCRUN_SET_ASIDE_MIN_RECORDS` in `environment`
    /// when it holds a positive whole number (the kill tests take this path with a small org
    /// through the executable); any other value leaves the default.
    public init(environment: [String: String]) {
        self.init()
        if let value = positiveInteger(Self.minimumRecordsVariable, in: environment) {
            minimumRecords = value
        }
    }

    /// The environment variable read by ``init(environment:)``.
    public static let minimumRecordsVariable = "SYNCRUN_SET_ASIDE_MIN_RECORDS"

}

/// The positive whole number the variable `name` of `environment` holds, if it holds one.
private func positiveInteger(_ name: String, in environment: [String: String]) -> Int? {
    guard let text = environment[name], let value = Int(text), value > 0 else { return nil }
    return value
}
