import Foundation

/// sObject Tree (`POST /composite/tree/{object}`, what `sf data import tree` posts) and the
/// conditional describe (`If-Modified-Since`).
///
/// Tree (REST API Developer Guide, "sObject Tree", "Create Nested Records"): up to 200 records in
/// all, up to 5 levels, each with `attributes.type` and a `referenceId` unique in the request; a
/// record's child relationship (`"Contacts": {"records": […]}`) nests its children, whose lookup to it
/// is set by the org. All or nothing: `201 {"hasErrors": false, "results": [{"referenceId", "id"}]}`
/// (parents before children, level by level), or `400 {"hasErrors": true, "results":
/// [{"referenceId", "errors": [{"statusCode", "message", "fields"}]}]}` with nothing written.
extension OrgAPI {
    /// Records in one tree request.
    static let treeRecordLimit = 200
    /// Levels of nesting in one tree request.
    static let treeDepthLimit = 5

    private struct TreeRecord {
        var referenceID: String
        var object: String
        var fields: OrgJSONObject
        /// The lookup to the parent record and the parent's index, for a child.
        var parent: (field: String, index: Int)?
    }

    func tree(_ request: OrgHTTPRequest, object: String) throws -> OrgHTTPResponse {
        try Self.require(request, ["POST"])
        guard let root = database.schema.object(named: object) else { throw OrgError.notFound() }
        let body = try request.jsonObjectBody()
        guard let records = body["records"]?.arrayValue else {
            throw OrgError.invalidBody("The body must have a 'records' array")
        }
        // Level by level: every parent is written before its children.
        var flattened: [TreeRecord] = []
        var level: [(value: OrgJSONValue, object: String, parent: (field: String, index: Int)?)] =
            records.map { ($0, root.name, nil) }
        var depth = 0
        var seen: Set<String> = []
        while !level.isEmpty {
            depth += 1
            guard depth <= Self.treeDepthLimit else {
                throw OrgError.invalidBody("A tree may nest records at most \(Self.treeDepthLimit) levels deep")
            }
            var next: [(value: OrgJSONValue, object: String, parent: (field: String, index: Int)?)] = []
            for (value, expected, parent) in level {
                guard let record = value.objectValue else {
                    throw OrgError.invalidBody("Each element of 'records' must be an object")
                }
                let attributes = record["attributes"]?.objectValue ?? [:]
                guard let type = attributes["type"]?.stringValue, type.lowercased() == expected.lowercased() else {
                    throw OrgError.invalidBody(
                        "Every record here needs \"attributes\": {\"type\": \"\(expected)\", \"referenceId\": …}"
                    )
                }
                guard let referenceID = attributes["referenceId"]?.stringValue, !referenceID.isEmpty else {
                    throw OrgError.invalidBody("Every record needs an \"attributes\".\"referenceId\"")
                }
                guard seen.insert(referenceID.lowercased()).inserted else {
                    throw OrgError.invalidBody("Duplicate referenceId provided in the request: \(referenceID)")
                }
                var fields = OrgJSONObject()
                let index = flattened.count
                for (name, field) in record where name != "attributes" {
                    guard let nested = field.objectValue, let children = nested["records"]?.arrayValue else {
                        fields[name] = field
                        continue
                    }
                    guard let relationship = database.schema.childRelationship(of: expected, named: name) else {
                        throw OrgError.invalidBody("\(expected) has no child relationship named '\(name)'")
                    }
                    next += children.map { ($0, relationship.childObject, (relationship.field, index)) }
                }
                flattened.append(TreeRecord(referenceID: referenceID, object: expected, fields: fields, parent: parent))
                guard flattened.count <= Self.treeRecordLimit else {
                    throw OrgError.tooMany("records in a tree", maximum: Self.treeRecordLimit)
                }
            }
            level = next
        }
        var ids: [String] = []
        var failure: (referenceID: String, error: OrgError)?
        do {
            try database.write { writer in
                for record in flattened {
                    var fields = record.fields
                    if let parent = record.parent { fields[parent.field] = .string(ids[parent.index]) }
                    do {
                        ids.append(try writer.create(record.object, fields: fields))
                    } catch let error as OrgError {
                        failure = (record.referenceID, error)
                        throw error  // rolls the whole tree back
                    }
                }
            }
        } catch let error as OrgError {
            guard let failure else { throw error }
            let result: OrgJSONValue = [
                "referenceId": .string(failure.referenceID),
                "errors": .array(failure.error.errorBody.map(\.collectionJSONValue)),
            ]
            return .json(400, ["hasErrors": true, "results": [result]])
        }
        let results: [OrgJSONValue] = zip(flattened, ids).map { record, id in
            ["referenceId": .string(record.referenceID), "id": .string(id)]
        }
        return .json(201, ["hasErrors": false, "results": .array(results)])
    }

    /// `GET /sobjects/{Type}/describe` with `Last-Modified` (when the org's schema last changed) and
    /// `304` for an `If-Modified-Since` at or after it.
    func describe(_ request: OrgHTTPRequest, object: String, apiVersion: String) throws -> OrgHTTPResponse {
        let body = try database.describe(object, apiVersion: apiVersion)
        let modified = try database.read { writer in
            try OrgMeta.text(for: .schemaModified, writer.db).flatMap(Int64.init) ?? 0
        }
        let seconds = modified / 1000
        let headers = [("Last-Modified", HTTPDate.format(Date(timeIntervalSince1970: Double(seconds))))]
        if let header = request.header("If-Modified-Since"), let since = HTTPDate.parse(header),
            seconds <= Int64(since.timeIntervalSince1970)
        {
            return OrgHTTPResponse(status: 304, headers: headers, isJSON: false)
        }
        return .json(200, body, headers: headers)
    }
}
