import Foundation
import NIOConcurrencyHelpers

/// The Salesforce REST API of the local org, independent of the HTTP server: takes an
/// ``OrgHTTPRequest`` and returns an ``OrgHTTPResponse``.
///
/// Top-level requests enter through ``handle(_:)`` (auth, API usage, routing); composite
/// subrequests re-enter through ``route(_:version:resource:store:)``, so both run the same handlers.
/// Handlers are synchronous because ``OrgDatabase`` is; a composite `allOrNone` request runs its
/// subrequests inside one database transaction (see ``OrgStore``).
struct OrgAPI: Sendable {
    /// The org's data, as the acting user sees it (see ``acting(as:)``).
    private(set) var database: OrgDatabase
    /// The tokens.
    let sessions: SessionStore
    /// The API request counter.
    let usage: APIUsage
    /// A forced query page size, if configured.
    let pageSizeOverride: Int?
    /// The OAuth token endpoint.
    let oauth: OAuthTokenEndpoint
    /// The org and user the sessions belong to.
    let identity: OrgIdentity
    /// The Bulk API 2.0 jobs.
    let bulk: BulkJobs
    private let baseURL = NIOLockedValueBox("")

    /// This API serving the restricted user `username` (`nil`: the org's all-powerful user): every
    /// handler reads and writes through ``OrgDatabase/acting(as:)``, so describes, queries and
    /// writes on every path (REST, collections, composite, tree, Bulk 1.0 and 2.0) follow that
    /// user's profile and permission sets.
    func acting(as username: String?) -> OrgAPI {
        guard username != nil else { return self }
        var api = self
        api.database = database.acting(as: username)
        return api
    }

    /// Records the server's base URL once the port is known (used as `instance_url`).
    func setBaseURL(_ url: String) {
        baseURL.withLockedValue { $0 = url }
    }

    /// The server's base URL, e.g. `http://127.0.0.1:54321`.
    var instanceURL: String { baseURL.withLockedValue { $0 } }

    /// Answers one top-level request.
    func handle(_ request: OrgHTTPRequest) -> OrgHTTPResponse {
        let segments = Self.segments(of: request.path)
        if segments.count == 3, segments[0] == "id" {
            guard sessions.isAuthorized(request.header("Authorization")) else {
                return .error(.invalidSession, version: .newest)
            }
            return IdentityEndpoint(identity: identity, database: database)
                .identityResponse(orgID: segments[1], userID: segments[2], baseURL: instanceURL, version: .newest)
        }
        guard segments.count >= 2, segments[0] == "services" else {
            return .error(.resourceNotFound, version: .newest)
        }
        switch segments[1] {
        case "data":
            guard segments.count > 2 else { return versions(request) }
            guard let version = Self.version(segments[2]) else {
                return .error(.resourceNotFound, version: .newest)
            }
            guard let session = sessions.session(request.header("Authorization")) else {
                return .error(.invalidSession, version: version)
            }
            do {
                try usage.consume()
            } catch let error as OrgError {
                return .error(error, version: version)
            } catch {
                return .error(.storage("Counting API usage", error), version: version)
            }
            let api = acting(as: session.username)
            return api.route(
                request,
                version: version,
                resource: Array(segments.dropFirst(3)),
                store: .database(api.database)
            )
        case "apexrest" where !database.schema.endpoints.isEmpty:
            guard let session = sessions.session(request.header("Authorization")) else {
                return .error(.invalidSession, version: .newest)
            }
            do {
                try usage.consume()
            } catch let error as OrgError {
                return .error(error, version: .newest)
            } catch {
                return .error(.storage("Counting API usage", error), version: .newest)
            }
            return acting(as: session.username).customEndpoint(request, segments: Array(segments.dropFirst(2)))
        case "async" where segments.count >= 3:
            return bulkV1(request, segments: Array(segments.dropFirst(2)))
        case "oauth2" where segments.count == 3 && segments[2] == "token":
            return oauth.respond(to: request, baseURL: instanceURL, now: Date())
        case "oauth2" where segments.count == 3 && segments[2] == "userinfo":
            guard sessions.isAuthorized(request.header("Authorization")) else {
                return .error(.invalidSession, version: .newest)
            }
            return IdentityEndpoint(identity: identity, database: database)
                .userInfoResponse(baseURL: instanceURL, version: .newest)
        default:
            return .error(.resourceNotFound, version: .newest)
        }
    }

    /// Routes a data request (path below `/services/data/v{v}/`) to its handler.
    ///
    /// - Parameters:
    ///   - request: the request or subrequest.
    ///   - version: the version in its path.
    ///   - resource: the decoded path segments after the version, without a trailing empty one.
    ///   - store: where reads and writes go (the database, or a composite's open transaction).
    func route(_ request: OrgHTTPRequest, version: APIVersion, resource: [String], store: OrgStore) -> OrgHTTPResponse {
        do {
            return try dispatch(request, version: version, resource: resource, store: store)
        } catch let error as OrgError {
            return .error(error, version: version)
        } catch {
            return .error(.storage("Serving '\(request.path)'", error), version: version)
        }
    }

    private func dispatch(
        _ request: OrgHTTPRequest,
        version: APIVersion,
        resource: [String],
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        guard let first = resource.first else {
            try Self.require(request, ["GET"])
            return resourcesByVersion(version)
        }
        let rest = Array(resource.dropFirst())
        switch first.lowercased() {
        case "query":
            return try query(request, version: version, locator: rest, includeDeleted: false, store: store)
        case "queryall":
            return try query(request, version: version, locator: rest, includeDeleted: true, store: store)
        case "sobjects":
            return try sobjects(request, version: version, path: rest, store: store)
        case "composite":
            return try composite(request, version: version, path: rest, store: store)
        case "search" where rest.isEmpty:
            return try search(request, version: version, store: store)
        case "recent" where rest.isEmpty:
            return try recent(request, version: version, store: store)
        case "connect" where rest.count == 2 && rest[0] == "briefcase" && rest[1] == "priming-records":
            try Self.require(request, ["GET"])
            return .json(
                200,
                try database.primingRecords(
                    relayToken: request.parameter("relayToken"),
                    changedAfter: request.parameter("changedAfterTimestamp"),
                    pageSize: pageSize(for: request),
                    apiVersion: version.description
                )
            )
        case "jobs":
            return try jobs(request, version: version, path: rest)
        case "ui-api" where rest.count == 2 && rest[0] == "layout":
            return try layout(request, object: rest[1])
        case "limits" where rest.count == 1 && rest[0].lowercased() == "recordcount":
            return try recordCount(request)
        case "limits" where rest.isEmpty:
            try Self.require(request, ["GET"])
            return limits()
        default:
            throw OrgError.resourceNotFound
        }
    }

    /// Throws `405` unless the request's method is one of `allowed`.
    static func require(_ request: OrgHTTPRequest, _ allowed: [String]) throws {
        guard allowed.contains(request.method) else {
            throw OrgError.methodNotAllowed(request.method, allowed: allowed)
        }
    }

    /// The decoded path segments of `path`; one trailing slash is ignored (§13.2).
    static func segments(of path: String) -> [String] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(FormDecoding.pathSegment)
        if parts.first == "" { parts.removeFirst() }
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// Reads `v59.0`.
    static func version(_ segment: String) -> APIVersion? {
        guard segment.first == "v" || segment.first == "V" else { return nil }
        return APIVersion(segment.dropFirst())
    }
}
