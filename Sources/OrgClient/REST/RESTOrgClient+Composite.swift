extension RESTOrgClient {
    /// The most subrequests one composite or composite batch call takes.
    public static let maxCompositeSubrequests = 25

    /// `POST /composite/batch`: up to 25 independent subrequests, each counted as one API call.
    ///
    /// Retried after a lost response only when no subrequest is a POST.
    public func compositeBatch(_ subrequests: [BatchSubrequest], haltOnError: Bool) async throws -> [BatchSubresponse] {
        try Self.checkSubrequestCount(subrequests.count, call: "composite batch")
        let batchRequests: [OrgValue] = subrequests.map { subrequest in
            var entry: [String: OrgValue] = [
                "method": .string(subrequest.method.rawValue),
                "url": .string("v\(configuration.endpoint.apiVersion)/\(subrequest.path)"),
            ]
            if let body = subrequest.body { entry["richInput"] = body }
            return .object(entry)
        }
        let body: OrgValue = ["haltOnError": .bool(haltOnError), "batchRequests": .array(batchRequests)]
        let (response, request) = try await post("composite/batch", body, methods: subrequests.map(\.method))
        guard let results = response["results"]?.arrayValue, results.count == subrequests.count else {
            throw OrgClientError.unexpectedShape(
                "no 'results' matching the \(subrequests.count) subrequests",
                request: request
            )
        }
        return results.map { result in
            BatchSubresponse(
                statusCode: result["statusCode"]?.integerValue.map(Int.init) ?? 0,
                result: result["result"] ?? .null
            )
        }
    }

    /// `POST /composite`: up to 25 subrequests that may reference each other, in one API call.
    /// `collateSubrequests` is sent as `false` so the org keeps the order.
    ///
    /// Retried after a lost response only when no subrequest is a POST.
    public func composite(_ subrequests: [CompositeSubrequest], allOrNone: Bool) async throws -> [CompositeSubresponse]
    {
        try Self.checkSubrequestCount(subrequests.count, call: "composite")
        var seen = Set<String>()
        for subrequest in subrequests where !seen.insert(subrequest.referenceID).inserted {
            throw OrgClientError.invalidArgument(
                "the reference ID '\(subrequest.referenceID)' is used twice in one composite call; make each one unique"
            )
        }
        let compositeRequest: [OrgValue] = subrequests.map { subrequest in
            var entry: [String: OrgValue] = [
                "method": .string(subrequest.method.rawValue),
                "url": .string("\(basePath)/\(subrequest.path)"),
                "referenceId": .string(subrequest.referenceID),
            ]
            if let body = subrequest.body { entry["body"] = body }
            if !subrequest.headers.isEmpty {
                entry["httpHeaders"] = .object(subrequest.headers.mapValues(OrgValue.string))
            }
            return .object(entry)
        }
        let body: OrgValue = [
            "allOrNone": .bool(allOrNone),
            "collateSubrequests": false,
            "compositeRequest": .array(compositeRequest),
        ]
        let (response, request) = try await post("composite", body, methods: subrequests.map(\.method))
        guard let entries = response["compositeResponse"]?.arrayValue else {
            throw OrgClientError.unexpectedShape("no 'compositeResponse'", request: request)
        }
        return entries.map { entry in
            CompositeSubresponse(
                referenceID: entry["referenceId"]?.stringValue ?? "",
                statusCode: entry["httpStatusCode"]?.integerValue.map(Int.init) ?? 0,
                body: entry["body"] ?? .null,
                headers: (entry["httpHeaders"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
            )
        }
    }

    /// Posts a composite call's `body` to `call` (`composite`, `composite/batch`), retried after a
    /// lost response only when none of its subrequests' `methods` is POST; the response and the
    /// request it answers.
    private func post(_ call: String, _ body: OrgValue, methods: [OrgRequestMethod]) async throws
        -> (response: OrgValue, request: OutgoingRequest)
    {
        let request = OutgoingRequest(
            .post,
            "\(basePath)/\(call)",
            body: body.jsonText,
            isIdempotent: !methods.contains(.post)
        )
        return (try await sendForJSON(request), request)
    }

    private static func checkSubrequestCount(_ count: Int, call: String) throws {
        guard count > 0 else { throw OrgClientError.invalidArgument("a \(call) call needs at least one subrequest") }
        guard count <= maxCompositeSubrequests else {
            throw OrgClientError.invalidArgument(
                "a \(call) call takes at most \(maxCompositeSubrequests) subrequests, not \(count); split them"
            )
        }
    }
}
