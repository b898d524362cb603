import Foundation

/// sObject Collections: create, update, upsert, delete and retrieve up to 200 records per call (§5.3).
///
/// Records run in request order in one transaction; without `allOrNone` a failing record is undone
/// alone (it fails before it writes, or a delete's savepoint undoes it); with `allOrNone` any failure
/// rolls the whole call back and every other record reports `ALL_OR_NONE_OPERATION_ROLLED_BACK`.
extension OrgAPI {
    /// Records per create / update / upsert / delete call.
    static let collectionLimit = 200
    /// IDs per retrieve call (POST form).
    static let collectionRetrieveLimit = 2000

    /// What one record of a collection call came to.
    private enum RecordOutcome {
        case success(id: String, created: Bool?)
        case failure(id: String?, error: OrgError)

        var isFailure: Bool {
            if case .failure = self { return true }
            return false
        }
    }

    /// Routes `/composite/sobjects[/…]`.
    func collections(
        _ request: OrgHTTPRequest,
        version: APIVersion,
        path: [String],
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        switch path.count {
        case 0:
            try Self.require(request, ["POST", "PATCH", "DELETE"])
            if request.method == "DELETE" {
                return try deleteCollection(request, store: store)
            }
            let (records, allOrNone) = try Self.collectionBody(request)
            let isCreate = request.method == "POST"
            let knownID: (Int) -> String? = { index in
                isCreate ? nil : records[index].value(forCaseInsensitiveKey: "Id")?.stringValue
            }
            return try run(
                records.count,
                allOrNone: allOrNone,
                store: store,
                knownID: knownID,
                createsAll: isCreate
            ) { writer, index in
                let record = records[index]
                let object = try Self.recordType(record)
                var fields = record
                fields.removeValue(forCaseInsensitiveKey: "attributes")
                if isCreate {
                    return .success(id: try writer.create(object, fields: fields), created: nil)
                }
                guard let id = fields.value(forCaseInsensitiveKey: "Id")?.stringValue, !id.isEmpty else {
                    throw OrgError.collectionRecordWithoutID
                }
                fields.removeValue(forCaseInsensitiveKey: "Id")
                try writer.update(object, id: id, fields: fields, preconditions: [])
                return .success(id: id, created: nil)
            }
        case 1:
            try Self.require(request, ["GET", "POST"])
            return try retrieveCollection(request, object: path[0], version: version, store: store)
        case 2:
            try Self.require(request, ["PATCH"])
            let (records, allOrNone) = try Self.collectionBody(request)
            let object = path[0]
            let field = path[1]
            return try run(records.count, allOrNone: allOrNone, store: store, knownID: { _ in nil }) { writer, index in
                var fields = records[index]
                fields.removeValue(forCaseInsensitiveKey: "attributes")
                guard let value = fields.value(forCaseInsensitiveKey: field), !value.isNull else {
                    throw OrgError.requiredFieldsMissing([field])
                }
                fields.removeValue(forCaseInsensitiveKey: field)
                let text: String =
                    switch value {
                    case .string(let text): text
                    default: value.jsonText
                    }
                let result = try writer.upsertInBatch(object, externalIDField: field, value: text, fields: fields)
                return .success(id: result.id, created: result.created)
            }
        default:
            throw OrgError.resourceNotFound
        }
    }

    /// `DELETE /composite/sobjects?ids=…&allOrNone=…`.
    private func deleteCollection(_ request: OrgHTTPRequest, store: OrgStore) throws -> OrgHTTPResponse {
        guard let text = request.parameter("ids") else { throw OrgError.missingParameter("ids") }
        let ids = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard ids.count <= Self.collectionLimit else { throw OrgError.tooMany("IDs", maximum: Self.collectionLimit) }
        let allOrNone = request.parameter("allOrNone")?.lowercased() == "true"
        return try run(
            ids.count,
            allOrNone: allOrNone,
            store: store,
            knownID: { ids[$0] },
            savepointPerRecord: true
        ) { writer, index in
            try writer.delete(id: ids[index])
            return .success(id: ids[index], created: nil)
        }
    }

    /// `GET /composite/sobjects/{Type}?ids=…&fields=…` or `POST` with `{"ids": […], "fields": […]}`.
    private func retrieveCollection(
        _ request: OrgHTTPRequest,
        object: String,
        version: APIVersion,
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        let ids: [String]
        let fields: [String]
        if request.method == "GET" {
            guard let idText = request.parameter("ids") else { throw OrgError.missingParameter("ids") }
            guard let fieldText = Self.fieldList(request.parameter("fields")) else {
                throw OrgError.missingParameter("fields")
            }
            ids = idText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            fields = fieldText
        } else {
            let body = try request.jsonObjectBody()
            guard let idValues = body["ids"]?.arrayValue, let fieldValues = body["fields"]?.arrayValue else {
                throw OrgError.invalidBody("The body must be {\"ids\": [...], \"fields\": [...]}")
            }
            ids = idValues.compactMap(\.stringValue)
            fields = fieldValues.compactMap(\.stringValue)
        }
        guard ids.count <= Self.collectionRetrieveLimit else {
            throw OrgError.tooMany("IDs", maximum: Self.collectionRetrieveLimit)
        }
        let records = try store.read {
            try $0.retrieve(object, ids: ids, fields: fields, apiVersion: version.description)
        }
        return .json(200, records)
    }

    /// Runs `count` record operations in one transaction and writes the results.
    ///
    /// The clock's stamps for the records (and, for a create call, `createsAll`, their ID
    /// counters) are taken in one write each. Creates, updates and upserts
    /// check everything that can refuse a record (fields, access, lookups, uniqueness) before their
    /// first write, so a refused record has nothing to undo and runs without a savepoint (its
    /// `SAVEPOINT` and `RELEASE`, and SQLite's copy of every page it touches, cost the org time on
    /// every record); should one ever fail after writing, the whole call is refused rather than
    /// keep half a record. Deletes (`savepointPerRecord`), whose cascades write as they go, keep a
    /// savepoint each.
    private func run(
        _ count: Int,
        allOrNone: Bool,
        store: OrgStore,
        knownID: (Int) -> String?,
        savepointPerRecord: Bool = false,
        createsAll: Bool = false,
        operation: (OrgWriter, Int) throws -> RecordOutcome
    ) throws -> OrgHTTPResponse {
        var outcomes: [RecordOutcome] = []
        outcomes.reserveCapacity(count)
        var rolledBack = false
        do {
            try store.write { writer in
                try writer.reserveStamps(count)
                if createsAll { try writer.reserveIDCounters(count) }
                defer { writer.dropReservations() }
                for index in 0..<count {
                    let changes = writer.db.totalChangesCount
                    do {
                        outcomes.append(
                            try savepointPerRecord
                                ? writer.savepoint { try operation(writer, index) } : operation(writer, index)
                        )
                    } catch let error as OrgError {
                        guard savepointPerRecord || writer.db.totalChangesCount == changes else {
                            throw OrgError.collectionRecordFailedAfterWriting(index: index, error)
                        }
                        outcomes.append(.failure(id: knownID(index), error: error))
                    }
                }
                if allOrNone, outcomes.contains(where: \.isFailure) {
                    // Throwing an OrgError (the one error type the database passes through unchanged)
                    // rolls the transaction back; the outcomes are already collected.
                    rolledBack = true
                    throw OrgError.allOrNoneRolledBack
                }
            }
        } catch let error as OrgError where rolledBack && error == .allOrNoneRolledBack {
            outcomes = outcomes.enumerated().map { index, outcome in
                switch outcome {
                case .success: .failure(id: knownID(index), error: .allOrNoneRolledBack)
                case .failure: outcome
                }
            }
        }
        return .json(200, .array(outcomes.map(Self.resultJSON)))
    }

    private static func resultJSON(_ outcome: RecordOutcome) -> OrgJSONValue {
        switch outcome {
        case .success(let id, let created):
            var result: OrgJSONObject = ["id": .string(id), "success": true, "errors": []]
            if let created { result["created"] = .bool(created) }
            return .object(result)
        case .failure(let id, let error):
            return [
                "id": id.map(OrgJSONValue.string) ?? .null,
                "success": false,
                "errors": .array(error.errorBody.map(\.collectionJSONValue)),
            ]
        }
    }

    /// Reads `{"allOrNone": …, "records": […]}`, at most 200 records, each an object.
    private static func collectionBody(_ request: OrgHTTPRequest) throws -> (records: [OrgJSONObject], allOrNone: Bool)
    {
        let body = try request.jsonObjectBody()
        guard let values = body["records"]?.arrayValue else {
            throw OrgError.invalidBody("The body must have a 'records' array")
        }
        guard values.count <= collectionLimit else { throw OrgError.tooMany("records", maximum: collectionLimit) }
        let records = try values.map { value in
            guard let record = value.objectValue else {
                throw OrgError.invalidBody("Each element of 'records' must be an object")
            }
            return record
        }
        return (records, body["allOrNone"]?.boolValue ?? false)
    }

    /// The `attributes.type` of a collection record.
    private static func recordType(_ record: OrgJSONObject) throws -> String {
        guard let type = record.value(forCaseInsensitiveKey: "attributes")?.objectValue?["type"]?.stringValue,
            !type.isEmpty
        else {
            throw OrgError.collectionRecordWithoutType
        }
        return type
    }
}

extension OrgError {
    /// A collection record without `attributes.type`.
    static let collectionRecordWithoutType = OrgError(
        status: 400,
        code: .invalidType,
        message: "Must send a concrete entity type."
    )
    /// A record of a collections call refused after it had written (a check that should come
    /// before the record's first write): the call is rolled back rather than keep part of it.
    static func collectionRecordFailedAfterWriting(index: Int, _ error: OrgError) -> OrgError {
        OrgError(
            status: 500,
            code: .storage,
            message: "Record \(index) of the collections call was refused after part of it was written "
                + "(\(error.code.rawValue): \(error.message)); nothing of the call was saved. Send the call again "
                + "without that record, and report this as a local org bug."
        )
    }
    /// A collection update record without its ID.
    static let collectionRecordWithoutID = OrgError(
        status: 400,
        code: .missingArgument,
        message: "Id not specified in an update call"
    )
}

extension OrgError.Code {
    /// A required argument such as a record's ID is missing.
    static let missingArgument = OrgError.Code("MISSING_ARGUMENT")
}
