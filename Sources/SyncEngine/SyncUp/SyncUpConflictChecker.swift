import OrgClient
import SOQL

/// The batched `LEAVE_IF_CHANGED` check (sync-semantics §7.4, §8.3, §11 items 1–2).
///
/// Every record to update or delete that has a server id is looked up with one sObject
/// Collections retrieve (`POST /composite/sobjects/<type>`, up to 2,000 ids, only the
/// modification field) per sObject type, instead of one `GET` per record. A collection retrieve
/// was chosen over a SOQL `Id IN (…)` query because it reports deleted records as `null` in
/// place, needs no query-length budgeting and costs one call per 2,000 ids either way.
///
/// Collections `PATCH` has no conditional header, so for the collection and batch targets this
/// check is the conflict detection; the single-record target also sends `If-Unmodified-Since`
/// on its updates, which closes the race between the check and the write.
struct SyncUpConflictChecker: Sendable {
    let org: any OrgClient
    let modificationDateFieldName: String

    /// The server's version of a record.
    enum ServerVersion: Sendable, Hashable {
        /// The record exists; its modification date text, when returned, and the values of the
        /// fields of the record's update intent (``SyncUpUpdateIntent``), when it has one.
        case present(modified: String?, values: [String: OrgValue] = [:])
        /// The record does not exist (deleted, or never visible to this user).
        case deleted
    }

    /// Looks up the server version of every record of `records` to update or delete.
    ///
    /// - Returns: The version by `_soupEntryId`.
    /// - Throws: `OrgClientError` when a retrieve fails as a whole.
    func serverVersions(of records: [SyncUpRecord]) async throws -> [Int64: ServerVersion] {
        var idsByType: [String: [(entryID: Int64, id: String)]] = [:]
        var intentFields: [String: Set<String>] = [:]
        for record in records where record.action == .update || record.action == .delete {
            guard let type = record.objectType, let id = record.serverID else { continue }
            idsByType[type, default: []].append((record.entryID, id))
            if let intent = SyncUpUpdateIntent.intent(in: record.fields) {
                intentFields[type, default: []].formUnion(intent.fields.keys)
            }
        }
        var versions: [Int64: ServerVersion] = [:]
        for type in idsByType.keys.sorted() {
            let entries = idsByType[type] ?? []
            for start in stride(from: 0, to: entries.count, by: 2000) {
                let chunk = Array(entries[start..<min(start + 2000, entries.count)])
                let values = try await org.retrieveCollection(
                    type,
                    ids: chunk.map(\.id),
                    fields: [modificationDateFieldName]
                        + (intentFields[type] ?? []).subtracting([modificationDateFieldName]).sorted()
                )
                for (index, entry) in chunk.enumerated() {
                    let value = index < values.count ? values[index] : nil
                    versions[entry.entryID] =
                        if let value, !value.isNull {
                            .present(
                                modified: value[modificationDateFieldName]?.stringValue,
                                values: value.objectValue ?? [:]
                            )
                        } else {
                            .deleted
                        }
                }
            }
        }
        return versions
    }

    /// What becomes of `record` before anything is sent: removed from the soup (created then
    /// deleted locally), skipped (no operation flag), or the check's outcome (``decide(_:server:)``);
    /// `nil` when it must be sent. The run, the endpoint run and the dry run decide with it.
    static func outcomeBeforeSending(_ record: SyncUpRecord, server: ServerVersion?) -> SyncUpOutcome? {
        switch record.action {
        case .removeLocally: .removedLocally
        case .none: .skipped
        case .create, .update, .delete: decide(record, server: server)
        }
    }

    /// The outcome decided by the check for `record`, or `nil` when it must be sent.
    static func decide(_ record: SyncUpRecord, server: ServerVersion?) -> SyncUpOutcome? {
        guard let server else { return nil }
        switch (record.action, server) {
        case (.delete, .deleted):
            return .deleted
        case (.update, .deleted):
            return .conflict(
                SyncUpConflict(
                    reason: .deletedOnServer,
                    serverModified: nil,
                    localModified: record.localModificationDate
                )
            )
        case (_, .present(let modified, let values)):
            // No local timestamp: the check degrades to overwrite (§7.4).
            guard let local = record.localModificationMilliseconds, let modified,
                let remote = SalesforceDateTime.milliseconds(from: modified), remote > local
            else { return nil }
            // Our own update, whose response was lost: the server holds exactly what we sent.
            if record.action == .update, let intent = SyncUpUpdateIntent.intent(in: record.fields),
                !intent.fields.isEmpty, SyncUpCreateRecovery.matches(values, sent: intent.fields)
            {
                return nil
            }
            return .conflict(
                SyncUpConflict(
                    reason: .modifiedOnServer,
                    serverModified: modified,
                    localModified: record.localModificationDate
                )
            )
        default:
            return nil
        }
    }
}
