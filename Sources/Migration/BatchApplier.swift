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

    public init(sourceID: String, message: String) {
        self.sourceID = sourceID
        self.message = message
    }
}

/// The apply step: writes a batch's decisions to the target with sObject Collections calls
/// (`allOrNone` false, 200 records per call) and records each call's outcome in the id map in one
/// transaction. Creates without an external id get an intent first (see ``CreateRecovery``).
struct BatchApplier: Sendable {
    let target: any OrgClient
    let books: MigrationBooks
    let sobject: String
    let externalIDField: String?
    /// The run's id, stored with the id map rows of the records it created.
    let run: String
    let now: @Sendable () -> Int64

    static let recordsPerCall = 200

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
            let results = try await target.collection(
                .create(slice.map { SObjectRecord(objectType: sobject, fields: $0.1) }),
                allOrNone: false
            )
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
                let results = try await target.collection(
                    .upsert(
                        objectType: sobject,
                        externalIDField: externalIDField,
                        records: slice.map { SObjectRecord(objectType: sobject, fields: $0.1) }
                    ),
                    allOrNone: false
                )
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
            let results = try await target.collection(
                .update(slice.map { SObjectRecord(objectType: sobject, id: $0.1, fields: $0.2) }),
                allOrNone: false
            )
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
