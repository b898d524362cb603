import JSONCore
import OrgClient
import SoupStore

/// Writes the outcomes of one batch back to the soup, inside the caller's transaction.
///
/// The entries' `_soupLastModifiedDate` are read again in the transaction (one statement). When
/// the app edited an entry after the run read it (its `_soupLastModifiedDate` moved, §11 item 16),
/// the app's version is kept: a new server id and modification date are still stored (else the
/// next run would create it twice), but the entry stays dirty as an update, and a
/// deleted-on-server entry is not removed.
///
/// With ``patchesUnchangedEntries``, an entry the app left alone is not rewritten from the
/// record (which may hold only some members of the document): only what the outcome changes (id,
/// modification date, flags, `__last_error__`, the intents) and the record's members changed in
/// memory (``SyncUpRecord/unsavedMembers``) are merged into the stored document, for the whole
/// batch in one transaction (``SoupWriter/patchEntries(_:in:lastModified:)``, one prepared
/// statement run per entry). Entries the app edited are written whole from their stored version,
/// as before.
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
    /// Whether entries the app left alone get only their outcome (and unsaved members) merged into
    /// the stored document, rather than the record's `fields` written as the whole document.
    var patchesUnchangedEntries = false

    /// Applies `outcomes` of `records`; `serverDates` are the read-back modification dates by id;
    /// `referenceRewrites` maps local ids to the server ids they became in this batch.
    func apply(
        _ records: [SyncUpRecord],
        outcomes: [Int64: SyncUpOutcome],
        serverDates: [String: String],
        referenceRewrites: [String: String] = [:],
        writer: SoupWriter
    ) throws {
        let stamps = try writer.reader.lastModifiedDates(
            of: records.compactMap { outcomes[$0.entryID] == nil ? nil : $0.entryID },
            in: soupName
        )
        var removals: [Int64] = []
        var patches: [Int64: JSONObject] = [:]
        var whole: [(record: SyncUpRecord, outcome: SyncUpOutcome, isUnchanged: Bool)] = []
        for record in records {
            guard let outcome = outcomes[record.entryID], let stamp = stamps[record.entryID] else { continue }
            let isUnchanged = stamp == record.storedLastModified
            switch outcome {
            case .skipped:
                continue
            case .deleted, .removedLocally:
                // An entry the app edited meanwhile stays as the app left it.
                if isUnchanged { removals.append(record.entryID) }
                continue
            default:
                break
            }
            if isUnchanged, patchesUnchangedEntries {
                patches[record.entryID] = patch(record, outcome: outcome, serverDates, referenceRewrites)
            } else {
                whole.append((record, outcome, isUnchanged))
            }
        }
        if !patches.isEmpty { try writer.patchEntries(patches, in: soupName, lastModified: stamps) }
        if !whole.isEmpty {
            try writeWhole(whole, serverDates: serverDates, referenceRewrites: referenceRewrites, writer: writer)
        }
        if !removals.isEmpty { _ = try writer.deleteEntries(removals, from: soupName) }
    }

    /// What the outcome changes in an entry the app left alone (a `null` removes the member).
    private func patch(
        _ record: SyncUpRecord,
        outcome: SyncUpOutcome,
        _ serverDates: [String: String],
        _ referenceRewrites: [String: String]
    ) -> JSONObject {
        // Only what changes: a member left as stored is not patched (its index columns are then
        // not recomputed either). The record holds every member write-back compares
        // (``SyncUpRecord/members(for:)``: the id, the intents).
        var patch = JSONObject()
        for member in record.unsavedMembers.sorted() { patch[member] = record.fields[member] ?? .null }
        for intent in [SyncUpCreateIntent.field, SyncUpUpdateIntent.field] where record.fields[intent] != nil {
            patch[intent] = .null
        }
        if let referenceField, let old = record.fields[referenceField]?.stringValue, let new = referenceRewrites[old] {
            patch[referenceField] = .string(new)
        }
        switch outcome {
        case .created(let id), .updated(let id):
            if record.fields[idFieldName]?.stringValue != id || record.unsavedMembers.contains(idFieldName) {
                patch[idFieldName] = .string(id)
            }
            if let date = serverDates[id] { patch[modificationDateFieldName] = .string(date) }
            patch[ControlFields.lastError] = .null
            for flag in [
                ControlFields.local, ControlFields.locallyCreated, ControlFields.locallyUpdated,
                ControlFields.locallyDeleted,
            ] {
                patch[flag] = .bool(false)
            }
        case .conflict(let conflict):
            patch[ControlFields.lastError] = .string(SyncUpLastError.conflict(conflict))
        case .failed(let errors):
            patch[ControlFields.lastError] = .string(SyncUpLastError.serverError(errors))
        case .deleted, .removedLocally, .skipped:
            break
        }
        return patch
    }

    /// Writes whole documents: the record's for entries the app left alone, the stored one (read
    /// in one statement) for entries it edited.
    private func writeWhole(
        _ items: [(record: SyncUpRecord, outcome: SyncUpOutcome, isUnchanged: Bool)],
        serverDates: [String: String],
        referenceRewrites: [String: String],
        writer: SoupWriter
    ) throws {
        let edited = try writer.reader.entries(
            withIDs: items.filter { !$0.isUnchanged }.map(\.record.entryID),
            in: soupName
        )
        let current = Dictionary(edited.map { ($0.entryID, $0) }) { first, _ in first }
        var documents: [String] = []
        for (record, outcome, isUnchanged) in items {
            var fields: [String: OrgValue]
            if isUnchanged {
                fields = record.fields
            } else {
                guard let entry = current[record.entryID] else { continue }
                fields = try OrgValue(parsing: entry.json).objectValue ?? [:]
            }
            fields[SyncUpCreateIntent.field] = nil
            fields[SyncUpUpdateIntent.field] = nil
            if let referenceField, let old = fields[referenceField]?.stringValue, let new = referenceRewrites[old] {
                fields[referenceField] = .string(new)
            }
            switch outcome {
            case .deleted, .removedLocally, .skipped:
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
            }
            fields["_soupEntryId"] = .integer(record.entryID)
            documents.append(OrgValue.object(fields).jsonText)
        }
        // One set-based upsert for the batch: per-record upserts cost a dozen statements each.
        if !documents.isEmpty {
            _ = try writer.upsert(entries: "[" + documents.joined(separator: ",") + "]", into: soupName)
        }
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
