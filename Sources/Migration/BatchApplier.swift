import Foundation
import OrgClient

/// The counts of one batch (or one object) and its failed records.
public struct BatchOutcome: Sendable, Hashable {
    public var created = 0
    public var updated = 0
    public var unchanged = 0
    public var failures: [MigrationFailure] = []

    public init() {}
}

/// A record left out, with the reason.
public struct MigrationFailure: Sendable, Hashable {
    public var sourceID: String
    public var message: String
}

/// The apply step: writes a batch's decisions to the target with sObject Collections calls
/// (`allOrNone` false, 200 records per call) and records each call's outcome in the id map in one
/// transaction. Creates without an external id get an intent first (see ``CreateRecovery``).
/// Records refused with `UNABLE_TO_LOCK_ROW` are resent after a backoff (``RecordLockRetry``).
struct BatchApplier: Sendable {
    let target: any OrgClient
    let books: MigrationBooks
    let sobject: String
    let externalIDField: String?
    /// The run's id, stored with the id map rows of the records it created.
    let run: String
    let now: @Sendable () -> Int64
    /// How lock refusals are resent.
    var lockRetry = RecordLockRetry()

    static let recordsPerCall = 200

    /// One collections call of `records`, resending the records refused with
    /// `UNABLE_TO_LOCK_ROW`; a result per record (a refusal without reason where none came).
    private func write(
        _ records: [SObjectRecord],
        _ operation: ([SObjectRecord]) -> CollectionOperation
    ) async throws -> [CollectionResult] {
        let results = try await lockRetry.send(records) {
            try await target.collection(operation($0), allOrNone: false).map { Optional($0) }
        } isLocked: {
            RecordLockRetry.isLockRefusal($0.errors)
        }
        return results.map { $0 ?? CollectionResult(id: nil, isSuccess: false) }
    }

    /// Writes `decisions` (waits are skipped; failures only counted).
    func apply(_ decisions: [RecordDecision]) async throws -> BatchOutcome {
        var outcome = BatchOutcome()
        var creates: [(String, [String: OrgValue])] = []
        var upserts: [(String, [String: OrgValue])] = []
        var updates: [(String, String, [String: OrgValue])] = []
        var unchanged: [(sourceID: String, targetID: String)] = []
        for decision in decisions {
            switch decision.action {
            case .create(let fields): creates.append((decision.sourceID, fields))
            case .upsert(let fields): upserts.append((decision.sourceID, fields))
            case .update(let targetID, let fields): updates.append((decision.sourceID, targetID, fields))
            case .unchanged(let targetID):
                outcome.unchanged += 1
                if !decision.isMapped { unchanged.append((decision.sourceID, targetID)) }
            case .wait: break
            case .fail(let reason):
                outcome.failures.append(MigrationFailure(sourceID: decision.sourceID, message: reason))
            }
        }
        if !unchanged.isEmpty {
            try books.recordBatch(sobject: sobject, mapped: unchanged, createdRun: nil, clearIntents: [])
        }
        for slice in creates.chunked(Self.recordsPerCall) {
            let at = now()
            try books.recordIntents(
                slice.map {
                    CreateIntent(sobject: sobject, sourceID: $0.0, body: OrgValue.object($0.1).jsonText, at: at)
                }
            )
            let results = try await write(slice.map { SObjectRecord(objectType: sobject, fields: $0.1) }) {
                .create($0)
            }
            var mapped: [(sourceID: String, targetID: String)] = []
            for ((sourceID, _), result) in zip(slice, results) {
                if result.isSuccess, let id = result.id {
                    mapped.append((sourceID, id))
                    outcome.created += 1
                } else {
                    outcome.failures.append(MigrationFailure(sourceID: sourceID, message: Self.message(result)))
                }
            }
            try books.recordBatch(sobject: sobject, mapped: mapped, createdRun: run, clearIntents: slice.map(\.0))
        }
        if let externalIDField {
            for slice in upserts.chunked(Self.recordsPerCall) {
                let results = try await write(slice.map { SObjectRecord(objectType: sobject, fields: $0.1) }) {
                    .upsert(objectType: sobject, externalIDField: externalIDField, records: $0)
                }
                var created: [(sourceID: String, targetID: String)] = []
                var updated: [(sourceID: String, targetID: String)] = []
                for ((sourceID, _), result) in zip(slice, results) {
                    if result.isSuccess, let id = result.id {
                        if result.isCreated == false {
                            updated.append((sourceID, id))
                        } else {
                            created.append((sourceID, id))
                        }
                    } else {
                        outcome.failures.append(MigrationFailure(sourceID: sourceID, message: Self.message(result)))
                    }
                }
                outcome.created += created.count
                outcome.updated += updated.count
                try books.recordBatch(sobject: sobject, mapped: created, createdRun: run, clearIntents: [])
                try books.recordBatch(sobject: sobject, mapped: updated, createdRun: nil, clearIntents: [])
            }
        }
        for slice in updates.chunked(Self.recordsPerCall) {
            let results = try await write(slice.map { SObjectRecord(objectType: sobject, id: $0.1, fields: $0.2) }) {
                .update($0)
            }
            var mapped: [(sourceID: String, targetID: String)] = []
            for ((sourceID, targetID, _), result) in zip(slice, results) {
                if result.isSuccess {
                    mapped.append((sourceID, targetID))
                    outcome.updated += 1
                } else {
                    outcome.failures.append(MigrationFailure(sourceID: sourceID, message: Self.message(result)))
                }
            }
            try books.recordBatch(sobject: sobject, mapped: mapped, createdRun: nil, clearIntents: [])
        }
        return outcome
    }

    /// The target's refusal, as `CODE: message (fields)`; never field values.
    static func message(_ result: CollectionResult) -> String {
        guard !result.errors.isEmpty else { return "the target refused the record without a reason" }
        return "the target refused it: "
            + result.errors.map { error in
                var text = "\(error.errorCode): \(error.message)"
                if !error.fields.isEmpty { text += " (\(error.fields.joined(separator: ", ")))" }
                return text
            }.joined(separator: "; ")
    }
}
