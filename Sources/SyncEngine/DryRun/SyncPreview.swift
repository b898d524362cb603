/// What running one sync operation now would change, computed with reads only (`--dry-run`).
///
/// Counts are per side: ``local`` is the store, ``org`` the org.
///
/// - Sync down: records the queries return now, decided against the store as the run would
///   (sync-semantics §4.5): new ones are `local.created`, stored ones `local.updated`, stored ones
///   with local changes under `LEAVE_IF_CHANGED` ``skippedLocallyChanged``.
/// - Sync up: dirty records (`__local__`) in entry-id order, with the run's `LEAVE_IF_CHANGED`
///   check: sends are `org.created` / `org.updated` / `org.deleted`, records the check would leave
///   alone ``conflicts``. Entries the run removes without sending anything (created then deleted
///   locally, or deleted locally and already gone on the org) are `local.deleted`. Writing
///   server ids and flags back to sent records is not counted as a local change.
/// - Clean ghosts: the clean records this sync fetched that the ids-only queries no longer
///   return and no other sync still claims are `local.deleted`; the others ``keptForOtherSyncs``.
///
/// ```swift
/// let preview = try await engine.preview(definition, operation: .syncDown)
/// print(preview.local.created, preview.local.updated, preview.skippedLocallyChanged)
/// ```
public struct SyncPreview: Sendable, Hashable {
    /// How many ``items`` a preview lists at most.
    public static let itemLimit = 50

    /// Records created, updated and deleted on one side.
    public struct Changes: Sendable, Hashable {
        /// Records that would be created.
        public var created: Int
        /// Records that would be updated.
        public var updated: Int
        /// Records that would be deleted.
        public var deleted: Int

        /// Creates counts; all zero by default.
        public init(created: Int = 0, updated: Int = 0, deleted: Int = 0) {
            self.created = created
            self.updated = updated
            self.deleted = deleted
        }

        /// `created + updated + deleted`.
        public var total: Int { created + updated + deleted }
    }

    /// Where a change would happen.
    public enum Side: String, Sendable, Hashable {
        /// The store.
        case local
        /// The org.
        case org
    }

    /// What would happen to one record.
    public enum Action: String, Sendable, Hashable {
        /// Created on its side.
        case create
        /// Updated on its side.
        case update
        /// Deleted on its side.
        case delete
        /// Left alone on both sides: the org changed it since it was synced down (sync up,
        /// `LEAVE_IF_CHANGED`).
        case conflict
        /// Left as it is: local changes protect it (sync down, `LEAVE_IF_CHANGED`), it has no
        /// operation flag (single-record sync up), or another sync still claims it (ghosts).
        case skip
        /// Refused before sending: it lacks what a request needs (a server id, `attributes.type`).
        case fail
    }

    /// One affected record.
    public struct Item: Sendable, Hashable {
        /// Where the change would happen.
        public var side: Side
        /// What would happen.
        public var action: Action
        /// The record's id (server id, or `local_…` for a record created locally), when known.
        public var recordID: String?
        /// Its `_soupEntryId`, when it is stored.
        public var entryID: Int64?

        /// Creates an item.
        public init(side: Side, action: Action, recordID: String?, entryID: Int64?) {
            self.side = side
            self.action = action
            self.recordID = recordID
            self.entryID = entryID
        }
    }

    /// The sync's name.
    public var syncName: String
    /// The stored sync's id; `nil` for a sync that never ran (its state is not created).
    public var syncID: Int64?
    /// The operation previewed.
    public var operation: SyncOperation
    /// The target's `type` (`soql`, `syncUp`…).
    public var targetKind: String
    /// Changes to the store.
    public var local = Changes()
    /// Changes to the org.
    public var org = Changes()
    /// Sync down: server records a `LEAVE_IF_CHANGED` run would skip because their stored copy
    /// has local changes.
    public var skippedLocallyChanged = 0
    /// Sync up: records the conflict check would leave alone.
    public var conflicts = 0
    /// Sync up: records the run would refuse before sending (no server id, no `attributes.type`).
    public var failed = 0
    /// Sync up: dirty records without an operation flag that the single-record target leaves dirty.
    public var skipped = 0
    /// Clean ghosts: records no longer returned that are kept because another sync fetched them.
    public var keptForOtherSyncs = 0
    /// Records the queries returned: server records (sync down, counted as the run counts them),
    /// or ids (clean ghosts).
    public var fetched = 0
    /// Sync up: dirty records scanned.
    public var selected = 0
    /// Pages of records, ids or dirty records processed.
    public var pages = 0
    /// HTTP requests the preview sent to the org, retries included (from the client's statistics,
    /// so requests other tasks send through the same client meanwhile are counted too).
    public var requests = 0
    /// Sync down: whether the run would be a resync from the stored watermark.
    public var isIncremental = false
    /// Sync down: the watermark the run would start from (ms since the epoch, -1 for none).
    public var maxTimeStamp: Int64 = -1
    /// The first ``itemLimit`` affected records, in the order the run would meet them.
    public var items: [Item] = []
    /// Whether more records are affected than ``items`` lists.
    public var itemsTruncated = false

    /// Creates an empty preview.
    public init(syncName: String, syncID: Int64?, operation: SyncOperation, targetKind: String) {
        self.syncName = syncName
        self.syncID = syncID
        self.operation = operation
        self.targetKind = targetKind
    }

    /// Whether running the operation would change anything on either side.
    public var hasChanges: Bool { local.total + org.total > 0 }
}

extension SyncPreview {
    /// Lists an affected record while fewer than ``itemLimit`` are listed; notes the truncation
    /// otherwise. Counting is the caller's.
    mutating func list(_ side: Side, _ action: Action, recordID: String?, entryID: Int64?) {
        guard items.count < Self.itemLimit else {
            itemsTruncated = true
            return
        }
        items.append(Item(side: side, action: action, recordID: recordID, entryID: entryID))
    }

    /// How many more items can be listed.
    var remainingItems: Int { Self.itemLimit - items.count }
}
