import OrgClient
import SOQL

/// Polymorphic reference values (`Task.WhatId`, `Event.WhoId`, a custom polymorphic lookup) whose
/// record is of an object this migration does not write (issue 32 item 1). Such a value is kept
/// when the target holds the same record by the key the config declares for that object (a sync
/// up left out of this run: its `externalIdFieldName`, else its `matchFields`); otherwise it is
/// left out of the record (the rest of the record is written) with one warning per field and
/// object, or, with `--strict`, the record fails.
struct ForeignReferences: Sendable {
    /// The source's key prefixes (the first three characters of an id) → sObject name.
    var objectByPrefix: [String: String] = [:]
    /// The objects this run writes (lowercased).
    var written: Set<String> = []
    /// The keys of the config's sync ups not migrated in this run, by lowercased sObject.
    var keys: [String: [String]] = [:]
    var strict = false
    /// The values left out, counted per field and object, shared by every object of the run.
    var tally = ForeignReferenceTally()

    static let none = ForeignReferences()

    /// The object of `id` when this run does not write it; `nil` for a written (or unknown) one.
    func foreignObject(of id: String) -> String? {
        guard id.count >= 3, let object = objectByPrefix[String(id.prefix(3))] else { return nil }
        return written.contains(object.lowercased()) ? nil : object
    }

    /// The target ids of the records `ids` (source ids of objects not written here) that the
    /// target holds by the config's key of their object; ids without a key or a single match are absent.
    func matchByKeys(_ ids: [String], source: (any OrgClient)?, target: any OrgClient) async throws -> [String: String]
    {
        guard let source, !ids.isEmpty else { return [:] }
        var byObject: [String: [String]] = [:]
        for id in ids {
            if let object = foreignObject(of: id), keys[object.lowercased()] != nil {
                byObject[object, default: []].append(id)
            }
        }
        var result: [String: String] = [:]
        for (object, objectIDs) in byObject.sorted(by: { $0.key < $1.key }) {
            guard let keys = keys[object.lowercased()] else { continue }
            let selected = MigrationOrder.union(["Id"], keys)
            for slice in objectIDs.chunked(RecordDecider.keysPerQuery) {
                // The source records' keys…
                var keyOf: [String: String] = [:]
                var values: [[OrgValue?]] = []
                let sourceQuery = SOQLQuery.select(
                    fields: selected,
                    from: object,
                    where: .in(SOQLFieldPath("Id"), slice.map { .string($0) }, negated: false)
                )
                for try await page in source.queryPages(sourceQuery.text) {
                    for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                        guard let fields = record.objectValue, let id = fields["Id"]?.stringValue else { continue }
                        let row = keys.map { OrgValue.value(atPath: $0, in: fields, ignoringCase: true) }
                        guard row.allSatisfy({ $0.map { !$0.isNull } ?? false }) else { continue }
                        keyOf[id] = RecordDecider.key(of: fields, keys: keys)
                        values.append(row)
                    }
                }
                guard !values.isEmpty else { continue }
                // …then the target records with the same keys.
                let each = values.map { row in
                    SOQLCondition.all(
                        zip(keys, row).map { key, value in
                            .comparison(SOQLFieldPath(key), .equal, Values.literal(value, fieldType: nil))
                        }
                    ) ?? .comparison(SOQLFieldPath("Id"), .equal, .null)
                }
                let targetQuery = SOQLQuery.select(
                    fields: selected,
                    from: object,
                    where: each.count == 1 ? each[0] : .or(each)
                )
                var found: [String: [String]] = [:]
                for try await page in target.queryPages(targetQuery.text) {
                    for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                        guard let fields = record.objectValue, let id = fields["Id"]?.stringValue else { continue }
                        found[RecordDecider.key(of: fields, keys: keys), default: []].append(id)
                    }
                }
                for (id, key) in keyOf {
                    if let matches = found[key], matches.count == 1 { result[id] = matches[0] }
                }
            }
        }
        return result
    }
}

/// The polymorphic values left out, per `Object.Field` and referenced object.
actor ForeignReferenceTally {
    private var counts: [String: [String: Int]] = [:]

    /// Counts values left out: each `(field, object)` once per record.
    func add(_ leftOut: [(field: String, object: String)]) {
        for item in leftOut { counts[item.field, default: [:]][item.object, default: 0] += 1 }
    }

    /// One warning per field and referenced object.
    func warnings() -> [String] {
        counts.keys.sorted().flatMap { field in
            (counts[field] ?? [:]).sorted(by: { $0.key < $1.key }).map { object, count in
                "\(field): \(count) value(s) refer to \(object) records, which this migration does not write and "
                    + "the target holds no counterpart of by the config's keys; left out of those records (the rest "
                    + "of each record is written; --strict fails them instead). Migrate \(object) too, or give its "
                    + "sync up a key (externalIdFieldName or matchFields)"
            }
        }
    }
}
