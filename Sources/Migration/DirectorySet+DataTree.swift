import Foundation
import JSONCore

/// A Salesforce CLI data-tree plan as a `--from dir:` source: the folder `sf data export tree --plan`
/// writes (a plan file `*plan.json` listing `{"sobject", "saveRefs", "resolveRefs", "files"}`, and
/// record files `{"records": [{"attributes": {"type", "referenceId"}, …fields}]}`), which the local
/// org also seeds from (salesforce-rest.md §10).
///
/// Each object's records become a ``DirectorySet/Table`` as a CSV file of the set would give them:
/// the `Id` column holds the record's `referenceId`, a value `@Ref` (a reference the plan resolves)
/// holds `Ref`, so a lookup names the row it points at exactly as a set's source ids do, and the
/// migration's matching, ordering and journal work unchanged. Scalars become their text (`true`,
/// `42`, `3.5`); `null` is a null. A record file's rows number its records (`Contact.json:3` is the
/// third record), as a CSV file's rows number its lines.
extension DirectorySet {
    /// The folder's plan files, by name: files whose name ends in `plan.json` (`plan.json`,
    /// `Account-Contact-plan.json`).
    public func planFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.lowercased().hasSuffix("plan.json") }.sorted()
            .map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
    }

    /// The records of `sobject` in the folder's data-tree plans, or `nil` when no plan names it.
    ///
    /// - Throws: ``MigrationError`` (refused) for a file that is not JSON (`file:line:column`), a plan
    ///   or record file of another shape, a record without `attributes.referenceId`, a record of
    ///   another type, or nested child records (which only `sf data export tree` without `--plan`
    ///   writes: export with `--plan`).
    public func readPlan(_ sobject: String) throws -> Table? {
        var table: Table?
        for plan in planFiles() {
            guard case .array(let entries) = try Self.document(at: plan) else {
                throw MigrationError(.refused, "\(plan): a data-tree plan is a list of {\"sobject\", \"files\"}")
            }
            for (position, entry) in entries.enumerated() {
                guard let object = entry.objectValue, let name = object["sobject"]?.stringValue,
                    let files = object["files"]?.arrayValue?.compactMap(\.stringValue)
                else {
                    throw MigrationError(
                        .refused,
                        "\(plan): entry \(position + 1) is not {\"sobject\": NAME, \"files\": [FILE, …]}"
                    )
                }
                guard name.lowercased() == sobject.lowercased() else { continue }
                let resolves = object["resolveRefs"]?.boolValue ?? false
                for file in files {
                    let url = URL(fileURLWithPath: plan).deletingLastPathComponent().appendingPathComponent(file)
                    try Self.append(recordsAt: url.path, of: sobject, resolvingRefs: resolves, to: &table)
                }
            }
        }
        return table
    }

    private static func append(
        recordsAt file: String,
        of sobject: String,
        resolvingRefs: Bool,
        to table: inout Table?
    ) throws {
        guard case .object(let root) = try document(at: file), let records = root["records"]?.arrayValue else {
            throw MigrationError(.refused, "\(file): a data-tree record file is {\"records\": [...]}")
        }
        var result = table ?? Table(file: file, header: ["Id"], rows: [])
        var columns = Dictionary(uniqueKeysWithValues: result.header.enumerated().map { ($1, $0) })
        for (position, value) in records.enumerated() {
            let at = "\(file):\(position + 1)"
            guard let record = value.orderedObjectValue,
                let reference = record["attributes"]?.objectValue?["referenceId"]?.stringValue
            else {
                throw MigrationError(.refused, "\(at): a record needs \"attributes\": {\"referenceId\": …}")
            }
            if let type = record["attributes"]?.objectValue?["type"]?.stringValue,
                type.lowercased() != sobject.lowercased()
            {
                throw MigrationError(.refused, "\(at): a \(type) record in the plan's file for \(sobject)")
            }
            var row: [String?] = Array(repeating: nil, count: result.header.count)
            row[0] = reference
            for (field, fieldValue) in record where field != "attributes" {
                let text = try cell(fieldValue, resolvingRefs: resolvingRefs, at: "\(at) (\(field))")
                if let column = columns[field] {
                    row[column] = text
                } else {
                    columns[field] = result.header.count
                    result.header.append(field)
                    for index in result.rows.indices { result.rows[index].values.append(nil) }
                    row.append(text)
                }
            }
            result.rows.append((line: position + 1, values: row))
        }
        table = result
    }

    private static func cell(_ value: JSONValue, resolvingRefs: Bool, at: String) throws -> String? {
        switch value {
        case .null: return nil
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .string(let text):
            return resolvingRefs && text.hasPrefix("@") ? String(text.dropFirst()) : text
        case .array, .object:
            throw MigrationError(
                .refused,
                "\(at): nested records are not read from a data-tree set; export it with "
                    + "`sf data export tree --plan`, which writes each object to its own file"
            )
        }
    }

    private static func document(at file: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw MigrationError(.refused, "\(file): cannot be read (named by a data-tree plan)")
        }
        let parsed = data.withUnsafeBytes { raw -> Result<JSONValue, JSONSyntaxError> in
            var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self))
            do throws(JSONSyntaxError) {
                return .success(try reader.readDocument())
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let value): return value
        case .failure(let error):
            throw MigrationError(.refused, "\(file):\(error.line):\(error.column): invalid JSON: \(error.message)")
        }
    }
}
