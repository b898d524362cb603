import Foundation
import SOQL

/// sObject resources: describe global, basic info, describe, rows, external-ID rows and the
/// replication feeds (§4, §7, §8.2).
extension OrgAPI {
    /// Routes `/sobjects[/…]`.
    func sobjects(
        _ request: OrgHTTPRequest,
        version: APIVersion,
        path: [String],
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        let apiVersion = version.description
        switch path.count {
        case 0:
            try Self.require(request, ["GET"])
            return .json(200, database.describeGlobal(apiVersion: apiVersion))
        case 1:
            try Self.require(request, ["GET", "POST"])
            if request.method == "GET" {
                return .json(200, try database.basicInfo(path[0], apiVersion: apiVersion))
            }
            return try create(request, object: path[0], version: version, store: store)
        case 2:
            switch path[1].lowercased() {
            case "describe":
                try Self.require(request, ["GET"])
                return try describe(request, object: path[0], apiVersion: apiVersion)
            case "deleted", "updated":
                try Self.require(request, ["GET"])
                return try replicationFeed(request, object: path[0], deleted: path[1].lowercased() == "deleted")
            default:
                return try row(request, object: path[0], id: path[1], version: version, store: store)
            }
        case 3:
            // The value was encoded with quote_plus by some clients (§4.2): `+` stands for a space.
            let value = path[2].replacingOccurrences(of: "+", with: " ")
            return try externalIDRow(
                request,
                object: path[0],
                field: path[1],
                value: value,
                version: version,
                store: store
            )
        default:
            throw OrgError.resourceNotFound
        }
    }

    /// `POST /sobjects/{Type}` → `201 {"id", "success": true, "errors": []}`.
    private func create(
        _ request: OrgHTTPRequest,
        object: String,
        version: APIVersion,
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        let fields = try request.jsonObjectBody()
        let id = try store.write { try $0.create(object, fields: fields) }
        let body: OrgJSONValue = ["id": .string(id), "success": true, "errors": []]
        return .json(201, body, headers: [("Location", "/services/data/v\(version)/sobjects/\(object)/\(id)")])
    }

    /// `GET`, `PATCH` or `DELETE /sobjects/{Type}/{id}`.
    private func row(
        _ request: OrgHTTPRequest,
        object: String,
        id: String,
        version: APIVersion,
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET", "PATCH", "DELETE"])
        switch request.method {
        case "GET":
            return try retrieveRow(request, object: object, id: id, version: version, store: store)
        case "PATCH":
            let fields = try request.jsonObjectBody()
            let preconditions = try Self.preconditions(of: request)
            try store.write { try $0.update(object, id: id, fields: fields, preconditions: preconditions) }
            return .noContent
        default:
            try store.write { try $0.delete(object, id: id) }
            return .noContent
        }
    }

    /// `GET /sobjects/{Type}/{id}[?fields=A,B]` with `ETag` and `Last-Modified`, honouring
    /// `If-None-Match` / `If-Modified-Since` (304) and `If-Match` (412).
    private func retrieveRow(
        _ request: OrgHTTPRequest,
        object: String,
        id: String,
        version: APIVersion,
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        let fields = Self.fieldList(request.parameter("fields"))
        let body = try store.retrieve(object, id: id, fields: fields, apiVersion: version.description)
        let recordVersion = try store.read { try $0.recordVersion(object, id: id) }
        let headers = [
            ("ETag", "\"\(recordVersion.etag)\""),
            ("Last-Modified", HTTPDate.format(recordVersion.lastModifiedDate)),
        ]
        if let header = request.header("If-Match") {
            guard let tags = EntityTagList.parse(header) else { throw OrgError.malformedConditionalHeader("If-Match") }
            guard tags.contains("*") || tags.contains(recordVersion.etag) else {
                throw OrgError.preconditionFailed("The record's ETag does not match If-Match")
            }
        }
        if let header = request.header("If-None-Match"), let tags = EntityTagList.parse(header),
            tags.contains("*") || tags.contains(recordVersion.etag)
        {
            return OrgHTTPResponse(status: 304, headers: headers, isJSON: false)
        }
        if request.header("If-None-Match") == nil, let header = request.header("If-Modified-Since"),
            let since = HTTPDate.parse(header),
            recordVersion.lastModified / 1000 <= Int64(since.timeIntervalSince1970)
        {
            return OrgHTTPResponse(status: 304, headers: headers, isJSON: false)
        }
        return .json(200, body, headers: headers)
    }

    /// `GET` (retrieve by external ID) or `PATCH` (upsert) `/sobjects/{Type}/{Field}/{value}` (§4.2).
    private func externalIDRow(
        _ request: OrgHTTPRequest,
        object: String,
        field: String,
        value: String,
        version: APIVersion,
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET", "PATCH"])
        if request.method == "GET" {
            let fields = Self.fieldList(request.parameter("fields"))
            let body = try store.read {
                try $0.retrieve(
                    object,
                    externalIDField: field,
                    value: value,
                    fields: fields,
                    apiVersion: version.description
                )
            }
            return .json(200, body)
        }
        let fields = try request.jsonObjectBody()
        let result = try store.write { try $0.upsert(object, externalIDField: field, value: value, fields: fields) }
        let location = [("Location", "/services/data/v\(version)/sobjects/\(object)/\(result.id)")]
        if !result.created, version < .upsertReportsCreated {
            return OrgHTTPResponse(status: 204, headers: location, isJSON: false)
        }
        let body: OrgJSONValue = [
            "id": .string(result.id), "success": true, "errors": [], "created": .bool(result.created),
        ]
        return .json(result.created ? 201 : 200, body, headers: location)
    }

    /// `GET /sobjects/{Type}/deleted/?start=&end=` or `/updated/` (§4.4).
    private func replicationFeed(_ request: OrgHTTPRequest, object: String, deleted: Bool) throws -> OrgHTTPResponse {
        func date(_ name: String) throws -> Date {
            guard let text = request.parameter(name) else { throw OrgError.missingParameter(name) }
            guard let date = Self.parseISODate(text) else {
                throw OrgError.invalidBody("The '\(name)' parameter '\(text)' is not an ISO 8601 date-time")
            }
            return date
        }
        let start = try date("start")
        let end = try date("end")
        let body =
            deleted
            ? try database.deletedRecords(object, start: start, end: end)
            : try database.updatedRecords(object, start: start, end: end)
        return .json(200, body)
    }

    /// The preconditions of an update from `If-Unmodified-Since`, `If-Match` and `If-None-Match`.
    ///
    /// - Throws: `400` when a header is malformed (§4.5).
    static func preconditions(of request: OrgHTTPRequest) throws -> [OrgPrecondition] {
        var preconditions: [OrgPrecondition] = []
        if let header = request.header("If-Unmodified-Since") {
            guard let date = HTTPDate.parse(header) else {
                throw OrgError.malformedConditionalHeader("If-Unmodified-Since")
            }
            preconditions.append(.ifUnmodifiedSince(date))
        }
        if let header = request.header("If-Match") {
            guard let tags = EntityTagList.parse(header) else { throw OrgError.malformedConditionalHeader("If-Match") }
            preconditions.append(.ifMatch(tags))
        }
        if let header = request.header("If-None-Match") {
            guard let tags = EntityTagList.parse(header) else {
                throw OrgError.malformedConditionalHeader("If-None-Match")
            }
            preconditions.append(.ifNoneMatch(tags))
        }
        return preconditions
    }

    /// Splits a `fields=A,B` value; `nil` when absent or empty (all fields).
    static func fieldList(_ text: String?) -> [String]? {
        guard let text else { return nil }
        let fields = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return fields.isEmpty ? nil : fields
    }

    /// Parses `2013-05-05T00:00:00+00:00`, `…Z` or `….000+0000` with SOQL's calendar.
    static func parseISODate(_ text: String) -> Date? {
        SalesforceDateTime.milliseconds(from: text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}
