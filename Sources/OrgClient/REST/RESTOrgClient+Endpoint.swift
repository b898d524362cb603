extension RESTOrgClient: OrgEndpointClient {
    /// The versioned data path (`/services/data/v62.0`).
    public var dataPath: String { basePath }

    /// Sends a call to a path of the org.
    public func send(_ call: EndpointCall) async throws -> EndpointReply {
        guard let verb = HTTPVerb(rawValue: call.method) else {
            throw OrgClientError.invalidArgument("'\(call.method)' is not an HTTP method syncrun sends")
        }
        guard Self.isOrgPath(call.path) else {
            throw OrgClientError.invalidArgument(
                "'\(call.path)' is not a path of the org; endpoint paths start with one '/' and hold no host"
            )
        }
        let request = OutgoingRequest(verb, call.path, query: call.query, body: call.body)
        let response = try await send(request)
        return EndpointReply(status: response.status, body: response.body)
    }

    /// The call for a next-page URL: a path of the org, or an absolute URL of the org itself.
    public func call(forNextURL url: String) -> EndpointCall? {
        var target = Substring(url)
        let base = configuration.endpoint.baseURL
        if target.hasPrefix(base + "/") {
            target = target.dropFirst(base.count)
        } else if target.contains("://") {
            return nil
        }
        let path = target.prefix { $0 != "?" && $0 != "#" }
        guard Self.isOrgPath(String(path)) else { return nil }
        let rest = target.dropFirst(path.count)
        let query = rest.hasPrefix("?") ? String(rest.dropFirst().prefix { $0 != "#" }) : nil
        return EndpointCall(method: "GET", path: String(path), query: query.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// A path that cannot reach another host: one leading `/`, no `//`, no `.`/`..` segment, no
    /// space, backslash or control character, ASCII only.
    static func isOrgPath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.hasPrefix("//") else { return false }
        guard path.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" })
        else { return false }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return !segments.contains { $0 == "." || $0 == ".." }
    }
}
