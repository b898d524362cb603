import Foundation
import OrgClient

/// Sends records in composite calls of up to 25 subrequests (`POST /composite`, `allOrNone`
/// false; sync-semantics §8.2). Updates carry `If-Unmodified-Since` under `LEAVE_IF_CHANGED`
/// (412 = conflict, §11 item 1); updates answered "not found" are re-created in one further call
/// under `OVERWRITE`, and only they are resent (§11 item 21).
struct BatchSyncUpSender: Sendable {
    let org: any OrgClient
    let plan: SyncUpRequestPlan
    /// Subrequests per composite call (`maxBatchSize`, at most 25).
    let callSize: Int

    /// Sends `records` (each to create, update or delete) and returns each one's outcome.
    ///
    /// - Throws: `OrgClientError` when a composite call fails as a whole (the run fails).
    func send(_ records: [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome] {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        var recreate: [SyncUpRecord] = []
        for start in stride(from: 0, to: records.count, by: callSize) {
            let chunk = Array(records[start..<min(start + callSize, records.count)])
            try await call(chunk, forceCreate: false, into: &outcomes, notFound: &recreate)
        }
        if plan.isOverwrite, !recreate.isEmpty {
            var ignored: [SyncUpRecord] = []
            for start in stride(from: 0, to: recreate.count, by: callSize) {
                let chunk = Array(recreate[start..<min(start + callSize, recreate.count)])
                try await call(chunk, forceCreate: true, into: &outcomes, notFound: &ignored)
            }
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

    private func call(
        _ records: [SyncUpRecord],
        forceCreate: Bool,
        into outcomes: inout [Int64: SyncUpOutcome],
        notFound: inout [SyncUpRecord]
    ) async throws {
        var sent: [(record: SyncUpRecord, request: SyncUpRequestPlan.Request)] = []
        var subrequests: [CompositeSubrequest] = []
        for record in records {
            let request = plan.request(for: record, forceCreate: forceCreate)
            if let subrequest = subrequest(for: request, record: record) {
                sent.append((record, request))
                subrequests.append(subrequest)
            } else if case .invalid(let error) = request {
                outcomes[record.entryID] = .failed([error])
            } else {
                outcomes[record.entryID] = .failed([
                    SyncUpRequestPlan.localError("MISSING_OBJECT_TYPE", "the record has no 'attributes.type'")
                ])
            }
        }
        guard !subrequests.isEmpty else { return }
        let responses = try await org.composite(subrequests, allOrNone: false)
        let byReference = Dictionary(responses.map { ($0.referenceID, $0) }) { first, _ in first }
        for (record, request) in sent {
            switch Self.outcome(of: byReference[Self.referenceID(record)], request: request, record: record) {
            case .decided(let outcome): outcomes[record.entryID] = outcome
            case .notFound: notFound.append(record)
            }
        }
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
