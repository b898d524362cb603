import Foundation
import OrgClient
import SOQL

/// Sends records one REST call each (sync-semantics §7): `POST` / upsert by external id,
/// `PATCH` (with `If-Unmodified-Since` under `LEAVE_IF_CHANGED`, 412 = conflict, §11 item 1) and
/// `DELETE` (404 = already deleted).
///
/// Records go out as many at once as the run's ``RequestWindow`` lets (each record is one
/// request, independent of the others); a record refused with `UNABLE_TO_LOCK_ROW` is resent
/// after a backoff (``RecordLockRetry``).
struct SingleSyncUpSender: Sendable {
    let org: any OrgClient
    let plan: SyncUpRequestPlan
    /// The run's requests in flight.
    var window = RequestWindow(limit: 1)
    /// How lock refusals are resent.
    var lockRetry = RecordLockRetry()

    /// Sends `records` and returns each one's outcome.
    ///
    /// - Throws: `OrgClientError` without an HTTP answer (network, timeout, authentication): the
    ///   run fails. HTTP refusals of one record become that record's outcome.
    func send(_ records: [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome] {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        let sender = self
        try await window.forEach(records) { record in
            try Task.checkCancellation()
            let answers = try await sender.lockRetry.send([record]) {
                [try await sender.send($0[0])]
            } isLocked: {
                if case .failed(let errors) = $0 { RecordLockRetry.isLockRefusal(errors) } else { false }
            }
            return answers.first.flatMap { $0 } ?? .failed([])
        } receive: { index, outcome in
            outcomes[records[index].entryID] = outcome
        }
        return outcomes
    }

    private func send(_ record: SyncUpRecord) async throws -> SyncUpOutcome {
        switch plan.request(for: record) {
        case .invalid(let error):
            return .failed([error])
        case .create(let type, let fields):
            return try await perRecord { .created(id: try await org.create(type, fields: fields)) }
        case .upsert(let type, let externalID, let fields):
            guard let field = plan.externalIDField else {
                return .failed([SyncUpRequestPlan.localError("MISSING_EXTERNAL_ID_FIELD", "no external id field")])
            }
            var body = fields
            body[field] = nil  // the key is in the URL
            return try await perRecord {
                .created(
                    id: try await org.upsert(type, externalIDField: field, externalID: externalID, fields: body).id
                )
            }
        case .delete(let type, let id):
            guard let type else {
                return .failed([
                    SyncUpRequestPlan.localError("MISSING_OBJECT_TYPE", "the record has no 'attributes.type'")
                ])
            }
            do {
                try await org.delete(type, id: id)
                return .deleted
            } catch let error as OrgClientError where error.code == .notFound {
                return .deleted
            } catch let error as OrgClientError where Self.isRecordRefusal(error) {
                return .failed(error.serverErrors)
            }
        case .update(let type, let id, let fields):
            let since: Date? =
                plan.isOverwrite || SyncUpUpdateIntent.isRetryOfOwnWrite(record.fields)
                ? nil
                : record.localModificationMilliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            do {
                try await org.update(type, id: id, fields: fields, ifUnmodifiedSince: since)
                return .updated(id: id)
            } catch let error as OrgClientError where error.code == .conflict {
                return .conflict(
                    SyncUpConflict(
                        reason: .modifiedOnServer,
                        serverModified: nil,
                        localModified: record.localModificationDate
                    )
                )
            } catch let error as OrgClientError where error.code == .notFound {
                guard plan.isOverwrite else {
                    return .conflict(
                        SyncUpConflict(
                            reason: .deletedOnServer,
                            serverModified: nil,
                            localModified: record.localModificationDate
                        )
                    )
                }
                var copy = record
                copy.action = .create
                return try await send(copy)
            } catch let error as OrgClientError where Self.isRecordRefusal(error) {
                return .failed(error.serverErrors)
            }
        }
    }

    private func perRecord(_ body: () async throws -> SyncUpOutcome) async throws -> SyncUpOutcome {
        do {
            return try await body()
        } catch let error as OrgClientError where Self.isRecordRefusal(error) {
            return .failed(
                error.serverErrors.isEmpty
                    ? [.init(errorCode: "\(error.code)", message: error.message)] : error.serverErrors
            )
        }
    }

    /// An HTTP answer about this record (400, 403, 404, 409…), as opposed to a failure of the
    /// connection, the session or the org as a whole, which fails the run.
    static func isRecordRefusal(_ error: OrgClientError) -> Bool {
        guard let status = error.httpStatus else { return false }
        return (400..<500).contains(status) && status != 401 && status != 429
    }
}
