import Foundation
import HTTPTypes

extension LocalOrgServer {
    /// Answers one request in process, through the same router as the server but without a socket,
    /// faults or the request log: for fuzzing the request handling (bodies and query strings).
    ///
    /// - Parameters:
    ///   - method: the HTTP method, e.g. `GET`.
    ///   - target: the path with its query string, still percent-encoded.
    ///   - headers: request headers; names that are not valid HTTP field names are left out.
    ///   - body: the request body.
    /// - Returns: the status and body the server would send.
    package func respondInProcess(
        method: String,
        target: String,
        headers: [(name: String, value: String)],
        body: Data
    ) -> (status: Int, body: Data) {
        var fields = HTTPFields()
        for header in headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        let reply = api.handle(OrgHTTPRequest(method: method, target: target, headers: fields, body: body))
        return (reply.status, reply.body)
    }
}
