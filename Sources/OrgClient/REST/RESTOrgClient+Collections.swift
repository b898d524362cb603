extension RESTOrgClient {
    /// The most records one sObject Collections write takes.
    public static let maxCollectionRecords = 200
    /// The most IDs one collection retrieve (by POST) takes.
    public static let maxCollectionRetrieveIDs = 2000

    /// One sObject Collections write; returns one result per record, in request order.
    ///
    /// A create is not retried once it may have been sent; updates, upserts and deletes are.
    public func collection(_ operation: CollectionOperation, allOrNone: Bool) async throws -> [CollectionResult] {
        guard operation.count > 0 else {
            throw OrgClientError.invalidArgument("an sObject Collections call needs at least one record")
        }
        guard operation.count <= Self.maxCollectionRecords else {
            throw OrgClientError.invalidArgument(
                "an sObject Collections call takes at most \(Self.maxCollectionRecords) records, not \(operation.count); split them"
            )
        }
        let path = "\(basePath)/composite/sobjects"
        let request: OutgoingRequest
        switch operation {
        case .create(let records):
            for record in records where record.id != nil {
                throw OrgClientError.invalidArgument(
                    "a collection create cannot carry record IDs; '\(record.objectType)' has one"
                )
            }
            request = OutgoingRequest(.post, path, body: try Self.recordsBody(records, allOrNone: allOrNone))
        case .update(let records):
            for record in records {
                guard let id = record.id else {
                    throw OrgClientError.invalidArgument(
                        "a collection update needs the ID of every record; a '\(record.objectType)' has none"
                    )
                }
                _ = try PathComponents.checkRecordID(id)
            }
            request = OutgoingRequest(.patch, path, body: try Self.recordsBody(records, allOrNone: allOrNone))
        case .upsert(let objectType, let externalIDField, let records):
            let type = try PathComponents.checkName(objectType, kind: "sObject")
            let field = try PathComponents.checkName(externalIDField, kind: "external ID field")
            request = OutgoingRequest(
                .patch,
                "\(path)/\(type)/\(field)",
                body: try Self.recordsBody(records, allOrNone: allOrNone)
            )
        case .delete(let ids):
            let list = try ids.map(PathComponents.checkRecordID).joined(separator: ",")
            request = OutgoingRequest(.delete, path, query: "ids=\(list)&allOrNone=\(allOrNone)")
        }
        let response = try await sendForJSON(request)
        guard let entries = response.arrayValue, entries.count == operation.count else {
            throw OrgClientError.unexpectedShape(
                "no result array matching the \(operation.count) records",
                request: request
            )
        }
        return try entries.map { entry in
            guard let result = CollectionResult(entry) else {
                throw OrgClientError.unexpectedShape("a collection result without 'success'", request: request)
            }
            return result
        }
    }

    /// `POST /composite/sobjects/{Type}` with `{"ids", "fields"}`: up to 2,000 records by ID.
    /// The result is aligned with `ids`; `nil` marks a record that does not exist.
    public func retrieveCollection(_ objectType: String, ids: [String], fields: [String]) async throws -> [OrgValue?] {
        let type = try PathComponents.checkName(objectType, kind: "sObject")
        guard !ids.isEmpty else { return [] }
        guard ids.count <= Self.maxCollectionRetrieveIDs else {
            throw OrgClientError.invalidArgument(
                "a collection retrieve takes at most \(Self.maxCollectionRetrieveIDs) IDs, not \(ids.count); split them"
            )
        }
        guard !fields.isEmpty else {
            throw OrgClientError.invalidArgument("a collection retrieve needs at least one field, for example 'Id'")
        }
        let body: OrgValue = [
            "ids": .array(try ids.map { .string(try PathComponents.checkRecordID($0)) }),
            "fields": .array(try fields.map { .string(try PathComponents.checkName($0, kind: "field")) }),
        ]
        let request = OutgoingRequest(
            .post,
            "\(basePath)/composite/sobjects/\(type)",
            body: body.jsonText,
            isIdempotent: true
        )
        let response = try await sendForJSON(request)
        guard let entries = response.arrayValue, entries.count == ids.count else {
            throw OrgClientError.unexpectedShape("no record array matching the \(ids.count) IDs", request: request)
        }
        return entries.map { $0.isNull ? nil : $0 }
    }

    private static func recordsBody(_ records: [SObjectRecord], allOrNone: Bool) throws -> String {
        for record in records {
            _ = try PathComponents.checkName(record.objectType, kind: "sObject")
        }
        var body = #"{"allOrNone":"# + (allOrNone ? "true" : "false") + #","records":["#
        body.reserveCapacity(records.count * 128)
        for (index, record) in records.enumerated() {
            if index > 0 { body += "," }
            record.writeWire(to: &body)
        }
        return body + "]}"
    }
}
