import SoupStore
import SyncConfig

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
/// For `parent_children` targets the counts cover both soups, parents and children, and
/// ``children`` holds the children's share of them. The run's summary of a sync down or a ghost
/// cleaning counts the parents only, and leaves out ``parentsProtectedByChildren``: its counts are
/// these minus ``children`` (and, for `fetched` and `skippedLocallyChanged`, minus
/// ``parentsProtectedByChildren``). A sync up's summary counts both, as the preview does.
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
        /// Whether it is a child of a `parent_children` target (its entry id is in the children's
        /// soup); `false` for parents and for the records of other targets.
        public var isChild: Bool

        /// Creates an item.
        public init(side: Side, action: Action, recordID: String?, entryID: Int64?, isChild: Bool = false) {
            self.side = side
            self.action = action
            self.recordID = recordID
            self.entryID = entryID
            self.isChild = isChild
        }
    }

    /// The children's share of the counts of a `parent_children` preview (each is part of the
    /// count of the same name on ``SyncPreview``); all zero for other targets.
    public struct ChildCounts: Sendable, Hashable {
        /// Children created, updated or deleted in the children's soup.
        public var local = Changes()
        /// Sync up: children created, updated or deleted on the org.
        public var org = Changes()
        /// Sync down: children left as they are because their tree (the parent or any stored child)
        /// or the child itself has local changes (`LEAVE_IF_CHANGED`).
        public var skippedLocallyChanged = 0
        /// Sync up: children the conflict check would leave alone.
        public var conflicts = 0
        /// Sync up: children refused before sending.
        public var failed = 0
        /// Sync up: children of a tree left alone because another record of it conflicts.
        public var skipped = 0
        /// Clean ghosts: children kept because another sync fetched them.
        public var keptForOtherSyncs = 0
        /// Children the queries returned (sync down), or child ids (clean ghosts).
        public var fetched = 0

        /// Creates counts; all zero by default.
        public init() {}
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
    /// has local changes (`parent_children`: every record of a tree whose parent or any stored
    /// child has local changes). Clean ghosts (`parent_children`): parents no longer returned that
    /// are kept because a child has local changes.
    public var skippedLocallyChanged = 0
    /// Sync up: records the conflict check would leave alone.
    public var conflicts = 0
    /// Sync up: records the run would refuse before sending (no server id, no `attributes.type`, a
    /// `parent_children` child whose parent is not in the parent soup).
    public var failed = 0
    /// Sync up: dirty records without an operation flag that the single-record target leaves dirty,
    /// and the records of a `parent_children` tree left alone because another of its records
    /// conflicts.
    public var skipped = 0
    /// Clean ghosts: records no longer returned that are kept because another sync fetched them.
    public var keptForOtherSyncs = 0
    /// `parent_children`: parents left alone only because one of their stored children has local
    /// changes (sync down under `LEAVE_IF_CHANGED` skips the tree; ghost cleaning keeps the parent).
    /// Counted in ``skippedLocallyChanged``.
    public var parentsProtectedByChildren = 0
    /// `parent_children`: the children's share of the counts.
    public var children = ChildCounts()
    /// Records the queries returned: server records (sync down, counted as the run counts them:
    /// a record repeated within a page once), or ids (clean ghosts); parents and children for
    /// `parent_children` targets.
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
    /// `soql` sync down: the API the run would use and why (`Bulk API 2.0 (12000 records ≥
    /// bulkThreshold 10000)`); the preview itself always reads through REST.
    public var apiDecision: String?

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
    /// An empty preview of `operation` for `definition`, whose stored state is `state` (`nil`: the
    /// sync never ran).
    init(_ definition: SyncDefinition, operation: SyncOperation, state: StoredSyncState?) {
        self.init(
            syncName: definition.name,
            syncID: state?.id,
            operation: operation,
            targetKind: definition.targetKindName
        )
    }

    /// Lists an affected record while fewer than ``itemLimit`` are listed; notes the truncation
    /// otherwise. Counting is the caller's.
    mutating func list(_ side: Side, _ action: Action, recordID: String?, entryID: Int64?, isChild: Bool = false) {
        guard items.count < Self.itemLimit else {
            itemsTruncated = true
            return
        }
        items.append(Item(side: side, action: action, recordID: recordID, entryID: entryID, isChild: isChild))
    }

    /// How many more items can be listed.
    var remainingItems: Int { Self.itemLimit - items.count }

    /// A count of the preview, for ``add(_:_:isChild:)``.
    enum Count {
        case created(Side)
        case updated(Side)
        case deleted(Side)
        case skippedLocallyChanged
        case conflicts
        case failed
        case skipped
        case keptForOtherSyncs
        case fetched

        /// Where the sync up run's `outcome` is counted.
        init(_ outcome: SyncUpOutcome) {
            switch outcome {
            // Deleted locally and already gone on the org, or created and deleted locally: the
            // entry is removed, nothing is sent.
            case .deleted, .removedLocally: self = .deleted(.local)
            case .conflict: self = .conflicts
            case .failed: self = .failed
            case .created: self = .created(.org)
            case .updated: self = .updated(.org)
            case .skipped: self = .skipped
            }
        }

        /// Where a record counted here is listed, and as what.
        var item: (side: Side, action: Action)? {
            switch self {
            case .created(let side): (side, .create)
            case .updated(let side): (side, .update)
            case .deleted(let side): (side, .delete)
            case .skippedLocallyChanged, .keptForOtherSyncs: (.local, .skip)
            case .conflicts: (.org, .conflict)
            case .failed: (.org, .fail)
            case .skipped: (.org, .skip)
            case .fetched: nil
            }
        }
    }

    /// Adds `number` to `count`, and to the same count of ``children`` when the records are children.
    mutating func add(_ number: Int, _ count: Count, isChild: Bool) {
        switch count {
        case .created(let side), .updated(let side), .deleted(let side):
            let change: WritableKeyPath<Changes, Int> =
                switch count {
                case .created: \.created
                case .updated: \.updated
                default: \.deleted
                }
            let total: WritableKeyPath<SyncPreview, Changes> = side == .local ? \.local : \.org
            self[keyPath: total][keyPath: change] += number
            let share: WritableKeyPath<ChildCounts, Changes> = side == .local ? \.local : \.org
            if isChild { children[keyPath: share][keyPath: change] += number }
        case .skippedLocallyChanged:
            skippedLocallyChanged += number
            if isChild { children.skippedLocallyChanged += number }
        case .conflicts:
            conflicts += number
            if isChild { children.conflicts += number }
        case .failed:
            failed += number
            if isChild { children.failed += number }
        case .skipped:
            skipped += number
            if isChild { children.skipped += number }
        case .keptForOtherSyncs:
            keptForOtherSyncs += number
            if isChild { children.keptForOtherSyncs += number }
        case .fetched:
            fetched += number
            if isChild { children.fetched += number }
        }
    }

    /// Counts one record under `count` and lists it.
    mutating func record(_ count: Count, recordID: String?, entryID: Int64?, isChild: Bool) {
        add(1, count, isChild: isChild)
        if let (side, action) = count.item {
            list(side, action, recordID: recordID, entryID: entryID, isChild: isChild)
        }
    }
}
