import OrgClient
import SoupStore

/// Writes the outcomes of one batch back to the soup, inside the caller's transaction.
///
/// Each entry is re-read in the transaction. When the app edited it after the run read it (its
/// `_soupLastModifiedDate` moved, §11 item 16), the app's version is kept: a new server id and
/// modification date are still stored (else the next run would create it twice), but the entry
/// stays dirty as an update, and a deleted-on-server entry is not removed.
///
/// The create intent (``SyncUpCreateIntent``) of every record with an outcome is removed in the
/// same transaction: the create either happened (the id is stored) or was refused.
struct SyncUpWriteBack {
    let soupName: String
    let idFieldName: String
    let modificationDateFieldName: String
    /// A field holding the id of another record (a child's `parentIdFieldName`), rewritten
    /// through `referenceRewrites` when it holds a local id that was just replaced.
    var referenceField: String? = nil

    /// Applies `outcomes` of `records`; `serverDates` are the read-back modification dates by id;
    /// `referenceRewrites` maps local ids to the server ids they became in this batch.
    func apply(
        _ records: [SyncUpRecord],
        outcomes: [Int64: SyncUpOutcome],
        serverDates: [String: String],
        referenceRewrites: [String: String] = [:],
        writer: SoupWriter
    ) throws {
        var removals: [Int64] = []
        var documents: [String] = []
        for record in records {
            guard let outcome = outcomes[record.entryID],
                let current = try writer.reader.entry(record.entryID, in: soupName)
            else { continue }
            let isUnchanged = current.lastModified == record.storedLastModified
            var fields = isUnchanged ? record.fields : (try OrgValue(parsing: current.json).objectValue ?? [:])
            fields[SyncUpCreateIntent.field] = nil
            fields[SyncUpUpdateIntent.field] = nil
            if let referenceField, let old = fields[referenceField]?.stringValue, let new = referenceRewrites[old] {
                fields[referenceField] = .string(new)
            }
            switch outcome {
            case .deleted, .removedLocally:
                if isUnchanged { removals.append(record.entryID) }
                continue
            case .created(let id), .updated(let id):
                fields[idFieldName] = .string(id)
                if let date = serverDates[id] { fields[modificationDateFieldName] = .string(date) }
                fields[ControlFields.lastError] = nil
                if isUnchanged {
                    Self.setFlags(&fields, local: false, created: false, updated: false, deleted: false)
                } else {
                    fields[ControlFields.locallyCreated] = .bool(false)
                    if !SyncUpRecord.flag(fields[ControlFields.locallyDeleted]) {
                        fields[ControlFields.locallyUpdated] = .bool(true)
                    }
                }
            case .conflict(let conflict):
                fields[ControlFields.lastError] = .string(SyncUpLastError.conflict(conflict))
            case .failed(let errors):
                fields[ControlFields.lastError] = .string(SyncUpLastError.serverError(errors))
            case .skipped:
                continue
            }
            fields["_soupEntryId"] = .integer(record.entryID)
            documents.append(OrgValue.object(fields).jsonText)
        }
        // One set-based upsert for the batch: per-record upserts cost a dozen statements each.
        if !documents.isEmpty {
            _ = try writer.upsert(entries: "[" + documents.joined(separator: ",") + "]", into: soupName)
        }
        if !removals.isEmpty { _ = try writer.deleteEntries(removals, from: soupName) }
    }

    /// Rewrites `referenceField` of every other entry of the soup that still holds one of the
    /// local ids of `referenceRewrites` (children the app created after the run read the tree, or
    /// children outside it), keeping their flags: they must not keep pointing at a local id the
    /// server never saw.
    func rewriteReferences(_ referenceRewrites: [String: String], writer: SoupWriter) throws {
        guard let referenceField, !referenceRewrites.isEmpty else { return }
        let entries = try writer.reader.entries(
            in: soupName,
            wherePath: referenceField,
            isIn: referenceRewrites.keys.sorted()
        )
        var documents: [String] = []
        for entry in entries {
            var fields = try OrgValue(parsing: entry.json).objectValue ?? [:]
            guard let old = fields[referenceField]?.stringValue, let new = referenceRewrites[old] else { continue }
            fields[referenceField] = .string(new)
            fields["_soupEntryId"] = .integer(entry.entryID)
            documents.append(OrgValue.object(fields).jsonText)
        }
        if !documents.isEmpty {
            _ = try writer.upsert(entries: "[" + documents.joined(separator: ",") + "]", into: soupName)
        }
    }

    private static func setFlags(
        _ fields: inout [String: OrgValue],
        local: Bool,
        created: Bool,
        updated: Bool,
        deleted: Bool
    ) {
        fields[ControlFields.local] = .bool(local)
        fields[ControlFields.locallyCreated] = .bool(created)
        fields[ControlFields.locallyUpdated] = .bool(updated)
        fields[ControlFields.locallyDeleted] = .bool(deleted)
    }
}
