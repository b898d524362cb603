import OrgClient

/// The control field sync up writes on a record just before sending its create (`__syncrun_create__`),
/// so a create whose response was lost (crash, dropped connection) is recognised on the next run
/// instead of being sent twice.
///
/// ```json
/// "__syncrun_create__": {"at": 1767225600000, "attempt": 1,
///                        "fields": {"Name": "Acme", "Industry": "Energy"}}
/// ```
///
/// - `at`: when the create was about to be sent, ms since the epoch (the org's `CreatedDate` of
///   the record, if it was created, is not earlier than this minus the clock skew margin).
/// - `attempt`: how many times a create was sent for the record.
/// - `fields`: the body that was sent, matched against candidates found on the server.
///
/// The intent is written in one store transaction for a whole batch before it is sent, and
/// removed in the transaction that writes the batch's results. Creates that are upserts by
/// external id carry no intent: resending them is idempotent.
struct SyncUpCreateIntent: Sendable, Hashable {
    static let field = "__syncrun_create__"

    /// When the create was about to be sent, ms since the epoch.
    var at: Int64
    /// The number of creates sent for the record, this one included.
    var attempt: Int
    /// The body sent.
    var fields: [String: OrgValue]

    /// The intent stored in `record`, if any.
    init?(in record: [String: OrgValue]) {
        guard let stored = record[Self.field]?.objectValue, let at = stored["at"]?.integerValue else { return nil }
        self.at = at
        self.attempt = Int(stored["attempt"]?.integerValue ?? 1)
        self.fields = stored["fields"]?.objectValue ?? [:]
    }

    init(at: Int64, attempt: Int, fields: [String: OrgValue]) {
        self.at = at
        self.attempt = attempt
        self.fields = fields
    }

    /// The stored form.
    var value: OrgValue {
        .object(["at": .integer(at), "attempt": .integer(Int64(attempt)), "fields": .object(fields)])
    }
}

/// The control field sync up writes on a record just before sending its update
/// (`__syncrun_update__`, same shape as ``SyncUpCreateIntent``: `at`, `attempt`, `fields`).
///
/// An update whose response was lost (crash, dropped connection) leaves the org's record newer
/// than the local copy; the next run's `LEAVE_IF_CHANGED` check would take our own write for a
/// change made by someone else. With the intent, a server record newer than the local copy whose
/// values of the sent fields are exactly those sent is recognised as our write and sent again
/// (updates are idempotent) instead of being reported as a conflict. The intent is removed with
/// the batch's results.
enum SyncUpUpdateIntent {
    static let field = "__syncrun_update__"

    /// Whether `record`'s update retries one whose response was lost (attempt 2 or more). Such an
    /// update is sent without `If-Unmodified-Since`: the org's copy is newer because of it, and the
    /// batched check before sending has already verified that it holds exactly what was sent.
    static func isRetryOfOwnWrite(_ record: [String: OrgValue]) -> Bool {
        (intent(in: record)?.attempt ?? 1) > 1
    }

    /// The intent stored in `record`, if any.
    static func intent(in record: [String: OrgValue]) -> SyncUpCreateIntent? {
        guard let stored = record[field]?.objectValue, let at = stored["at"]?.integerValue else { return nil }
        return SyncUpCreateIntent(
            at: at,
            attempt: Int(stored["attempt"]?.integerValue ?? 1),
            fields: stored["fields"]?.objectValue ?? [:]
        )
    }
}
