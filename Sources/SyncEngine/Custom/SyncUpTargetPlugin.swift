import JSONCore
import SOQL

/// A dirty soup entry as a sync up plug-in sees it.
public struct CustomSyncUpRecord: Sendable, Hashable {
    /// What the record needs on the server.
    public enum Action: String, Sendable, Hashable {
        /// Created locally (`__locally_created__`).
        case create
        /// Updated locally (`__locally_updated__`, or dirty with no operation flag).
        case update
        /// Deleted locally (`__locally_deleted__`).
        case delete
    }

    /// What the record needs.
    public let action: Action
    /// `_soupEntryId`.
    public let entryID: Int64
    /// The stored document, control fields included.
    public let fields: [String: JSONValue]
    /// The server id; `nil` while the record has only a local id (`local_…`).
    public let id: String?
    /// `attributes.type`, when the record has one.
    public let objectType: String?
    /// The stored value of the modification date field.
    public let localModificationDate: String?

    /// Creates a record (the engine does this; tests of a plug-in may too).
    public init(
        action: Action,
        entryID: Int64,
        fields: [String: JSONValue],
        id: String?,
        objectType: String?,
        localModificationDate: String?
    ) {
        self.action = action
        self.entryID = entryID
        self.fields = fields
        self.id = id
        self.objectType = objectType
        self.localModificationDate = localModificationDate
    }
}

/// A sync up target written in Swift: Mobile SDK's `SyncUpTarget` contract (create, update and
/// delete on server, the records to sync up, is-newer-than-server, the id and modification-date
/// field names) as a protocol.
///
/// The engine streams the soup's dirty records in batches (entry-id order), asks
/// ``isToSyncUp(_:)`` which to send, runs the `LEAVE_IF_CHANGED` check through
/// ``isNewerThanServer(_:context:)``, calls the write for each record, and writes the outcome back
/// in one transaction per batch: a record written is cleaned (new server id for a create, server
/// modification date from ``serverModificationDate(of:id:context:)``), a record whose write threw
/// keeps its local change with the error in `__last_error__`.
///
/// Errors: throw ``CustomTargetError`` (or any error) to refuse one record; it stays local. An
/// `OrgClientError` with a 4xx status other than 401 and 429 refuses the record too (with the
/// server's errors); other `OrgClientError`s (connection lost, server errors after retries, an
/// expired session) end the run `FAILED`, every unsent change still local. A 404 on delete means
/// the record is already gone.
public protocol SyncUpTargetPlugin: Sendable {
    /// Creates `record` on the server with `fields` (the create field list's values present in
    /// the record) and returns its new server id.
    func createOnServer(_ record: CustomSyncUpRecord, fields: [String: JSONValue], context: CustomTargetContext)
        async throws -> String

    /// Updates the server record `id` with `fields` (the update field list's values).
    func updateOnServer(
        _ record: CustomSyncUpRecord,
        id: String,
        fields: [String: JSONValue],
        context: CustomTargetContext
    ) async throws

    /// Deletes the server record `id`.
    func deleteOnServer(_ record: CustomSyncUpRecord, id: String, context: CustomTargetContext) async throws

    /// Whether to send `record` in this run (default `true`: every dirty record); the streaming
    /// form of the SDK's `getIdsOfRecordsToSyncUp`. Records not sent stay dirty, counted skipped.
    func isToSyncUp(_ record: CustomSyncUpRecord) -> Bool

    /// Under `LEAVE_IF_CHANGED`, whether the local version of `record` (an update or a delete) is
    /// newer than the server's; `false` leaves it unsent, as a conflict. Must only read. Default:
    /// compares ``serverModificationDate(of:id:context:)`` with the stored modification date
    /// (newer when the server has no date, or one not after the stored one).
    func isNewerThanServer(_ record: CustomSyncUpRecord, context: CustomTargetContext) async throws -> Bool

    /// The server's modification date of record `id` (Salesforce date-time text), read after a
    /// create or an update so the next run does not take this write for a server change, and by
    /// the default ``isNewerThanServer(_:context:)``; `nil` (the default) when unknown.
    func serverModificationDate(of record: CustomSyncUpRecord, id: String, context: CustomTargetContext)
        async throws -> String?

    /// The field holding the server id, when the plug-in fixes it (default `nil`: the config's
    /// `idFieldName`).
    var idFieldName: String? { get }

    /// The field holding the modification date, when the plug-in fixes it (default `nil`: the
    /// config's `modificationDateFieldName`).
    var modificationDateFieldName: String? { get }
}

extension SyncUpTargetPlugin {
    public func isToSyncUp(_ record: CustomSyncUpRecord) -> Bool { true }

    public func isNewerThanServer(_ record: CustomSyncUpRecord, context: CustomTargetContext) async throws -> Bool {
        guard let id = record.id,
            let server = try await serverModificationDate(of: record, id: id, context: context)
                .flatMap(SalesforceDateTime.milliseconds(from:))
        else { return true }
        guard let local = record.localModificationDate.flatMap(SalesforceDateTime.milliseconds(from:)) else {
            return false
        }
        return server <= local
    }

    public func serverModificationDate(of record: CustomSyncUpRecord, id: String, context: CustomTargetContext)
        async throws -> String?
    { nil }

    public var idFieldName: String? { nil }

    public var modificationDateFieldName: String? { nil }
}
