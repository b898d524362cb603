import JSONCore
import OrgClient
import SOQL
import SoupStore

/// What sync up does with one dirty record, from its control flags (sync-semantics §2.4).
enum SyncUpAction: Sendable, Hashable {
    /// Created and deleted locally: nothing is sent; the entry is removed.
    case removeLocally
    /// `DELETE` on the server, then the entry is removed.
    case delete
    /// Create (or upsert by external id) on the server.
    case create
    /// Update on the server.
    case update
    /// Dirty without an operation flag; the single-record target leaves it as it is.
    case none
}

/// One dirty soup entry as sync up sees it: its fields, its action and its ids.
///
/// Built from the stored JSON; the entry's `_soupLastModifiedDate` is kept so write-back can tell
/// whether the app edited the entry while the run was under way (§11 item 16).
struct SyncUpRecord: Sendable, Hashable {
    /// `_soupEntryId`.
    let entryID: Int64
    /// The entry's `_soupLastModifiedDate` when it was read (moved on when the run itself writes
    /// the entry before sending, e.g. a create intent).
    var storedLastModified: Int64
    /// The stored document.
    var fields: [String: OrgValue]
    /// What to do.
    var action: SyncUpAction
    /// The field holding the server id.
    let idFieldName: String
    /// The field holding the server modification date.
    let modificationDateFieldName: String
    /// The sObject type to use when the record has no `attributes.type` (parent-children targets
    /// know their types from the config).
    var defaultObjectType: String?
    /// Members of `fields` changed in memory beyond what the store holds (create recovery adopting
    /// a server id): write-back stores them with the outcome.
    var unsavedMembers: Set<String> = []

    /// Reads `entry`; `dirtyWithoutOperationIsUpdate` chooses the batch/collection reading of
    /// "dirty without operation" (an update) over the single-record one (nothing).
    ///
    /// With `members`, only those top-level members are read into `fields` (the others are
    /// skipped, not built): the record is then not the whole document, and write-back must
    /// patch the stored one (``SyncUpWriteBack/patchesUnchangedEntries``).
    init(
        entry: SoupEntry,
        idFieldName: String,
        modificationDateFieldName: String,
        dirtyWithoutOperationIsUpdate: Bool,
        defaultObjectType: String? = nil,
        members: JSONMemberSelection? = nil
    ) throws {
        self.defaultObjectType = defaultObjectType
        self.entryID = entry.entryID
        self.storedLastModified = entry.lastModified
        self.fields =
            try members.flatMap { OrgValue.members(of: entry.json, selecting: $0) }
            ?? OrgValue(parsing: entry.json).objectValue ?? [:]
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        let deleted = Self.flag(fields[ControlFields.locallyDeleted])
        let created = Self.flag(fields[ControlFields.locallyCreated])
        let updated = Self.flag(fields[ControlFields.locallyUpdated])
        switch (deleted, created, updated) {
        case (true, true, _): action = .removeLocally
        case (true, false, _): action = .delete
        case (false, true, _): action = .create
        case (false, false, true): action = .update
        case (false, false, false): action = dirtyWithoutOperationIsUpdate ? .update : .none
        }
    }

    /// The server id, when the record has one that is not a local id.
    var serverID: String? {
        guard let id = fields[idFieldName]?.stringValue, !id.isEmpty, !Self.isLocalID(id) else { return nil }
        return id
    }

    /// The id as stored (server or local), for messages and summaries.
    var storedID: String? { fields[idFieldName]?.stringValue }

    /// `attributes.type`, else the target's type for this soup.
    var objectType: String? { fields["attributes"]?["type"]?.stringValue ?? defaultObjectType }

    /// Whether `__local__` is set (leniently read, §2.2).
    var isDirty: Bool { Self.flag(fields[ControlFields.local]) }

    /// The stored modification date text.
    var localModificationDate: String? { fields[modificationDateFieldName]?.stringValue }

    /// The stored modification date, ms since the epoch.
    var localModificationMilliseconds: Int64? {
        localModificationDate.flatMap { SalesforceDateTime.milliseconds(from: $0) }
    }

    /// The external id to upsert on, when creates must become upserts (§7.7).
    func externalID(field: String?) -> String? {
        guard let field, let value = OrgValue.value(atPath: field, in: fields)?.stringValue, !value.isEmpty,
            !Self.isLocalID(value)
        else { return nil }
        return value
    }

    /// The body for a create or an update: the listed fields present in the record, without the
    /// id and modification date fields; dotted paths are read through nested objects (§7.3).
    func body(fieldList: [String]) -> [String: OrgValue] {
        var body: [String: OrgValue] = [:]
        for field in fieldList where field != idFieldName && field != modificationDateFieldName {
            if let value = OrgValue.value(atPath: field, in: fields) { body[field] = value }
        }
        return body
    }

    static func isLocalID(_ id: String) -> Bool { id.hasPrefix(ControlFields.localIDPrefix) }

    /// The top-level members a sync up reads of each dirty entry: the control flags, the id,
    /// modification date and type, the intents, and the first segment of every field `plan` sends.
    static func members(for plan: SyncUpRequestPlan) -> JSONMemberSelection {
        var members: Set<String> = [
            ControlFields.local, ControlFields.locallyCreated, ControlFields.locallyUpdated,
            ControlFields.locallyDeleted, "attributes", plan.idFieldName, plan.modificationDateFieldName,
            SyncUpCreateIntent.field, SyncUpUpdateIntent.field,
        ]
        for path in plan.createFields + plan.updateFields + (plan.externalIDField.map { [$0] } ?? []) {
            members.insert(String(path.split(separator: ".", omittingEmptySubsequences: false).first ?? ""))
        }
        return JSONMemberSelection(members)
    }

    /// Lenient flag reading: `true`, `"true"` (any case), `1` and `"1"` are set (§2.2).
    static func flag(_ value: OrgValue?) -> Bool {
        switch value {
        case .bool(let flag): flag
        case .string(let text): ["true", "1", "yes", "y"].contains(text.lowercased())
        case .integer(let number): number != 0
        case .number(let number): number != 0
        default: false
        }
    }
}

extension SyncUpRecord {
    /// A record standing for a parent that is not in the store, known only by its server id
    /// (entry id 0, nothing to do).
    init(absentEntryWithID id: String, idFieldName: String, modificationDateFieldName: String) {
        entryID = 0
        storedLastModified = 0
        fields = [idFieldName: .string(id)]
        action = .none
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
    }
}
