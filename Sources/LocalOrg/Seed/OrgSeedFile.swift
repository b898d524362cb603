import Foundation

/// The Salesforce CLI data-tree files the seeder reads (salesforce-rest.md §10): record files
/// `{"records": [...]}` and plan files `[{"sobject", "saveRefs", "resolveRefs", "files"}]`.
enum OrgSeedFile {
    /// One record to create, flattened out of its file (nested children become separate records).
    struct PendingRecord {
        /// `Account.json: record 3 (AccountRef3)`, for messages.
        var location: String
        var object: String
        /// The `referenceId`, or a generated key for nested parents without one.
        var referenceID: String?
        var fields: OrgJSONObject
        /// For a nested child: the lookup field to set to the parent's new ID, and the parent's key.
        var parent: (field: String, referenceID: String)?
    }

    /// Reads a file: a plan expands to its record files (relative to the plan's folder).
    static func load(_ url: URL, expectedObject: String? = nil, schema: OrgSchema, into records: inout [PendingRecord])
        throws
    {
        let document = try parse(url)
        switch document {
        case .array(let entries):
            // A plan's files are record files: a plan named by a plan (itself, or one naming it back)
            // would be read again and again until the stack ran out.
            if let expectedObject {
                throw OrgError.invalidInput(
                    "\(url.path): a plan file, named in a plan's \"files\" for '\(expectedObject)'; "
                        + "a plan lists record files {\"records\": [...]} only"
                )
            }
            try loadPlan(entries, url: url, schema: schema, into: &records)
        case .object(let root):
            guard let list = root["records"]?.arrayValue else {
                throw OrgError.invalidInput(
                    "\(url.path): expected a record file {\"records\": [...]} or a plan file [...]"
                )
            }
            for (position, entry) in list.enumerated() {
                try flatten(
                    entry,
                    location: "\(url.lastPathComponent): record \(position + 1)",
                    expectedObject: expectedObject,
                    parent: nil,
                    schema: schema,
                    into: &records
                )
            }
        default:
            throw OrgError.invalidInput("\(url.path): expected a record file {\"records\": [...]} or a plan file [...]")
        }
    }

    private static func parse(_ url: URL) throws -> OrgJSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OrgError.invalidInput("\(url.path): cannot read the file (\(error.localizedDescription))")
        }
        do {
            return try OrgJSONValue.decodeLocated(data)
        } catch let failure as OrgJSONParser.Failure {
            throw OrgError.invalidInput(
                "\(url.path):\(failure.line):\(failure.column): error: invalid JSON: \(failure.reason)"
            )
        }
    }

    private static func loadPlan(
        _ entries: [OrgJSONValue],
        url: URL,
        schema: OrgSchema,
        into records: inout [PendingRecord]
    )
        throws
    {
        let folder = url.deletingLastPathComponent()
        for (position, entry) in entries.enumerated() {
            let here = "\(url.path): plan entry \(position + 1)"
            guard let step = entry.objectValue, let object = step["sobject"]?.stringValue else {
                throw OrgError.invalidInput("\(here): expected {\"sobject\": NAME, \"files\": [FILE, …]}")
            }
            guard schema.object(named: object) != nil else {
                throw OrgError.invalidInput("\(here): unknown sobject '\(object)'")
            }
            guard let files = step["files"]?.arrayValue, !files.isEmpty else {
                throw OrgError.invalidInput("\(here): \"files\" must be a non-empty array of file names")
            }
            for file in files {
                guard let name = file.stringValue else {
                    throw OrgError.invalidInput(
                        "\(here): \"files\" entries must be file names; the older {\"file\": …} objects are no longer valid"
                    )
                }
                try load(folder.appendingPathComponent(name), expectedObject: object, schema: schema, into: &records)
            }
        }
    }

    private static func flatten(
        _ entry: OrgJSONValue,
        location: String,
        expectedObject: String?,
        parent: (String, String)?,
        schema: OrgSchema,
        into records: inout [PendingRecord]
    ) throws {
        guard var fields = entry.objectValue else { throw OrgError.invalidInput("\(location): expected an object") }
        guard let attributes = fields["attributes"]?.objectValue, let type = attributes["type"]?.stringValue else {
            throw OrgError.invalidInput("\(location): missing \"attributes\": {\"type\": …}")
        }
        guard let object = schema.object(named: type) else {
            throw OrgError.invalidInput("\(location): unknown sobject '\(type)'")
        }
        if let expectedObject, object.name.lowercased() != expectedObject.lowercased() {
            throw OrgError.invalidInput(
                "\(location): a record of type '\(type)' in a file the plan lists for '\(expectedObject)'"
            )
        }
        var referenceID = attributes["referenceId"]?.stringValue
        let here = referenceID.map { "\(location) (\($0))" } ?? location
        fields["attributes"] = nil
        var children: [(String, [OrgJSONValue])] = []
        for (key, value) in fields {
            guard let nested = value.objectValue, let list = nested["records"]?.arrayValue else { continue }
            guard let relationship = schema.childRelationship(of: object.name, named: key) else {
                throw OrgError.invalidInput("\(here): '\(key)' is not a child relationship of \(object.name)")
            }
            children.append((relationship.field, list))
            fields[key] = nil
        }
        if !children.isEmpty, referenceID == nil { referenceID = "#\(records.count)" }
        records.append(
            PendingRecord(
                location: here,
                object: object.name,
                referenceID: referenceID,
                fields: fields,
                parent: parent.map { (field: $0.0, referenceID: $0.1) }
            )
        )
        for (field, list) in children {
            let childObject = schema.childRelationships(of: object.name).first { $0.field == field }?.childObject
            for (position, child) in list.enumerated() {
                try flatten(
                    child,
                    location: "\(here) child \(position + 1)",
                    expectedObject: childObject,
                    parent: (field, referenceID ?? ""),
                    schema: schema,
                    into: &records
                )
            }
        }
    }
}
