import OrgClient

/// What happened to one record in a sync up run; write-back turns it into the entry's new state.
enum SyncUpOutcome: Sendable, Hashable {
    /// Created (or upserted) on the server with this id.
    case created(id: String)
    /// Updated on the server.
    case updated(id: String)
    /// Deleted on the server, or already gone there.
    case deleted
    /// Created and deleted locally: never sent, removed from the soup.
    case removedLocally
    /// Left as it is on both sides because the server changed it (`LEAVE_IF_CHANGED`).
    case conflict(SyncUpConflict)
    /// The server refused the record; the reason goes to `__last_error__`.
    case failed([OrgErrorDetail])
    /// Dirty without an operation flag (single-record target): left dirty, nothing sent.
    case skipped

    /// Whether the server now holds the local version (flags are reset on write-back).
    var serverID: String? {
        switch self {
        case .created(let id), .updated(let id): id
        default: nil
        }
    }
}

/// A `LEAVE_IF_CHANGED` conflict, stored as structured JSON in `__last_error__` (§11 item 3).
public struct SyncUpConflict: Sendable, Hashable {
    /// Why the record conflicts.
    public enum Reason: String, Sendable, Hashable {
        /// The server's modification date is later than the one stored locally.
        case modifiedOnServer
        /// The record was deleted on the server while it was changed locally.
        case deletedOnServer
    }

    /// Why the record conflicts.
    public var reason: Reason
    /// The server's modification date, when known (Salesforce date-time text).
    public var serverModified: String?
    /// The modification date stored locally, when the record has one.
    public var localModified: String?

    /// Creates a conflict.
    public init(reason: Reason, serverModified: String?, localModified: String?) {
        self.reason = reason
        self.serverModified = serverModified
        self.localModified = localModified
    }
}

/// The `__last_error__` documents sync up writes: JSON text, with a `kind` key.
///
/// ```json
/// {"kind":"conflict","reason":"modifiedOnServer","serverModified":"2026-01-01T00:00:05.000+0000",
///  "localModified":"2026-01-01T00:00:00.000+0000"}
/// {"kind":"serverError","errors":[{"errorCode":"REQUIRED_FIELD_MISSING","message":"…","fields":["Name"]}]}
/// ```
enum SyncUpLastError {
    static func conflict(_ conflict: SyncUpConflict) -> String {
        OrgValue.object([
            "kind": "conflict", "reason": .string(conflict.reason.rawValue),
            "serverModified": conflict.serverModified.map(OrgValue.string) ?? .null,
            "localModified": conflict.localModified.map(OrgValue.string) ?? .null,
        ]).jsonText
    }

    static func serverError(_ errors: [OrgErrorDetail]) -> String {
        let entries = errors.map { error -> OrgValue in
            .object([
                "errorCode": .string(error.errorCode), "message": .string(error.message),
                "fields": .array(error.fields.map(OrgValue.string)),
            ])
        }
        return OrgValue.object(["kind": "serverError", "errors": .array(entries)]).jsonText
    }
}
