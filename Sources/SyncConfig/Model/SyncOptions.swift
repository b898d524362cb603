import JSONCore

/// A sync's `options` object.
///
/// Keys:
/// - `mergeMode` (string, default `"OVERWRITE"`, a warning when absent): ``MergeMode``.
/// - `fieldlist` (array of strings, default absent): sync up fields sent on create/update when
///   the target has no specific list; stored but unused by sync down.
/// - `cleanGhosts` (bool, default `false`, product extension): run ghost cleaning after the
///   sync down.
/// - `mask` (object, product extension): field name → ``FieldMask``, applied by `syncrun migrate`
///   to the values this sync up writes; `run` and `sync` never mask.
/// - `maxConcurrentRequests` (int 1…25, default 4, product extension): the most requests this
///   sync up (or the migration of its object) keeps in flight at once; 1 sends one at a time.
///   `--max-requests` on the command line overrides it.
/// - `minApiShare` (int percent 0…100, default 10, product extension): when the org reports less
///   than this share of its daily API requests left, sync up drops to one request at a time.
/// - `stopApiShare` (int percent 0…100, default 2, product extension): below this share left, sync
///   up stops cleanly between batches (resumable). `--min-api-share` / `--stop-api-share` override.
///
/// Other keys are kept verbatim in ``extraKeys``.
public struct SyncOptions: Sendable, Hashable {
    /// Fields sent by sync up when the target has no create/update list (`fieldlist`).
    public var fieldlist: [String]?
    /// What happens to locally changed records (`mergeMode`).
    public var mergeMode: MergeMode
    /// Whether ghost cleaning follows a sync down (`cleanGhosts`, product extension).
    public var cleanGhosts: Bool
    /// Masks `migrate` applies to written fields, by field name as the config spells it (`mask`).
    public var mask: [String: FieldMask]
    /// The most requests in flight at once (`maxConcurrentRequests`, product extension).
    public var maxConcurrentRequests: Int
    /// The share of the daily API allocation (percent) below which sync up sends one request at a
    /// time (`minApiShare`, product extension).
    public var minApiShare: Int
    /// The share of the daily API allocation (percent) below which sync up stops (`stopApiShare`).
    public var stopApiShare: Int
    /// Keys of the options object the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// `maxConcurrentRequests` when the config leaves it out.
    public static let defaultMaxConcurrentRequests = 4
    /// The accepted `maxConcurrentRequests`; larger values are clamped with a warning.
    public static let maxConcurrentRequestsRange = 1...25
    /// `minApiShare` when the config leaves it out (percent).
    public static let defaultMinApiShare = 10
    /// `stopApiShare` when the config leaves it out (percent).
    public static let defaultStopApiShare = 2

    /// Creates options; the defaults match a config with no `options` object.
    public init(
        fieldlist: [String]? = nil,
        mergeMode: MergeMode = .overwrite,
        cleanGhosts: Bool = false,
        mask: [String: FieldMask] = [:],
        maxConcurrentRequests: Int = SyncOptions.defaultMaxConcurrentRequests,
        minApiShare: Int = SyncOptions.defaultMinApiShare,
        stopApiShare: Int = SyncOptions.defaultStopApiShare,
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.minApiShare = minApiShare
        self.stopApiShare = stopApiShare
        self.mask = mask
        self.maxConcurrentRequests = maxConcurrentRequests
        self.fieldlist = fieldlist
        self.mergeMode = mergeMode
        self.cleanGhosts = cleanGhosts
        self.extraKeys = extraKeys
    }
}

/// How a sync treats records with unsynced local changes, compared exactly (case-sensitive).
public enum MergeMode: String, Sendable, Hashable, CaseIterable {
    /// Server wins: sync down replaces dirty records, sync up skips the conflict check.
    case overwrite = "OVERWRITE"
    /// Local wins: sync down leaves dirty records alone, sync up skips records changed on the
    /// server since they were last synced down.
    case leaveIfChanged = "LEAVE_IF_CHANGED"
}
