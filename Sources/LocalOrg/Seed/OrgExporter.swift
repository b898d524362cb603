import Foundation
import GRDB

/// Writes a local org's live records as Salesforce CLI data-tree files with a plan
/// (salesforce-rest.md §10.3): `{Type}s.json` per object and `{Types}-plan.json`, lookups between
/// exported records written as `@{Type}Ref{n}`, so ``OrgSeeder`` (or `sf data import tree`) loads
/// them back.
///
/// `CreatedDate` and `LastModifiedDate` are kept (the seeder accepts them) so a round trip keeps the
/// timeline. Lookups to records that are not exported (the org's own user, objects left out) are
/// dropped and counted in ``OrgExportReport/droppedReferences``.
public struct OrgExporter: Sendable {
    /// The org to read.
    public let database: OrgDatabase

    /// Creates an exporter.
    public init(database: OrgDatabase) { self.database = database }

    private static let keptAuditFields: Set<String> = ["CreatedDate", "LastModifiedDate"]

    /// Exports `objects` (default: every writable object with live records) into `directory`.
    /// - Throws: ``OrgError`` for unknown objects or when files cannot be written.
    public func export(objects requested: [String] = [], to directory: URL) throws -> OrgExportReport {
        let schema = database.schema
        var objects: [OrgObject] = []
        for name in requested {
            guard let object = schema.object(named: name) else {
                throw OrgError.invalidInput(
                    "unknown object '\(name)'; the org has \(schema.objects.map(\.name).joined(separator: ", "))"
                )
            }
            if !objects.contains(where: { $0.name == object.name }) { objects.append(object) }
        }
        let (exported, dropped) = try database.read { writer -> ([(OrgObject, [OrgJSONValue])], Int) in
            if requested.isEmpty {
                objects = try schema.objects.filter { object in
                    guard object.isWritable, object.name != "User" else { return false }
                    return try Bool.fetchOne(
                        writer.db,
                        sql: "SELECT EXISTS (SELECT 1 FROM \(OrgSQL.identifier(object.name)) WHERE \"IsDeleted\" = 0)"
                    ) ?? false
                }
            }
            return try Self.records(of: Self.parentsFirst(objects), writer: writer)
        }
        return try write(exported, droppedReferences: dropped, to: directory)
    }

    /// Orders objects so that lookup targets come before the objects that point at them.
    static func parentsFirst(_ objects: [OrgObject]) -> [OrgObject] {
        var ordered: [OrgObject] = []
        var remaining = objects
        while !remaining.isEmpty {
            let ready =
                remaining.firstIndex { object in
                    object.fields.allSatisfy { field in
                        field.referenceTo.allSatisfy { target in
                            target == object.name || !remaining.contains { $0.name == target }
                        }
                    }
                } ?? 0
            ordered.append(remaining.remove(at: ready))
        }
        return ordered
    }

    /// The export records of each object, and how many lookups had to be dropped.
    private static func records(of objects: [OrgObject], writer: OrgWriter) throws -> (
        [(OrgObject, [OrgJSONValue])], Int
    ) {
        // First pass: reference IDs for every exported record, so lookups can point forwards too.
        var referenceIDs: [String: String] = [:]
        var rowsByObject: [[Row]] = []
        for object in objects {
            let rows = try Row.fetchAll(
                writer.db,
                sql: "SELECT * FROM \(OrgSQL.identifier(object.name)) WHERE \"IsDeleted\" = 0 ORDER BY rowid"
            )
            for (position, row) in rows.enumerated() {
                referenceIDs[row["Id"] as String] = "\(object.name)Ref\(position + 1)"
            }
            rowsByObject.append(rows)
        }
        var result: [(OrgObject, [OrgJSONValue])] = []
        var dropped = 0
        for (object, rows) in zip(objects, rowsByObject) {
            var records: [OrgJSONValue] = []
            for row in rows {
                let id: String = row["Id"]
                var record: OrgJSONObject = [
                    "attributes": .object([
                        "type": .string(object.name), "referenceId": .string(referenceIDs[id] ?? ""),
                    ])
                ]
                for field in object.fields where field.isCreateable || keptAuditFields.contains(field.name) {
                    let value: DatabaseValue = row[field.name] ?? .null
                    if value.isNull { continue }
                    if field.type == .reference {
                        guard let target = String.fromDatabaseValue(value), let reference = referenceIDs[target] else {
                            if field.name != "OwnerId" { dropped += 1 }
                            continue
                        }
                        record[field.name] = .string("@" + reference)
                    } else {
                        record[field.name] = OrgValueCoercion.jsonValue(value, for: field)
                    }
                }
                records.append(.object(record))
            }
            result.append((object, records))
        }
        return (result, dropped)
    }

    private func write(_ exported: [(OrgObject, [OrgJSONValue])], droppedReferences: Int, to directory: URL) throws
        -> OrgExportReport
    {
        var plan: [OrgJSONValue] = []
        var files: [URL] = []
        var counts: [(object: String, count: Int)] = []
        let names = Set(exported.map(\.0.name))
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (object, records) in exported {
                let file = directory.appendingPathComponent("\(object.name)s.json")
                try OrgJSONValue.object(["records": .array(records)]).encodedPretty().write(to: file, options: .atomic)
                files.append(file)
                counts.append((object.name, records.count))
                let resolves = object.fields.contains { field in
                    field.type == .reference && field.referenceTo.contains { names.contains($0) }
                }
                let saves = exported.contains { other, _ in
                    other.fields.contains { $0.type == .reference && $0.referenceTo.contains(object.name) }
                }
                plan.append(
                    .object([
                        "sobject": .string(object.name), "saveRefs": .bool(saves), "resolveRefs": .bool(resolves),
                        "files": .array([.string(file.lastPathComponent)]),
                    ])
                )
            }
            let planFile = directory.appendingPathComponent(
                exported.map(\.0.name).joined(separator: "-") + "-plan.json"
            )
            try OrgJSONValue.array(plan).encodedPretty().write(to: planFile, options: .atomic)
            return OrgExportReport(
                planFile: planFile,
                files: files,
                counts: counts,
                droppedReferences: droppedReferences
            )
        } catch let error as OrgError {
            throw error
        } catch {
            throw OrgError.invalidInput("cannot write the export to '\(directory.path)': \(error.localizedDescription)")
        }
    }
}

/// What an export wrote.
public struct OrgExportReport: Sendable {
    /// The plan file (`Account-Contact-plan.json`).
    public var planFile: URL
    /// The record files, in plan order.
    public var files: [URL]
    /// Records written per object, in plan order.
    public var counts: [(object: String, count: Int)]
    /// Lookups left out because they point at records that were not exported (other than `OwnerId`).
    public var droppedReferences: Int
}
