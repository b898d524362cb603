/// One step of a ``SyncPlan``: run a sync up, run a sync down, or clean the ghosts a sync down
/// left behind.
///
/// Keys (as written by ``SyncPlan/rendered(as:)`` in the JSON format, in this order):
/// - `id` (string): `"<kind>:<syncName>"`, unique in the plan, e.g. `"syncDown:accountsDown"`.
/// - `kind` (string): ``Kind`` raw value.
/// - `syncName` (string), `soupName` (string): the sync and its configured soup.
/// - `soups` (array of strings): every soup the step reads or writes (a `parent_children` target
///   touches two, a `briefcase` one per info).
/// - `target` (string): the target kind, e.g. `soql`, `parent_children`, `collection`, `custom`.
/// - `resync` (string, sync down only): how a re-run fetches (``Resync``).
/// - `api` (string, `soql` sync down only): which API the run uses, REST or Bulk API 2.0, and when.
/// - `dependsOn` (array of step ids): steps that must finish first, in plan order.
/// - `reasons` (array of ``PlanReason``): why, one entry per rule that added an edge.
public struct PlanStep: Sendable, Hashable, Codable {
    /// What a step does. The raw values are part of the committed JSON plan format: never
    /// rename them.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Send the soup's dirty records to the org.
        case syncUp
        /// Fetch records from the org. The first run of a sync is a full fetch; later runs are
        /// resyncs (see ``PlanStep/Resync``): the engine decides from the stored sync state.
        case syncDown
        /// Delete clean local records the org no longer returns for the sync down.
        case cleanGhosts

        /// Words for people: `sync up`, `sync down`, `clean ghosts`.
        public var displayName: String {
            switch self {
            case .syncUp: "sync up"
            case .syncDown: "sync down"
            case .cleanGhosts: "clean ghosts"
            }
        }
    }

    /// How a sync down fetches when it runs again after a first, full run.
    ///
    /// The plan has no separate resync step: a `syncDown` step is a resync whenever the store
    /// already holds a state for the sync, and this value says what that costs.
    public enum Resync: String, Sendable, Hashable, Codable, CaseIterable {
        /// Only records modified since the last run (`soql`, `parent_children`, `refresh`,
        /// `briefcase`).
        case incremental
        /// Everything again (`sosl`, `mru`, `layout`, `metadata`).
        case full
        /// Up to the plug-in (`custom`).
        case pluginDefined
    }

    /// Unique id: `"<kind>:<syncName>"`.
    public var id: String
    /// What the step does.
    public var kind: Kind
    /// The sync the step runs.
    public var syncName: String
    /// The sync's configured soup (`soupName`).
    public var soupName: String
    /// Every soup the step reads or writes, the configured one first.
    public var soups: [String]
    /// The target kind: a sync down `type` or a sync up kind (`single`, `batch`, `collection`,
    /// `parent_children`, `custom`).
    public var target: String
    /// How a re-run of a sync down fetches; `nil` for other kinds.
    public var resync: Resync?
    /// Ids of the steps that must finish first, in plan order.
    public var dependsOn: [String]
    /// Why the step waits for each of ``dependsOn``, in the same order.
    public var reasons: [PlanReason]
    /// The requests the step sends, as declared (`endpoint` and `layout` targets: method, path and
    /// query with their `{Field}` placeholders); `nil` for the other targets.
    public var requests: [String]?
    /// `soql` sync down: which API the run uses (`REST below 10000 records, Bulk API 2.0 at or
    /// above`); `nil` for other steps.
    public var api: String? = nil

    /// Creates a step.
    public init(
        kind: Kind,
        syncName: String,
        soupName: String,
        soups: [String],
        target: String,
        resync: Resync? = nil,
        dependsOn: [String] = [],
        reasons: [PlanReason] = [],
        requests: [String]? = nil
    ) {
        self.requests = requests
        self.id = Self.id(kind: kind, syncName: syncName)
        self.kind = kind
        self.syncName = syncName
        self.soupName = soupName
        self.soups = soups
        self.target = target
        self.resync = resync
        self.dependsOn = dependsOn
        self.reasons = reasons
    }

    /// The id of the step of `kind` for the sync `syncName`.
    public static func id(kind: Kind, syncName: String) -> String {
        "\(kind.rawValue):\(syncName)"
    }
}
