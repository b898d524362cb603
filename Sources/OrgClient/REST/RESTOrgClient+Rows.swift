import Foundation

extension RESTOrgClient {
    /// `POST /sobjects/{Type}`; returns the new ID. Not retried once it may have been sent.
    public func create(_ objectType: String, fields: [String: OrgValue]) async throws -> String {
        let type = try PathComponents.checkName(objectType, kind: "sObject")
        let request = OutgoingRequest(.post, "\(basePath)/sobjects/\(type)", body: OrgValue.object(fields).jsonText)
        let result = try await sendForJSON(request)
        guard let id = result["id"]?.stringValue else {
            throw OrgClientError.unexpectedShape("a create result without 'id'", request: request)
        }
        return id
    }

    /// `PATCH /sobjects/{Type}/{id}`, with `If-Unmodified-Since` when `ifUnmodifiedSince` is set
    /// (412 → ``OrgClientError/Code/conflict``).
    public func update(
        _ objectType: String,
        id: String,
        fields: [String: OrgValue],
        ifUnmodifiedSince: Date?
    ) async throws {
        let path = try rowPath(objectType, id: id)
        var request = OutgoingRequest(.patch, path, body: OrgValue.object(fields).jsonText)
        if let ifUnmodifiedSince {
            request.headers.append((name: "If-Unmodified-Since", value: HTTPDate(ifUnmodifiedSince).text))
        }
        _ = try await send(request)
    }

    /// `DELETE /sobjects/{Type}/{id}` (404 → ``OrgClientError/Code/notFound``).
    public func delete(_ objectType: String, id: String) async throws {
        _ = try await send(OutgoingRequest(.delete, try rowPath(objectType, id: id)))
    }

    /// `PATCH /sobjects/{Type}/{ExtField}/{value}`. Before API 46.0 an update answers 204 without
    /// an ID; the ID is then looked up by the external ID.
    public func upsert(
        _ objectType: String,
        externalIDField: String,
        externalID: String,
        fields: [String: OrgValue]
    ) async throws -> UpsertResult {
        let path = try externalIDPath(objectType, field: externalIDField, value: externalID)
        let request = OutgoingRequest(.patch, path, body: OrgValue.object(fields).jsonText)
        let response = try await send(request)
        if response.status == 204 || response.body.isEmpty {
            let lookup = OutgoingRequest(.get, path, query: "fields=Id")
            let record = try await sendForJSON(lookup)
            guard let id = record["Id"]?.stringValue else {
                throw OrgClientError.unexpectedShape("a record without 'Id'", request: lookup)
            }
            return UpsertResult(id: id, isCreated: false)
        }
        let result = try parseJSON(response, of: request)
        guard let id = result["id"]?.stringValue else {
            throw OrgClientError.unexpectedShape("an upsert result without 'id'", request: request)
        }
        return UpsertResult(id: id, isCreated: result["created"]?.boolValue ?? (response.status == 201))
    }

    /// `GET /sobjects/{Type}/{id}[?fields=…]`; returns the record's JSON.
    public func retrieve(_ objectType: String, id: String, fields: [String]) async throws -> RawJSON {
        let path = try rowPath(objectType, id: id)
        let query = try fields.isEmpty ? nil : "fields=" + Self.fieldList(fields)
        return RawJSON(try await send(OutgoingRequest(.get, path, query: query)).body)
    }

    func rowPath(_ objectType: String, id: String) throws -> String {
        let type = try PathComponents.checkName(objectType, kind: "sObject")
        return "\(basePath)/sobjects/\(type)/\(try PathComponents.checkRecordID(id))"
    }

    func externalIDPath(_ objectType: String, field: String, value: String) throws -> String {
        let type = try PathComponents.checkName(objectType, kind: "sObject")
        let field = try PathComponents.checkName(field, kind: "external ID field")
        return "\(basePath)/sobjects/\(type)/\(field)/\(PathComponents.encode(value))"
    }

    static func fieldList(_ fields: [String]) throws -> String {
        try fields.map { try PathComponents.checkName($0, kind: "field") }.joined(separator: ",")
    }
}
