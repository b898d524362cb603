import JSONCore
import OrgClient
import SyncEngine

/// Sync up of contacts through the sObject REST API, one record per call, that refuses to send a
/// contact whose `Email` is not an email address: such a record stays local, with the reason in
/// its `__last_error__`, and the others go up. Under `LEAVE_IF_CHANGED` the server's
/// `LastModifiedDate` (read with `serverModificationDate`) decides conflicts, through the
/// protocol's default `isNewerThanServer`.
struct CheckedContactSyncUpTarget: SyncUpTargetPlugin {
    func createOnServer(_ record: CustomSyncUpRecord, fields: [String: JSONValue], context: CustomTargetContext)
        async throws -> String
    {
        try Self.check(fields)
        return try await context.org.create(record.objectType ?? "Contact", fields: fields)
    }

    func updateOnServer(
        _ record: CustomSyncUpRecord,
        id: String,
        fields: [String: JSONValue],
        context: CustomTargetContext
    ) async throws {
        try Self.check(fields)
        try await context.org.update(record.objectType ?? "Contact", id: id, fields: fields, ifUnmodifiedSince: nil)
    }

    func deleteOnServer(_ record: CustomSyncUpRecord, id: String, context: CustomTargetContext) async throws {
        try await context.org.delete(record.objectType ?? "Contact", id: id)
    }

    func serverModificationDate(of record: CustomSyncUpRecord, id: String, context: CustomTargetContext)
        async throws -> String?
    {
        let raw = try await context.org.retrieve(record.objectType ?? "Contact", id: id, fields: ["LastModifiedDate"])
        return try JSONValue(parsing: raw.text)["LastModifiedDate"]?.stringValue
    }

    /// An email, when present, is `local@domain.tld`.
    static func check(_ fields: [String: JSONValue]) throws {
        guard let email = fields["Email"]?.stringValue, !email.isEmpty else { return }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasSuffix("."),
            !email.contains(" ")
        else {
            throw CustomTargetError(
                "'\(email)' is not an email address; fix 'Email' and run again",
                code: "INVALID_EMAIL_ADDRESS",
                fields: ["Email"]
            )
        }
    }
}
