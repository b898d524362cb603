import OrgClient
import SoupStore
import SyncEngine

/// The second pass of one object: the references deferred by the first (self-references and
/// references closing a cycle, nillable) are written once every record exists in the target.
///
/// Decide: per batch of soup entries, the record's target id and each deferred reference's target
/// id from the id map, compared with the target's current values (one collection retrieve).
/// Apply: one collections update per 200 records that differ. A reference to a record neither
/// migrated nor found fails the record (its reference is left empty in the target).
struct ReferencePass: Sendable {
    let target: any OrgClient
    let books: MigrationBooks
    let store: SoupStore
    let object: MigrationObject
    let run: String
    let batchSize: Int

    func run(stop: StopSignal, progress: (Int) -> Void) async throws -> BatchOutcome {
        var outcome = BatchOutcome()
        var after: Int64 = 0
        var done = 0
        let references = object.deferredReferences
        let fields = references.map(\.field)
        while true {
            if stop.isStopRequested { throw MigrationError(.failed, "stopped; run again with --resume") }
            let page = try store.readNow { try $0.entries(in: object.soup, afterEntryID: after, limit: batchSize) }
            guard let last = page.last else { break }
            after = last.entryID
            done += page.count
            var records: [(sourceID: String, values: [String: String?])] = []
            for item in page {
                let record = try OrgValue(parsing: item.json).objectValue ?? [:]
                guard let id = OrgValue.value(atPath: object.idField, in: record, ignoringCase: true)?.stringValue
                else { continue }
                var values: [String: String?] = [:]
                for field in fields {
                    guard let value = OrgValue.value(atPath: field, in: record, ignoringCase: true) else { continue }
                    values[field] = value.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                }
                if !values.isEmpty { records.append((id, values)) }
            }
            let own = try books.targetIDs(of: records.map(\.sourceID), sobjects: [object.sobject])
            let referenced = Set(records.flatMap { $0.values.values.compactMap { $0 } })
            let targets = try books.targetIDs(
                of: Array(referenced),
                sobjects: Array(Set(references.flatMap(\.referenceTo)))
            )
            let ownTargets = Array(Set(own.values))
            var current: [String: [String: OrgValue]] = [:]
            for slice in ownTargets.chunked(2000) {
                let values = try await target.retrieveCollection(object.sobject, ids: slice, fields: ["Id"] + fields)
                for (id, value) in zip(slice, values) { current[id] = value?.objectValue }
            }
            let created = try books.createdBy(run: run, sobject: object.sobject, sourceIDs: records.map(\.sourceID))
            var updates: [(sourceID: String, targetID: String, fields: [String: OrgValue])] = []
            for record in records {
                // A record the first pass did not write has its own failure already.
                guard let targetID = own[record.sourceID], let values = current[targetID] else { continue }
                var body: [String: OrgValue] = [:]
                var problem: String?
                for (field, sourceValue) in record.values.sorted(by: { $0.key < $1.key }) {
                    guard let sourceValue else {
                        body[field] = .null
                        continue
                    }
                    if let mapped = targets[sourceValue] {
                        body[field] = .string(mapped)
                    } else {
                        problem =
                            "\(field) refers to \(sourceValue), which was neither migrated nor found in the target; "
                            + "the field is left empty in the target"
                    }
                }
                if let problem {
                    outcome.failures.append(MigrationFailure(sourceID: record.sourceID, message: problem))
                    continue
                }
                if !Values.holds(values, body) { updates.append((record.sourceID, targetID, body)) }
            }
            for slice in updates.chunked(BatchApplier.recordsPerCall) {
                let results = try await target.collection(
                    .update(
                        slice.map { SObjectRecord(objectType: object.sobject, id: $0.targetID, fields: $0.fields) }
                    ),
                    allOrNone: false
                )
                for (update, result) in zip(slice, results) {
                    if result.isSuccess {
                        // The first write of a record this run created is part of its creation.
                        if !created.contains(update.sourceID) { outcome.updated += 1 }
                    } else {
                        outcome.failures.append(
                            MigrationFailure(sourceID: update.sourceID, message: BatchApplier.message(result))
                        )
                    }
                }
            }
            progress(done)
        }
        return outcome
    }
}
