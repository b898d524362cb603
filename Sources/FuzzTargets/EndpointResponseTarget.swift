import JSONCore
import SyncConfig
import SyncEngine

/// The endpoint targets' response extraction: a response body (any bytes) read as JSON, the
/// records and ids found at the paths configs use, and every record's values substituted into a
/// path and a query as a sync up would. Invariant checked on each call built: nothing from a
/// record leaves its path segment (no `/`, `?`, `#`, no `.` / `..` segment) or the org's path.
enum EndpointResponseTarget {
    private static let recordsPaths = ["", "items", "data.records", "records", "items.0", "data.0.items"]
    private static let prefix = "/services/apexrest/widgets/"

    static func run(_ bytes: [UInt8]) async {
        guard let response = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        var records: [JSONValue] = []
        for path in recordsPaths {
            guard case .array(let found)? = EndpointRequests.value(at: path, in: response) else { continue }
            _ = EndpointRequests.ids(in: found, idFieldName: "Id")
            records += found.prefix(64)
        }
        guard
            case .success(let path) = EndpointTemplate.parse(prefix + "{Id}"),
            case .success(let owner) = EndpointTemplate.parse("{Owner.Name}")
        else { preconditionFailure("the fuzz target's own templates must parse") }
        let request = EndpointRequest(
            method: .patch,
            path: path,
            query: [EndpointQueryParameter(name: "owner", value: owner)]
        )
        for record in records {
            _ = try? EndpointRequests.body(nil, record: record, fields: ["Name", "Owner.Name", "items.0"])
            guard let call = try? EndpointRequests.call(request, record: record) else { continue }
            let segment = call.path.dropFirst(prefix.count)
            precondition(call.path.hasPrefix(prefix), "a record value changed the path's prefix: \(call.path)")
            precondition(
                !segment.isEmpty && segment != "." && segment != ".."
                    && !segment.contains(where: { "/?#".contains($0) }),
                "a record value left its path segment: \(call.path)"
            )
            precondition(
                call.query.map { !$0.contains("#") && $0.filter { $0 == "=" }.count == 1 } ?? true,
                "a record value escaped its query value: \(call.query ?? "")"
            )
        }
    }
}
