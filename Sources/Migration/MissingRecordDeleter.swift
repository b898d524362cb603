import Foundation
import OrgClient
import SoupStore

/// `--delete-missing` for one object: the target records the pair's journal maps (an earlier run
/// created or matched them) whose source record is no longer in the staging soup (which then
/// holds exactly what the source returns for the sync downs' queries: their ghosts were cleaned)
/// are deleted with sObject Collections deletes (`allOrNone` false, 200 per call); each call's
/// deleted records leave the id map in one transaction. A target record the journal does not map
/// is never a candidate, so nothing a migration did not bring is deleted.
struct MissingRecordDeleter: Sendable {
    let target: any OrgClient
    let books: MigrationBooks
    let store: SoupStore
    let batchSize: Int

    /// Finds the missing records of `object` and deletes them (`dryRun`: lists them only).
    func run(_ object: MigrationObject, dryRun: Bool, into entry: inout MigrationReport.Object) async throws {
        var after: String?
        while true {
            let rows = try books.idMapRows(of: object.sobject, after: after, limit: max(batchSize, 1))
            guard let last = rows.last else { return }
            after = last.sourceID
            let present = try presentInSoup(rows.map(\.sourceID), object: object)
            let missing = rows.filter { !present.contains($0.sourceID) }
            guard !missing.isEmpty else { continue }
            if dryRun {
                note(missing, in: &entry)
                continue
            }
            for slice in missing.chunked(BatchApplier.recordsPerCall) {
                let results = try await target.collection(.delete(ids: slice.map(\.targetID)), allOrNone: false)
                var gone: [IDMapRow] = []
                for (row, result) in zip(slice, results) {
                    if result.isSuccess || result.errors.contains(where: { Self.alreadyGone.contains($0.errorCode) }) {
                        gone.append(row)
                    } else {
                        entry.failed += 1
                        if entry.failures.count < MigrationReport.failuresListed {
                            entry.failures.append(
                                MigrationFailure(
                                    sourceID: row.sourceID,
                                    message: "--delete-missing: the source no longer returns it, but its target record "
                                        + "\(row.targetID) was not deleted: "
                                        + BatchApplier.message(result).replacingOccurrences(
                                            of: "the target refused it: ",
                                            with: "the target refused: "
                                        )
                                )
                            )
                        }
                    }
                }
                try books.recordBatch(
                    sobject: object.sobject,
                    mapped: [],
                    createdRun: nil,
                    clearIntents: [],
                    forget: gone.map(\.sourceID)
                )
                note(gone, in: &entry)
            }
        }
    }

    /// The errors of a delete whose record is not there any more (deleted by hand, or by a cascade).
    static let alreadyGone: Set<String> = ["ENTITY_IS_DELETED", "NOT_FOUND", "INVALID_CROSS_REFERENCE_KEY"]

    private func note(_ rows: [IDMapRow], in entry: inout MigrationReport.Object) {
        entry.deleted += rows.count
        let room = MigrationReport.failuresListed - entry.deletions.count
        if room > 0 {
            entry.deletions += rows.prefix(room).map {
                MigrationReport.Deletion(sourceID: $0.sourceID, targetID: $0.targetID)
            }
        }
    }

    /// Which of `sourceIDs` the object's staging soup holds.
    private func presentInSoup(_ sourceIDs: [String], object: MigrationObject) throws -> Set<String> {
        let entries = try store.readNow { try $0.entries(in: object.soup, wherePath: object.idField, isIn: sourceIDs) }
        var present: Set<String> = []
        for item in entries {
            let record = try OrgValue(parsing: item.json).objectValue ?? [:]
            if let id = OrgValue.value(atPath: object.idField, in: record, ignoringCase: true)?.stringValue {
                present.insert(id)
            }
        }
        return present
    }
}
