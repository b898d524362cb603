import OrgClient
import SOQL
import SoupStore

/// The decide step of one object's first pass: pure reads of the staging store, the id map and the
/// target org; returns one ``RecordDecision`` per record.
///
/// A record's counterpart is, in order: the id map's; the target record with the same external id
/// (`externalIdFieldName`); the one target record with the same `matchFields` key (several: the
/// record fails). Without one it is created (an upsert with an external id). Reference fields are
/// rewritten through the id map; a reference to a record neither migrated nor found fails the
/// record (left out), never a wrong id.
struct RecordDecider: Sendable {
    let target: any OrgClient
    let books: MigrationBooks
    let store: SoupStore
    let object: MigrationObject
    /// Target field types by lowercased name (for typed SOQL literals).
    let targetFieldTypes: [String: String]
    /// The staging soup and id field of each written object, by lowercased sObject name.
    let soups: [String: (soup: String, idField: String)]
    let isDryRun: Bool
    /// The sync up's masks, applied to each record before anything is matched or written.
    var masker: FieldMasker = .none
    /// Polymorphic values pointing at objects this run does not write.
    var foreign: ForeignReferences = .none
    /// The source org (to read the keys of those records).
    var source: (any OrgClient)? = nil

    /// The most values in one `IN (…)` or `OR` list of a matching query (keeps the URL short).
    static let keysPerQuery = 100

    /// Decides `records` (parsed soup entries).
    ///
    /// - Parameter waiting: in parent-first rounds, whether a record whose required parent is in
    ///   the soup but not written yet waits (`true`) or fails (the last round).
    func decide(_ records: [[String: OrgValue]], waiting: Bool = false) async throws -> [RecordDecision] {
        let records = masker.isEmpty ? records : records.map(masker.mask)
        let sourceIDs = records.map {
            OrgValue.value(atPath: object.idField, in: $0, ignoringCase: true)?.stringValue ?? ""
        }
        let references = object.immediateReferences
        var referenced: Set<String> = []
        for record in records {
            for reference in references {
                if let id = OrgValue.value(atPath: reference.field, in: record, ignoringCase: true)?.stringValue,
                    !id.isEmpty
                {
                    referenced.insert(id)
                }
            }
        }
        let referenceObjects = Array(Set(references.flatMap(\.referenceTo)))
        let referenceTargets = try books.targetIDs(of: Array(referenced), sobjects: referenceObjects)
        let unresolved = referenced.filter { referenceTargets[$0] == nil }
        // Records of migrated objects that are in the staging store but not written (yet).
        let staged = try stagedIDs(Array(unresolved), among: referenceObjects)
        let foreignTargets = try await foreign.matchByKeys(
            unresolved.filter { !staged.contains($0) }.sorted(),
            source: source,
            target: target
        )
        let targets = referenceTargets.merging(foreignTargets) { mapped, _ in mapped }
        var leftOut: [(field: String, object: String)] = []

        let mapped = try books.targetIDs(of: sourceIDs.filter { !$0.isEmpty }, sobjects: [object.sobject])
        let compareFields = MigrationOrder.union(object.createFields, object.updateFields).filter { field in
            !object.deferredReferences.contains { $0.field.lowercased() == field.lowercased() }
        }
        let existing = try await retrieve(Array(Set(mapped.values)), fields: compareFields)

        var decisions: [RecordDecision?] = Array(repeating: nil, count: records.count)
        var createBodies: [[String: OrgValue]] = Array(repeating: [:], count: records.count)
        var updateBodies: [[String: OrgValue]] = Array(repeating: [:], count: records.count)
        for (index, record) in records.enumerated() {
            guard !sourceIDs[index].isEmpty else {
                decisions[index] = RecordDecision(
                    sourceID: "(entry without '\(object.idField)')",
                    action: .fail("the staged record has no '\(object.idField)'")
                )
                continue
            }
            var omitted: Set<String> = []
            func recordBody(_ fields: [String]) -> Result<[String: OrgValue], BodyProblem> {
                body(
                    of: record,
                    fields: fields,
                    targets: targets,
                    staged: staged,
                    waiting: waiting,
                    omitted: &omitted
                )
            }
            let created = recordBody(object.createFields)
            let updated = recordBody(object.updateFields)
            if case .success = created, case .success = updated {
                leftOut += omitted.sorted().map { item in
                    let parts = item.split(separator: "\u{1}", maxSplits: 1).map(String.init)
                    return ("\(object.sobject).\(parts[0])", parts.count > 1 ? parts[1] : "?")
                }
            }
            switch (created, updated) {
            case (.failure(let problem), _), (_, .failure(let problem)):
                switch problem {
                case .wait: decisions[index] = RecordDecision(sourceID: sourceIDs[index], action: .wait)
                case .fail(let reason):
                    decisions[index] = RecordDecision(sourceID: sourceIDs[index], action: .fail(reason))
                }
            case (.success(let create), .success(let update)):
                createBodies[index] = create
                updateBodies[index] = update
            }
        }

        // The id map first.
        var unmatched: [Int] = []
        for index in records.indices where decisions[index] == nil {
            if let targetID = mapped[sourceIDs[index]], let current = existing[targetID] {
                decisions[index] = RecordDecision(
                    sourceID: sourceIDs[index],
                    action: Self.compare(current, targetID: targetID, update: updateBodies[index]),
                    isMapped: true
                )
            } else {
                unmatched.append(index)
            }
        }
        // Then the external id, then matchFields.
        var byKey: [Int] = []
        var byExternalID: [Int] = []
        if let external = object.externalIDField {
            for index in unmatched {
                let value = OrgValue.value(atPath: external, in: records[index], ignoringCase: true)
                if let value, !value.isNull, value.stringValue != "" {
                    byExternalID.append(index)
                } else {
                    byKey.append(index)
                }
            }
            let found = try await match(records, indexes: byExternalID, keys: [external], fields: compareFields)
            for index in byExternalID {
                let candidates = found[Self.key(of: records[index], keys: [external])] ?? []
                var upsert = createBodies[index]
                upsert[external] = OrgValue.value(atPath: external, in: records[index], ignoringCase: true)
                decisions[index] = decision(
                    sourceIDs[index],
                    candidates: candidates,
                    keys: [external],
                    update: updateBodies[index],
                    otherwise: .upsert(fields: upsert)
                )
            }
        } else {
            byKey = unmatched
        }
        if !object.matchFields.isEmpty {
            let found = try await match(records, indexes: byKey, keys: object.matchFields, fields: compareFields)
            for index in byKey {
                let candidates = found[Self.key(of: records[index], keys: object.matchFields)] ?? []
                decisions[index] = decision(
                    sourceIDs[index],
                    candidates: candidates,
                    keys: object.matchFields,
                    update: updateBodies[index],
                    otherwise: .create(fields: createBodies[index])
                )
            }
        } else {
            for index in byKey {
                decisions[index] = RecordDecision(
                    sourceID: sourceIDs[index],
                    action: .create(fields: createBodies[index])
                )
            }
        }
        if !leftOut.isEmpty { await foreign.tally.add(leftOut) }
        return decisions.enumerated().map { index, decision in
            decision ?? RecordDecision(sourceID: sourceIDs[index], action: .fail("no decision"))
        }
    }

    private enum BodyProblem: Error {
        case wait
        case fail(String)
    }

    /// The fields of `record` to write, references rewritten to target ids.
    private func body(
        of record: [String: OrgValue],
        fields: [String],
        targets: [String: String],
        staged: Set<String>,
        waiting: Bool,
        omitted: inout Set<String>
    ) -> Result<[String: OrgValue], BodyProblem> {
        var body: [String: OrgValue] = [:]
        for field in fields {
            let lowered = field.lowercased()
            if object.deferredReferences.contains(where: { $0.field.lowercased() == lowered }) { continue }
            let sourcePath = object.sourceFieldNames[lowered] ?? field
            guard let value = OrgValue.value(atPath: sourcePath, in: record, ignoringCase: true) else { continue }
            if let map = object.valueMaps[lowered] {
                guard let id = value.stringValue, !id.isEmpty else {
                    body[field] = .null
                    continue
                }
                guard let mapped = map[id] ?? object.valueMapFallbacks[lowered] else {
                    return .failure(
                        .fail(
                            "\(field) \(id) has no counterpart in the target (no record type of the same developer "
                                + "name and namespace); the record is left out"
                        )
                    )
                }
                body[field] = .string(mapped)
                continue
            }
            guard let reference = object.immediateReferences.first(where: { $0.field.lowercased() == lowered }) else {
                body[field] = value
                continue
            }
            guard let id = value.stringValue, !id.isEmpty else {
                body[field] = .null
                continue
            }
            if let targetID = targets[id] {
                body[field] = .string(targetID)
            } else if isDryRun, staged.contains(id) {
                body[field] = .string("(created by this migration)")
            } else if waiting, object.parentFirstField?.lowercased() == lowered, staged.contains(id) {
                return .failure(.wait)
            } else if reference.referenceTo.count > 1, !staged.contains(id),
                let foreignObject = foreign.foreignObject(of: id)
            {
                // A polymorphic value of an object not written here, not in the target by a key.
                if foreign.strict {
                    return .failure(
                        .fail(
                            "\(field) refers to \(foreignObject) \(id), which this migration does not write and the "
                                + "target holds no counterpart of by the config's keys (--strict); the record is left out"
                        )
                    )
                }
                omitted.insert(field + "\u{1}" + foreignObject)
            } else {
                let objects = reference.referenceTo.joined(separator: "/")
                let why =
                    staged.contains(id)
                    ? "it was not written (see its own failure)"
                    : "it was not migrated and is not in the target's id map"
                return .failure(
                    .fail("\(field) refers to \(objects) \(id), but \(why); the record is left out")
                )
            }
        }
        return .success(body)
    }

    private func decision(
        _ sourceID: String,
        candidates: [(id: String, fields: [String: OrgValue])],
        keys: [String],
        update: [String: OrgValue],
        otherwise: RecordAction
    ) -> RecordDecision {
        switch candidates.count {
        case 0:
            return RecordDecision(sourceID: sourceID, action: otherwise)
        case 1:
            return RecordDecision(
                sourceID: sourceID,
                action: Self.compare(candidates[0].fields, targetID: candidates[0].id, update: update)
            )
        default:
            let ids = candidates.prefix(5).map(\.id).joined(separator: ", ")
            return RecordDecision(
                sourceID: sourceID,
                action: .fail(
                    "its key (\(keys.joined(separator: ", "))) matches \(candidates.count) target records "
                        + "(\(ids)); make the key unique in the target or choose other matchFields"
                )
            )
        }
    }

    static func compare(_ current: [String: OrgValue], targetID: String, update: [String: OrgValue]) -> RecordAction {
        Values.holds(current, update) ? .unchanged(targetID: targetID) : .update(targetID: targetID, fields: update)
    }

    static func key(of record: [String: OrgValue], keys: [String]) -> String {
        keys.map { Values.keyText(OrgValue.value(atPath: $0, in: record, ignoringCase: true)) }.joined(
            separator: "\u{1}"
        )
    }

    /// The target records whose `keys` equal those of the records at `indexes`, by key text.
    private func match(
        _ records: [[String: OrgValue]],
        indexes: [Int],
        keys: [String],
        fields: [String]
    ) async throws -> [String: [(id: String, fields: [String: OrgValue])]] {
        guard !indexes.isEmpty else { return [:] }
        var seen: Set<String> = []
        var keyValues: [[OrgValue?]] = []
        for index in indexes where seen.insert(Self.key(of: records[index], keys: keys)).inserted {
            keyValues.append(keys.map { OrgValue.value(atPath: $0, in: records[index], ignoringCase: true) })
        }
        var found: [String: [(id: String, fields: [String: OrgValue])]] = [:]
        let selected = MigrationOrder.union(["Id"], MigrationOrder.union(keys, fields))
        for slice in keyValues.chunked(Self.keysPerQuery) {
            let condition: SOQLCondition
            if keys.count == 1, slice.allSatisfy({ $0[0].map { !$0.isNull } ?? false }) {
                condition = .in(
                    SOQLFieldPath(keys[0]),
                    slice.map { Values.literal($0[0], fieldType: targetFieldTypes[keys[0].lowercased()]) },
                    negated: false
                )
            } else {
                let each = slice.map { values in
                    SOQLCondition.all(
                        zip(keys, values).map { key, value in
                            .comparison(
                                SOQLFieldPath(key),
                                .equal,
                                Values.literal(value, fieldType: targetFieldTypes[key.lowercased()])
                            )
                        }
                    ) ?? .comparison(SOQLFieldPath("Id"), .equal, .null)
                }
                condition = each.count == 1 ? each[0] : .or(each)
            }
            let query = SOQLQuery.select(fields: selected, from: object.sobject, where: condition)
            for try await page in target.queryPages(query.text) {
                for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                    guard let fields = record.objectValue, let id = fields["Id"]?.stringValue else { continue }
                    found[Self.key(of: fields, keys: keys), default: []].append((id, fields))
                }
            }
        }
        return found
    }

    /// The target records with these ids (fields `fields`), by id; ids the target lacks are absent.
    private func retrieve(_ ids: [String], fields: [String]) async throws -> [String: [String: OrgValue]] {
        var result: [String: [String: OrgValue]] = [:]
        let wanted = MigrationOrder.union(["Id"], fields)
        for slice in ids.chunked(2000) {
            let values = try await target.retrieveCollection(object.sobject, ids: slice, fields: wanted)
            for (id, value) in zip(slice, values) {
                if let fields = value?.objectValue { result[id] = fields }
            }
        }
        return result
    }

    /// Which of `ids` are records of the written objects `sobjects` in the staging store.
    private func stagedIDs(_ ids: [String], among sobjects: [String]) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        var result: Set<String> = []
        for sobject in sobjects {
            guard let (soup, idField) = soups[sobject.lowercased()] else { continue }
            let entries = try store.readNow { try $0.entries(in: soup, wherePath: idField, isIn: ids) }
            for entry in entries {
                if let id = OrgValue.value(
                    atPath: idField,
                    in: try OrgValue(parsing: entry.json).objectValue ?? [:],
                    ignoringCase: true
                )?
                .stringValue {
                    result.insert(id)
                }
            }
        }
        return result
    }
}
