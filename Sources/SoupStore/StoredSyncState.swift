/// A sync's definition and run state as MobileSync keeps it in `syncs_soup` (sync-semantics §3,
/// store.md §7.2).
///
/// `target` and `options` stay JSON text: the engine serialises its typed target and options,
/// the store keeps them byte-for-byte inside the document. Keys the SDK does not know (counters,
/// checkpoints) go in `extraJSON`; the SDK ignores them.
public struct StoredSyncState: Sendable, Hashable {
    /// `type`: which way the sync goes.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case syncDown
        case syncUp
    }

    /// `status`.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case new = "NEW"
        case stopped = "STOPPED"
        case running = "RUNNING"
        case done = "DONE"
        case failed = "FAILED"
    }

    /// `_soupEntryId`: the sync's id (`__sync_id__` of the records it writes).
    public var id: Int64
    /// `type`.
    public var kind: Kind
    /// `name`, unique when present.
    public var name: String?
    /// `target`, a JSON object.
    public var targetJSON: String
    /// `options`, a JSON object (`mergeMode`, optional `fieldlist`).
    public var optionsJSON: String
    /// `soupName`.
    public var soupName: String
    /// `status`.
    public var status: Status
    /// `progress`, percent.
    public var progress: Int
    /// `totalSize`, -1 while unknown.
    public var totalSize: Int
    /// `maxTimeStamp`, ms since the epoch; -1 initially.
    public var maxTimeStamp: Int64
    /// `startTime`, ms since the epoch; 0 until the first run.
    public var startTime: Int64
    /// `endTime`, ms since the epoch; 0 until a run ends.
    public var endTime: Int64
    /// `error`, the last failure's message; empty when none.
    public var error: String
    /// Other keys of the document as a JSON object (`nil` when there are none).
    public var extraJSON: String?
    /// `_soupLastModifiedDate` of the stored document.
    public var lastModified: Int64

    /// Creates a state value.
    public init(
        id: Int64,
        kind: Kind,
        name: String?,
        targetJSON: String,
        optionsJSON: String,
        soupName: String,
        status: Status = .new,
        progress: Int = 0,
        totalSize: Int = -1,
        maxTimeStamp: Int64 = -1,
        startTime: Int64 = 0,
        endTime: Int64 = 0,
        error: String = "",
        extraJSON: String? = nil,
        lastModified: Int64 = 0
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.targetJSON = targetJSON
        self.optionsJSON = optionsJSON
        self.soupName = soupName
        self.status = status
        self.progress = progress
        self.totalSize = totalSize
        self.maxTimeStamp = maxTimeStamp
        self.startTime = startTime
        self.endTime = endTime
        self.error = error
        self.extraJSON = extraJSON
        self.lastModified = lastModified
    }

    /// The soup MobileSync keeps sync states in.
    public static let soupName = "syncs_soup"

    /// Its index specs: `json1` on `type`, `name`, `status`.
    public static let soupSpec = SoupSpec(
        name: soupName,
        indexes: [
            IndexSpec(path: "type", type: .json1), IndexSpec(path: "name", type: .json1),
            IndexSpec(path: "status", type: .json1),
        ]
    )

    /// The document keys the store manages (everything else is `extraJSON`).
    static let documentKeys = [
        "type", "name", "target", "options", "soupName", "status", "progress", "totalSize", "maxTimeStamp",
        "startTime", "endTime", "error",
    ]
}
