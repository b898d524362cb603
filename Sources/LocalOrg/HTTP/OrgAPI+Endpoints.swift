import Foundation
import SOQL

/// The custom JSON endpoints of the schema file (`/services/apexrest/…`, see ``OrgCustomEndpoint``).
extension OrgAPI {
    /// Answers a request below `/services/apexrest/` (`segments` are the decoded path segments after
    /// `services`, `apexrest`).
    func customEndpoint(_ request: OrgHTTPRequest, segments: [String]) -> OrgHTTPResponse {
        let version = APIVersion.newest
        do {
            for endpoint in database.schema.endpoints {
                let declared = Self.segments(of: endpoint.path).dropFirst(2)
                guard segments.count >= declared.count, Array(segments.prefix(declared.count)) == Array(declared)
                else { continue }
                return try serve(request, endpoint: endpoint, rest: Array(segments.dropFirst(declared.count)))
            }
            throw OrgError.resourceNotFound
        } catch let error as OrgError {
            return .error(error, version: version)
        } catch {
            return .error(.storage("Serving '\(request.path)'", error), version: version)
        }
    }

    private func serve(_ request: OrgHTTPRequest, endpoint: OrgCustomEndpoint, rest: [String]) throws
        -> OrgHTTPResponse
    {
        switch rest.count {
        case 0:
            try Self.require(request, ["GET", "POST"])
            if request.method == "GET" { return try list(request, endpoint: endpoint, idsOnly: false) }
            return try create(request.jsonObjectBody(), endpoint: endpoint)
        case 1 where rest[0] == "ids" && request.method == "GET":
            return try list(request, endpoint: endpoint, idsOnly: true)
        case 1 where rest[0] == "batch" && request.method == "POST":
            return try batch(request, endpoint: endpoint)
        case 1:
            try Self.require(request, ["GET", "PATCH", "PUT", "DELETE"])
            let id = try recordID(key: rest[0], endpoint: endpoint)
            switch request.method {
            case "GET":
                return .json(200, try record(id: id, endpoint: endpoint))
            case "DELETE":
                try database.write { try $0.delete(endpoint.object, id: id) }
                return .noContent
            default:
                var fields = try request.jsonObjectBody()
                fields["Id"] = nil
                fields["LastModifiedDate"] = nil
                try database.write { try $0.update(endpoint.object, id: id, fields: fields) }
                return .json(200, try record(id: id, endpoint: endpoint))
            }
        default:
            throw OrgError.resourceNotFound
        }
    }

    /// A page of records (or of ids), ordered by modification date then id.
    private func list(_ request: OrgHTTPRequest, endpoint: OrgCustomEndpoint, idsOnly: Bool) throws -> OrgHTTPResponse {
        var conditions: [String] = []
        if !idsOnly, let param = endpoint.sinceParam, let text = request.parameter(param) {
            let milliseconds: Int64?
            if endpoint.sinceFormat == "epochMillis" {
                milliseconds = Int64(text)
            } else {
                milliseconds = SalesforceDateTime.milliseconds(lenient: text)
            }
            guard let milliseconds else {
                throw OrgError.invalidInput(
                    "'\(param)' is not a date-time in \(endpoint.sinceFormat) format: send the instant records "
                        + "must be modified at or after"
                )
            }
            conditions.append("LastModifiedDate >= \(SalesforceDateTime.soqlLiteral(milliseconds: milliseconds))")
        }
        var offset = 0
        if let cursor = request.parameter("cursor") {
            guard let value = Int(cursor), value >= 0 else {
                throw OrgError.invalidInput("'cursor' must be the cursor of an earlier page")
            }
            offset = value
        }
        let fields = idsOnly ? ["Id"] : endpoint.shownFields
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let soql = "SELECT \(fields.joined(separator: ", ")) FROM \(endpoint.object)\(filter)"
        let total = try count(endpoint: endpoint, filter: filter)
        let page = try database.query(
            soql + " ORDER BY LastModifiedDate, Id LIMIT \(endpoint.pageSize) OFFSET \(offset)",
            pageSize: 2000,
            apiVersion: APIVersion.newest.description
        )
        let records = try Self.plainRecords(page.recordsJSON)
        let next = offset + records.count
        var nextURL: OrgJSONValue = .null
        var cursor: OrgJSONValue = .null
        if next < total, !records.isEmpty {
            let kept = request.parameters.filter { $0.name != "cursor" }.map {
                Self.percentEncoded($0.name) + "=" + Self.percentEncoded($0.value)
            }
            let query = (kept + ["cursor=\(next)"]).joined(separator: "&")
            nextURL = .string(endpoint.path + (idsOnly ? "/ids" : "") + "?" + query)
            cursor = .string(String(next))
        }
        let items: OrgJSONValue =
            idsOnly ? .array(records.map { $0["Id"] ?? .null }) : .array(records.map { OrgJSONValue.object($0) })
        let data: OrgJSONObject = [idsOnly ? "ids" : "items": items, "nextUrl": nextURL, "cursor": cursor]
        return .json(200, ["totalSize": .integer(Int64(total)), "data": .object(data)])
    }

    private func count(endpoint: OrgCustomEndpoint, filter: String) throws -> Int {
        let page = try database.query(
            "SELECT COUNT() FROM \(endpoint.object)\(filter)",
            pageSize: 2000,
            apiVersion: APIVersion.newest.description
        )
        return page.totalSize
    }

    private func create(_ body: OrgJSONObject, endpoint: OrgCustomEndpoint) throws -> OrgHTTPResponse {
        var fields = body
        fields["Id"] = nil
        fields["LastModifiedDate"] = nil
        let id = try database.write { try $0.create(endpoint.object, fields: fields) }
        return .json(201, ["id": .string(id), "success": true])
    }

    /// `POST P/batch`: each `{"method", "path", "body"}` answered in order by `{"status", "body"}`.
    private func batch(_ request: OrgHTTPRequest, endpoint: OrgCustomEndpoint) throws -> OrgHTTPResponse {
        guard case .array(let entries) = try request.jsonBody() else {
            throw OrgError.invalidBody("The batch body must be a JSON array of {\"method\", \"path\", \"body\"}")
        }
        var results: [OrgJSONValue] = []
        for entry in entries {
            guard let method = entry.objectValue?["method"]?.stringValue,
                let target = entry.objectValue?["path"]?.stringValue
            else {
                throw OrgError.invalidBody("Every batch entry needs a \"method\" and a \"path\"")
            }
            let body = entry.objectValue?["body"].map { $0.encoded() } ?? Data()
            let inner = OrgHTTPRequest(method: method, target: target, headers: request.headers, body: body)
            let segments = Self.segments(of: inner.path)
            let response: OrgHTTPResponse
            if segments.count >= 2, segments[0] == "services", segments[1] == "apexrest",
                Array(segments.dropFirst(2).prefix(Self.segments(of: endpoint.path).count - 2))
                    == Array(Self.segments(of: endpoint.path).dropFirst(2)),
                segments.last != "batch"
            {
                response = customEndpoint(inner, segments: Array(segments.dropFirst(2)))
            } else {
                response = .error(
                    .invalidInput("A batch entry's path must be a path of this endpoint"),
                    version: .newest
                )
            }
            results.append(["status": .integer(Int64(response.status)), "body": response.jsonValue])
        }
        return .json(200, .array(results))
    }

    /// The id of the record whose key field equals `key`.
    private func recordID(key: String, endpoint: OrgCustomEndpoint) throws -> String {
        let soql =
            "SELECT Id FROM \(endpoint.object) WHERE \(endpoint.keyField) = \(SOQLValue.string(key).text) LIMIT 2"
        let page = try database.query(soql, pageSize: 2000, apiVersion: APIVersion.newest.description)
        let records = try Self.plainRecords(page.recordsJSON)
        guard records.count == 1, let id = records[0]["Id"]?.stringValue else { throw OrgError.notFound() }
        return id
    }

    private func record(id: String, endpoint: OrgCustomEndpoint) throws -> OrgJSONValue {
        let soql =
            "SELECT \(endpoint.shownFields.joined(separator: ", ")) FROM \(endpoint.object) "
            + "WHERE Id = \(SOQLValue.string(id).text)"
        let page = try database.query(soql, pageSize: 2000, apiVersion: APIVersion.newest.description)
        guard let record = try Self.plainRecords(page.recordsJSON).first else { throw OrgError.notFound() }
        return .object(record)
    }

    /// `text` with every byte but the unreserved ones percent-encoded.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.isASCII,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".contains(Character(scalar))
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// The records of a query page without their `attributes`.
    private static func plainRecords(_ json: Data) throws -> [OrgJSONObject] {
        guard case .array(let values) = try OrgJSONValue.decode(json) else { return [] }
        return values.compactMap { value in
            guard var record = value.objectValue else { return nil }
            record["attributes"] = nil
            return record
        }
    }
}
