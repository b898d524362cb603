/// One Change Data Capture event, decoded from its Avro payload with its schema (Change Data
/// Capture Developer Guide, "Change Event Message Structure"): what changed, on which records, and
/// where it is in the topic (its replay id).
public struct ChangeEvent: Sendable, Hashable {
    /// The header's `changeType`.
    public enum ChangeType: String, Sendable, Hashable, CaseIterable {
        case create = "CREATE"
        case update = "UPDATE"
        case delete = "DELETE"
        case undelete = "UNDELETE"
        case gapCreate = "GAP_CREATE"
        case gapUpdate = "GAP_UPDATE"
        case gapDelete = "GAP_DELETE"
        case gapUndelete = "GAP_UNDELETE"
        case gapOverflow = "GAP_OVERFLOW"
        case snapshot = "SNAPSHOT"

        /// A gap or overflow event: the org could not say what changed (or too much did), so the
        /// subscriber must read the object again (Change Data Capture Developer Guide, "Gap
        /// Events" and "Overflow Events").
        public var needsResync: Bool {
            switch self {
            case .gapCreate, .gapUpdate, .gapDelete, .gapUndelete, .gapOverflow: true
            case .create, .update, .delete, .undelete, .snapshot: false
            }
        }
    }

    /// The object (`entityName`), such as `Account`.
    public var entity: String
    /// What happened.
    public var changeType: ChangeType
    /// The records it happened to (`recordIds`; empty or `000000000000000AAA` for some overflow
    /// events).
    public var recordIDs: [String]
    /// The fields set by the change (`changedFields`, expanded against the schema).
    public var changedFields: [String]
    /// The fields the change emptied (`nulledFields`, expanded).
    public var nulledFields: [String]
    /// The large text fields sent as diffs (`diffFields`, expanded).
    public var diffFields: [String]
    /// When the change was committed on the org (`commitTimestamp`, ms since the epoch).
    public var commitTimestamp: Int64
    /// The transaction (`transactionKey`) and the event's place in it (`sequenceNumber`).
    public var transactionKey: String
    public var sequenceNumber: Int
    /// The event's replay id in its topic: opaque bytes.
    public var replayID: [UInt8]

    /// Creates an event.
    public init(
        entity: String,
        changeType: ChangeType,
        recordIDs: [String],
        changedFields: [String] = [],
        nulledFields: [String] = [],
        diffFields: [String] = [],
        commitTimestamp: Int64,
        transactionKey: String = "",
        sequenceNumber: Int = 1,
        replayID: [UInt8]
    ) {
        self.entity = entity
        self.changeType = changeType
        self.recordIDs = recordIDs
        self.changedFields = changedFields
        self.nulledFields = nulledFields
        self.diffFields = diffFields
        self.commitTimestamp = commitTimestamp
        self.transactionKey = transactionKey
        self.sequenceNumber = sequenceNumber
        self.replayID = replayID
    }
}
