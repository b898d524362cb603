import Foundation
import JSONCore

/// How a sync is watched.
public enum WatchMode: String, Sendable, Hashable {
    /// Through its object's change events (`cdc`).
    case cdc
    /// By a resync every poll interval, because its object has no change event topic (`poll`).
    case poll
}

/// One sync at the start of a watch: its mode, topic and where it resumes.
public struct WatchStart: Sendable, Hashable {
    public var syncName: String
    public var syncID: Int64
    public var mode: WatchMode
    /// The change event topic (also for `poll`: the topic that was not found).
    public var topic: String
    /// Why the mode (`poll`: the topic does not exist), if not the usual.
    public var reason: String?
    /// The replay id it resumes after (hex), or `nil` for the newest event after a resync.
    public var resumesAfter: String?
}

/// One batch of change events written to the store, in one transaction with the sync's position.
public struct WatchBatchReport: Sendable, Hashable {
    public var syncName: String
    /// The events in the batch.
    public var events: Int
    /// The distinct record ids they named.
    public var recordIDs: Int
    /// Records written (inserted or updated).
    public var written: Int
    /// Records the query returned that were left as they are: they have local changes (LEAVE_IF_CHANGED).
    public var skippedLocallyChanged: Int
    /// Entries deleted: deleted on the org or no longer matching the query, clean, and fetched by
    /// no other sync.
    public var removed: Int
    /// When the store commit was made, ms since the epoch.
    public var committedAt: Int64
    /// From the oldest event's `commitTimestamp` on the org to the store commit, in ms.
    public var latencyMilliseconds: Int64
    /// The replay id of the batch's last event (hex), now the sync's position.
    public var replayID: String
}

/// What a watch reports, in order; the CLI renders it (a line per batch on a terminal, JSON lines
/// otherwise).
public enum WatchEvent: Sendable, Hashable {
    /// The watch began: each sync's mode.
    case started([WatchStart])
    /// A batch was applied.
    case batch(WatchBatchReport)
    /// A sync was resynced from its watermark (and its ghosts cleaned): at start, after a gap or
    /// overflow event, after its replay id expired, or on its poll interval.
    case resynced(syncName: String, reason: String, fetched: Int, saved: Int, deletedGhosts: Int, status: String)
    /// Sync ups ran because the watched soups held local changes (`--up`).
    case syncedUp(syncName: String, status: String, sent: Int)
    /// Something the user should know; watching goes on.
    case warning(syncName: String?, message: String)
    /// The watch stopped (SIGINT / SIGTERM), after finishing the batch in hand.
    case stopped
}

extension Array where Element == UInt8 {
    /// The bytes as lowercase hex, for reports (replay ids are opaque).
    var hexText: String { HexText.lowercase(self) }
}
