import OrgClient
import SyncConfig

/// The per-target settings every sender needs: field lists, external id, merge mode.
struct SyncUpRequestPlan: Sendable {
    /// Fields sent on create (`createFieldlist`, else `options.fieldlist`).
    let createFields: [String]
    /// Fields sent on update (`updateFieldlist`, else `options.fieldlist`).
    let updateFields: [String]
    /// `externalIdFieldName`.
    let externalIDField: String?
    /// `mergeMode` is `OVERWRITE`.
    let isOverwrite: Bool
    let idFieldName: String
    let modificationDateFieldName: String

    /// How a record is written, or why it cannot be.
    enum Request: Sendable, Hashable {
        case create(type: String, fields: [String: OrgValue])
        case upsert(type: String, externalID: String, fields: [String: OrgValue])
        case update(type: String, id: String, fields: [String: OrgValue])
        case delete(type: String?, id: String)
        case invalid(OrgErrorDetail)
    }

    /// The request for `record` (whose action is create, update or delete).
    func request(for record: SyncUpRecord, forceCreate: Bool = false) -> Request {
        let action = forceCreate ? .create : record.action
        if action == .delete {
            guard let id = record.serverID else {
                return .invalid(Self.localError("MISSING_ID", "the record has no server id to delete"))
            }
            return .delete(type: record.objectType, id: id)
        }
        guard let type = record.objectType else {
            return .invalid(
                Self.localError(
                    "MISSING_OBJECT_TYPE",
                    "the record has no 'attributes.type'; set it to its sObject type"
                )
            )
        }
        if action == .create {
            var fields = record.body(fieldList: createFields)
            if let field = externalIDField, let externalID = record.externalID(field: field) {
                // The upsert key travels in the URL (single, batch) or in the body (collection).
                fields[field] = .string(externalID)
                return .upsert(type: type, externalID: externalID, fields: fields)
            }
            return .create(type: type, fields: fields)
        }
        guard let id = record.serverID else {
            return .invalid(Self.localError("MISSING_ID", "the record to update has no server id"))
        }
        return .update(type: type, id: id, fields: record.body(fieldList: updateFields))
    }

    /// An error found before sending, in the server's error shape.
    static func localError(_ code: String, _ message: String) -> OrgErrorDetail {
        OrgErrorDetail(errorCode: code, message: message)
    }

    /// Whether a collection or composite error means "the record does not exist" (§8.3).
    static func isNotFound(_ errors: [OrgErrorDetail]) -> Bool {
        guard let code = errors.first?.errorCode else { return false }
        return code == "INVALID_CROSS_REFERENCE_KEY" || code == "ENTITY_IS_DELETED" || code == "NOT_FOUND"
    }
}

/// Reads back the modification date of records just created or updated, one collection retrieve
/// per sObject type and 2,000 ids, so the next local edit is not taken for a conflict with our
/// own write (§11 item 4).
struct SyncUpReadBack: Sendable {
    let org: any OrgClient
    let modificationDateFieldName: String

    /// The server modification date by record id.
    func modificationDates(of written: [(type: String, id: String)]) async throws -> [String: String] {
        var idsByType: [String: [String]] = [:]
        for record in written { idsByType[record.type, default: []].append(record.id) }
        var dates: [String: String] = [:]
        for type in idsByType.keys.sorted() {
            let ids = idsByType[type] ?? []
            for start in stride(from: 0, to: ids.count, by: 2000) {
                let chunk = Array(ids[start..<min(start + 2000, ids.count)])
                let values = try await org.retrieveCollection(type, ids: chunk, fields: [modificationDateFieldName])
                for (id, value) in zip(chunk, values) {
                    if let date = value?[modificationDateFieldName]?.stringValue { dates[id] = date }
                }
            }
        }
        return dates
    }
}
