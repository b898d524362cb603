import Foundation
import OrgClient

/// Sends records in composite calls of up to 25 subrequests (`POST /composite`, `allOrNone`
/// false; sync-semantics §8.2). Updates carry `If-Unmodified-Since` under `LEAVE_IF_CHANGED`
/// (412 = conflict, §11 item 1); updates answered "not found" are re-created in one further call
/// under `OVERWRITE`, and only they are resent (§11 item 21).
///
/// The composite calls go out as many at once as the run's ``RequestWindow`` lets; records
/// refused with `UNABLE_TO_LOCK_ROW` are resent after a backoff (``RecordLockRetry``).
struct BatchSyncUpSender: GroupedSyncUpSender {
    let org: any OrgClient
    let plan: SyncUpRequestPlan
    /// Subrequests per composite call (`maxBatchSize`, at most 25).
    let callSize: Int
    /// The run's requests in flight.
    var window = RequestWindow(limit: 1)
    /// How lock refusals are resent.
    var lockRetry = RecordLockRetry()

    /// Sends `records` (each to create, update or delete) and returns each one's outcome.
    ///
    /// - Throws: `OrgClientError` when a composite call fails as a whole (the run fails).
    func send(_ records: [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome] {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        let recreate = try await calls(records, forceCreate: false, into: &outcomes)
        if plan.isOverwrite, !recreate.isEmpty {
            _ = try await calls(recreate, forceCreate: true, into: &outcomes)
        } else {
            for record in recreate {
                outcomes[record.entryID] = .conflict(
                    SyncUpConflict(
                        reason: .deletedOnServer,
                        serverModified: nil,
                        localModified: record.localModificationDate
                    )
                )
            }
        }
        return outcomes
    }

    /// Sends `records` in composite calls of `callSize`, as many at once as ``window`` lets, and
    /// records each one's outcome; returns the updates answered "not found", in record order.
    private func calls(
        _ records: [SyncUpRecord],
        forceCreate: Bool,
        into outcomes: inout [Int64: SyncUpOutcome]
    ) async throws -> [SyncUpRecord] {
        let size = max(callSize, 1)
        let chunks = stride(from: 0, to: records.count, by: size).map {
            Array(records[$0..<min($0 + size, records.count)])
        }
        var notFound: [[SyncUpRecord]] = Array(repeating: [], count: chunks.count)
        let sender = self
        try await window.forEach(chunks) { chunk in
            try await sender.call(chunk, forceCreate: forceCreate)
        } receive: { index, answer in
            outcomes.merge(answer.outcomes) { $1 }
            notFound[index] = answer.notFound
        }
        return notFound.flatMap { $0 }
    }

    /// What one composite call came to.
    private struct CallAnswer: Sendable {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        var notFound: [SyncUpRecord] = []
    }

    private func call(_ records: [SyncUpRecord], forceCreate: Bool) async throws -> CallAnswer {
        var answer = CallAnswer()
        var sent: [(record: SyncUpRecord, request: SyncUpRequestPlan.Request, subrequest: CompositeSubrequest)] = []
        for record in records {
            let request = plan.request(for: record, forceCreate: forceCreate)
            if let subrequest = subrequest(for: request, record: record) {
                sent.append((record, request, subrequest))
            } else if case .invalid(let error) = request {
                answer.outcomes[record.entryID] = .failed([error])
            } else {
                answer.outcomes[record.entryID] = .failed([
                    SyncUpRequestPlan.localError("MISSING_OBJECT_TYPE", "the record has no 'attributes.type'")
                ])
            }
        }
        guard !sent.isEmpty else { return answer }
        let org = org
        let responses = try await lockRetry.send(sent.map(\.subrequest)) { subrequests in
            let responses = try await org.composite(subrequests, allOrNone: false)
            let byReference = Dictionary(responses.map { ($0.referenceID, $0) }) { first, _ in first }
            return subrequests.map { byReference[$0.referenceID] }
        } isLocked: {
            RecordLockRetry.isLockRefusal($0.errors)
        }
        for ((record, request, _), response) in zip(sent, responses) {
            switch Self.outcome(of: response, request: request, record: record) {
            case .decided(let outcome): answer.outcomes[record.entryID] = outcome
            case .notFound: answer.notFound.append(record)
            }
        }
        return answer
    }

    /// How one subresponse reads for a record.
    enum ResponseReading: Sendable, Hashable {
        case decided(SyncUpOutcome)
        /// An update of a record that does not exist on the server (404 or a not-found code).
        case notFound
    }

    /// Reads the subresponse to `request` (`nil` when the server sent none): success gives the
    /// id, 412 a conflict, a not-found update is reported, a not-found delete is a success.
    static func outcome(
        of response: CompositeSubresponse?,
        request: SyncUpRequestPlan.Request,
        record: SyncUpRecord
    ) -> ResponseReading {
        guard let response else {
            return .decided(.failed([SyncUpRequestPlan.localError("NO_RESULT", "the server sent no subresponse")]))
        }
        let isNotFound = response.statusCode == 404 || SyncUpRequestPlan.isNotFound(response.errors)
        switch request {
        case .create, .upsert:
            if response.isSuccess, let id = response.id { return .decided(.created(id: id)) }
            return .decided(.failed(response.errors))
        case .update(_, let id, _):
            if response.isSuccess { return .decided(.updated(id: id)) }
            if response.statusCode == 412 {
                return .decided(
                    .conflict(
                        SyncUpConflict(
                            reason: .modifiedOnServer,
                            serverModified: nil,
                            localModified: record.localModificationDate
                        )
                    )
                )
            }
            return isNotFound ? .notFound : .decided(.failed(response.errors))
        case .delete:
            return .decided(response.isSuccess || isNotFound ? .deleted : .failed(response.errors))
        case .invalid(let error):
            return .decided(.failed([error]))
        }
    }

    private func subrequest(for request: SyncUpRequestPlan.Request, record: SyncUpRecord) -> CompositeSubrequest? {
        Self.subrequest(for: request, record: record, plan: plan, referenceID: Self.referenceID(record))
    }

    /// The composite subrequest for `request`, or `nil` when it cannot be sent (no type, invalid).
    static func subrequest(
        for request: SyncUpRequestPlan.Request,
        record: SyncUpRecord,
        plan: SyncUpRequestPlan,
        referenceID reference: String
    ) -> CompositeSubrequest? {
        switch request {
        case .create(let type, let fields):
            return .create(type, fields: fields, referenceID: reference)
        case .upsert(let type, let externalID, let fields):
            guard let field = plan.externalIDField else { return nil }
            var body = fields
            body[field] = nil  // the key is in the URL
            return .upsert(type, externalIDField: field, externalID: externalID, fields: body, referenceID: reference)
        case .update(let type, let id, let fields):
            let since =
                plan.isOverwrite || SyncUpUpdateIntent.isRetryOfOwnWrite(record.fields)
                ? nil
                : record.localModificationMilliseconds.map {
                    HTTPDate(Date(timeIntervalSince1970: Double($0) / 1000))
                }
            return .update(type, id: id, fields: fields, referenceID: reference, ifUnmodifiedSince: since)
        case .delete(let type, let id):
            guard let type else { return nil }
            return .delete(type, id: id, referenceID: reference)
        case .invalid:
            return nil
        }
    }

    /// Entry ids are unique in the soup, so they make unique reference ids.
    private static func referenceID(_ record: SyncUpRecord) -> String { "entry\(record.entryID)" }
}
