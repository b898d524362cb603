import Foundation
import HTTPTypes

/// Composite resources: batch (§5.1), composite with references (§5.2), and the routing of
/// `/composite/sobjects` to collections (§5.3). Subrequests run through ``OrgAPI/route(_:version:resource:store:)``,
/// the same code as top-level requests.
extension OrgAPI {
    /// Subrequests per composite or batch call.
    static let compositeLimit = 25
    /// Query and collections subrequests per composite call.
    static let compositeQueryLimit = 5

    /// One parsed composite subrequest.
    private struct Subrequest {
        var method: String
        var url: String
        var referenceID: String
        var body: OrgJSONValue?
        var headers: [(String, String)]
    }

    /// Routes `/composite[/…]`.
    func composite(
        _ request: OrgHTTPRequest,
        version: APIVersion,
        path: [String],
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        guard let first = path.first else {
            try Self.require(request, ["POST"])
            try Self.refuseNesting(store)
            return try compositeRequest(request, version: version)
        }
        switch first.lowercased() {
        case "batch" where path.count == 1:
            try Self.require(request, ["POST"])
            try Self.refuseNesting(store)
            return try batch(request, version: version)
        case "tree" where path.count == 2:
            try Self.refuseNesting(store)
            return try tree(request, object: path[1])
        case "sobjects":
            return try collections(request, version: version, path: Array(path.dropFirst()), store: store)
        default:
            throw OrgError.resourceNotFound
        }
    }

    private static func refuseNesting(_ store: OrgStore) throws {
        if store.isTransaction { throw OrgError.nestedComposite }
    }

    /// Whether a subrequest `url` (a full `/services/data/v{v}/…` path, or one relative to
    /// `/services/data/` as in a batch) names a composite resource: `composite`, `composite/batch`,
    /// `composite/tree` or `composite/graph`. sObject Collections (`composite/sobjects`) are not one.
    ///
    /// A real org runs none of them as a subrequest: "Composite is supported for the following
    /// resources": sObject resources, Query, QueryAll and sObject Collections (REST API Developer
    /// Guide, "Send Multiple Requests Using Composite",
    /// https://developer.salesforce.com/docs/platform/api-rest/guide/resources-composite-composite-post.html);
    /// a batch takes limits, sObject, query, queryAll, search, connect and chatter resources
    /// (salesforce-rest.md §5.1). Neither page gives the error a real org answers; the request is
    /// refused as a whole before anything runs, as a malformed batch is (§5.1).
    static func namesCompositeResource(_ url: String) -> Bool {
        let path = String(url.prefix { $0 != "?" })
        var resource = segments(of: path)
        if resource.count >= 2, resource[0] == "services", resource[1] == "data" {
            resource.removeFirst(2)
        }
        guard let first = resource.first, version(first) != nil else { return false }
        resource.removeFirst()
        guard resource.first?.lowercased() == "composite" else { return false }
        return resource.count == 1 || ["batch", "tree", "graph"].contains(resource[1].lowercased())
    }

    // MARK: Batch

    /// `POST /composite/batch`: up to 25 independent subrequests, each its own transaction and API call.
    private func batch(_ request: OrgHTTPRequest, version: APIVersion) throws -> OrgHTTPResponse {
        let body = try request.jsonObjectBody()
        guard let entries = body["batchRequests"]?.arrayValue, !entries.isEmpty else {
            throw OrgError.invalidBody("The body must have a non-empty 'batchRequests' array")
        }
        guard entries.count <= Self.compositeLimit else {
            throw OrgError.tooMany("batch requests", maximum: Self.compositeLimit)
        }
        let haltOnError = body["haltOnError"]?.boolValue ?? false
        let subrequests = try entries.map { entry -> OrgHTTPRequest in
            guard let object = entry.objectValue, let method = object["method"]?.stringValue,
                let url = object["url"]?.stringValue
            else {
                throw OrgError.invalidBody("Each batch request needs a 'method' and a 'url'")
            }
            let path = url.hasPrefix("/services/data/") ? url : "/services/data/" + url.drop { $0 == "/" }
            guard !Self.namesCompositeResource(path) else { throw OrgError.nestedComposite }
            let input = object["richInput"].map { $0.encoded() } ?? Data()
            return OrgHTTPRequest(method: method, target: path, headers: Self.forwardedHeaders(request), body: input)
        }
        // The top-level call already counted one; each subrequest counts as one call (§5.1).
        try usage.consume(entries.count - 1)
        var results: [OrgJSONValue] = []
        var halted = false
        var hasErrors = false
        for subrequest in subrequests {
            let response: OrgHTTPResponse =
                halted ? .error(.batchHalted, version: version) : run(subrequest, store: .database(database))
            if response.isFailure {
                hasErrors = true
                if haltOnError { halted = true }
            }
            results.append(["statusCode": .integer(Int64(response.status)), "result": response.jsonValue])
        }
        return .json(200, ["hasErrors": .bool(hasErrors), "results": .array(results)])
    }

    // MARK: Composite

    /// `POST /composite`: up to 25 dependent subrequests with `@{ref.field}` references; one API call.
    private func compositeRequest(_ request: OrgHTTPRequest, version: APIVersion) throws -> OrgHTTPResponse {
        let body = try request.jsonObjectBody()
        let subrequests = try Self.compositeSubrequests(body)
        let allOrNone = body["allOrNone"]?.boolValue ?? false
        let forwarded = Self.forwardedHeaders(request)
        var results: [OrgJSONValue] = []
        if allOrNone {
            var failedIndex: Int?
            do {
                try database.write { writer in
                    var references = CompositeReferences()
                    for (index, subrequest) in subrequests.enumerated() {
                        let response = execute(
                            subrequest,
                            references: references,
                            forwarded: forwarded,
                            version: version,
                            store: .transaction(writer)
                        )
                        results.append(Self.compositeResult(response, referenceID: subrequest.referenceID))
                        if response.isFailure {
                            // An OrgError passes through the database unchanged and rolls it back.
                            failedIndex = index
                            throw OrgError.processingHalted
                        }
                        references.record(response.jsonValue, for: subrequest.referenceID)
                    }
                }
            } catch let error as OrgError where failedIndex != nil && error == .processingHalted {
                let halted = OrgHTTPResponse.error(.processingHalted, version: version)
                results = subrequests.enumerated().map { index, subrequest in
                    index == failedIndex
                        ? results[index] : Self.compositeResult(halted, referenceID: subrequest.referenceID)
                }
            }
        } else {
            var references = CompositeReferences()
            var failed = Set<String>()
            for subrequest in subrequests {
                let dependsOnFailure = Self.referenceIDs(of: subrequest).contains { failed.contains($0) }
                let response =
                    dependsOnFailure
                    ? .error(.processingHalted, version: version)
                    : execute(
                        subrequest,
                        references: references,
                        forwarded: forwarded,
                        version: version,
                        store: .database(database)
                    )
                if response.isFailure {
                    failed.insert(subrequest.referenceID)
                } else {
                    references.record(response.jsonValue, for: subrequest.referenceID)
                }
                results.append(Self.compositeResult(response, referenceID: subrequest.referenceID))
            }
        }
        return .json(200, ["compositeResponse": .array(results)])
    }

    /// Resolves a subrequest's references and runs it.
    private func execute(
        _ subrequest: Subrequest,
        references: CompositeReferences,
        forwarded: HTTPFields,
        version: APIVersion,
        store: OrgStore
    ) -> OrgHTTPResponse {
        do {
            let url = try references.substitute(in: subrequest.url)
            let body = try subrequest.body.map { try references.substitute(in: $0) }
            var headers = forwarded
            for (name, value) in subrequest.headers {
                if let fieldName = HTTPField.Name(name) { headers[fieldName] = value }
            }
            let request = OrgHTTPRequest(
                method: subrequest.method,
                target: url,
                headers: headers,
                body: body?.encoded() ?? Data()
            )
            return run(request, store: store)
        } catch let error as CompositeReferences.Unresolved {
            return .error(.unresolvedReference(error.reference), version: version)
        } catch {
            return .error(.storage("Running a composite subrequest", error), version: version)
        }
    }

    /// Runs a subrequest whose target is a full `/services/data/v{v}/…` path.
    private func run(_ request: OrgHTTPRequest, store: OrgStore) -> OrgHTTPResponse {
        // A reference can complete a url only once earlier subrequests have run.
        if Self.namesCompositeResource(request.path) {
            return .error(.nestedComposite, version: .newest)
        }
        let segments = Self.segments(of: request.path)
        guard segments.count >= 3, segments[0] == "services", segments[1] == "data",
            let version = Self.version(segments[2])
        else {
            return .error(.resourceNotFound, version: .newest)
        }
        return route(request, version: version, resource: Array(segments.dropFirst(3)), store: store)
    }

    private static func compositeSubrequests(_ body: OrgJSONObject) throws -> [Subrequest] {
        guard let entries = body["compositeRequest"]?.arrayValue, !entries.isEmpty else {
            throw OrgError.invalidBody("The body must have a non-empty 'compositeRequest' array")
        }
        guard entries.count <= compositeLimit else { throw OrgError.tooMany("subrequests", maximum: compositeLimit) }
        var seen = Set<String>()
        var queries = 0
        let subrequests = try entries.map { entry -> Subrequest in
            guard let object = entry.objectValue, let method = object["method"]?.stringValue,
                let url = object["url"]?.stringValue, let referenceID = object["referenceId"]?.stringValue
            else {
                throw OrgError.invalidBody("Each composite subrequest needs a 'method', a 'url' and a 'referenceId'")
            }
            guard !namesCompositeResource(url) else { throw OrgError.nestedComposite }
            guard seen.insert(referenceID).inserted else {
                throw OrgError.invalidBody("Duplicate referenceId '\(referenceID)'")
            }
            let lowered = url.lowercased()
            if lowered.contains("/query") || lowered.contains("/composite/sobjects") { queries += 1 }
            let headers = (object["httpHeaders"]?.objectValue?.members ?? []).compactMap { member in
                member.value.stringValue.map { (member.key, $0) }
            }
            return Subrequest(
                method: method.uppercased(),
                url: url,
                referenceID: referenceID,
                body: object["body"],
                headers: headers
            )
        }
        guard queries <= compositeQueryLimit else {
            throw OrgError.tooMany("query and collections subrequests", maximum: compositeQueryLimit)
        }
        return subrequests
    }

    private static func referenceIDs(of subrequest: Subrequest) -> [String] {
        CompositeReferences.referenceIDs(in: subrequest.url)
            + (subrequest.body.map { CompositeReferences.referenceIDs(in: $0) } ?? [])
    }

    private static func compositeResult(_ response: OrgHTTPResponse, referenceID: String) -> OrgJSONValue {
        var headers = OrgJSONObject()
        for (name, value) in response.headers { headers[name] = .string(value) }
        return [
            "body": response.jsonValue,
            "httpHeaders": .object(headers),
            "httpStatusCode": .integer(Int64(response.status)),
            "referenceId": .string(referenceID),
        ]
    }

    /// The top-level headers a subrequest inherits (query options); auth was checked once.
    private static func forwardedHeaders(_ request: OrgHTTPRequest) -> HTTPFields {
        var headers = HTTPFields()
        if let name = HTTPField.Name("Sforce-Query-Options"), let value = request.headers[name] {
            headers[name] = value
        }
        return headers
    }
}
