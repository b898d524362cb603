import JSONCore
import OrgClient
import SoupStore
import SyncConfig

/// The `endpoint` sync down target: the declared list request, page after page (a next-URL or a
/// cursor), the records at `recordsPath` saved as they come; with `since`, the watermark is sent
/// as that parameter (resync, `maxTimeStamp` as for soql). Ghost cleaning lists every id through
/// `idsRequest`, and is refused when none is declared.
///
/// Decide / apply: ``firstCall(since:)`` and ``nextCall(after:of:paging:)`` decide the calls from
/// the config and the responses; ``fetch(since:org:store:body:)`` sends them.
struct EndpointDownFetcher: DownTargetFetcher {
    let syncName: String
    let soupName: String
    let target: EndpointSyncDownTarget

    /// The most pages one fetch follows, a guard against an endpoint that never ends its paging.
    static let maximumPages = 100_000

    var idFieldName: String { target.idFieldName }
    var modificationDateFieldName: String { target.modificationDateFieldName }
    var isSortedByModification: Bool { false }
    var isIncremental: Bool { target.since != nil }

    /// The first list call of a run from `maxTimeStamp` (the watermark parameter when it is > 0).
    func firstCall(since maxTimeStamp: Int64) throws -> EndpointCall {
        var extra: [(name: String, value: String)] = []
        if let since = target.since, maxTimeStamp > 0 {
            extra.append((since.param, EndpointRequests.watermark(maxTimeStamp, format: since.format)))
        }
        return try build { () throws(EndpointSubstitutionError) in
            try EndpointRequests.call(target.request, extraQuery: extra)
        }
    }

    /// The calls of the ids request (ghost cleaning).
    func idsCall() throws -> EndpointCall {
        guard let ids = target.idsRequest else { throw Self.noIDsRequest(syncName) }
        return try build { () throws(EndpointSubstitutionError) in try EndpointRequests.call(ids.request) }
    }

    /// The call for the page after `response` (sent as `call`), or `nil` on the last page.
    func nextCall(
        after response: JSONValue,
        of call: EndpointCall,
        first: EndpointCall,
        paging: EndpointNextPage?,
        org: any OrgEndpointClient
    )
        throws -> EndpointCall?
    {
        switch paging {
        case nil:
            return nil
        case .urlPath(let path):
            guard let url = EndpointRequests.value(at: path, in: response)?.stringValue, !url.isEmpty else {
                return nil
            }
            guard let next = org.call(forNextURL: url) else {
                throw SyncEngineError.invalidTarget(
                    syncName,
                    "the response's next-page URL at '\(path)' is not a path of the org (it names another host "
                        + "or leaves the path); syncrun only follows paths of the org it syncs with"
                )
            }
            return next
        case .cursor(let path, let param):
            let cursor: String
            switch EndpointRequests.value(at: path, in: response) {
            case .string(let text)?: cursor = text
            case .integer(let number)?: cursor = String(number)
            default: return nil
            }
            guard !cursor.isEmpty else { return nil }
            var pairs = (first.query ?? "").split(separator: "&").filter {
                !$0.hasPrefix(EndpointRequests.percentEncoded(param) + "=")
            }
            .map(String.init)
            pairs.append(EndpointRequests.percentEncoded(param) + "=" + EndpointRequests.percentEncoded(cursor))
            return EndpointCall(method: first.method, path: first.path, query: pairs.joined(separator: "&"))
        }
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let client = try Self.endpointClient(org, syncName: syncName)
        var fetched = 0
        try await forEachPage(
            from: try firstCall(since: maxTimeStamp),
            paging: target.nextPage,
            arrayAt: target.recordsPath,
            client: client
        ) { current in
            "the response of \(current.method) '\(current.path)' has no array of records at 'recordsPath' "
                + "'\(target.recordsPath)'; point 'recordsPath' at the list of records"
        } body: { records in
            fetched += records.count
            return try await body(DownPage(json: JSONValue.array(records).jsonText, totalSize: fetched))
        }
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        guard let request = target.idsRequest else { throw Self.noIDsRequest(syncName) }
        let client = try Self.endpointClient(org, syncName: syncName)
        try await forEachPage(
            from: try idsCall(),
            paging: request.nextPage,
            arrayAt: request.recordsPath,
            client: client
        ) { current in
            "the response of \(current.method) '\(current.path)' has no array of ids at 'idsRequest."
                + "recordsPath' '\(request.recordsPath)'; point it at the list of ids"
        } body: { entries in
            guard let ids = EndpointRequests.ids(in: entries, idFieldName: target.idFieldName) else {
                throw SyncEngineError.invalidTarget(
                    syncName,
                    "an entry of the ids response is neither an id nor a record with '\(target.idFieldName)'; "
                        + "the ids request must list every id on the server"
                )
            }
            return try await body(.ids(ids))
        }
    }

    /// Sends `first` and the calls its responses page on to (`paging`), each call once, and hands
    /// `body` the array at `path` of each response until `body` returns `false`.
    ///
    /// - Throws: `.invalidTarget` with `missing(call)` when a response has no array at `path`; the
    ///   errors of ``checkLoop(_:seen:)``, `send` and ``nextCall(after:of:first:paging:org:)``.
    private func forEachPage(
        from first: EndpointCall,
        paging: EndpointNextPage?,
        arrayAt path: String,
        client: any OrgEndpointClient,
        missing: (EndpointCall) -> String,
        body: ([JSONValue]) async throws -> Bool
    ) async throws {
        var call: EndpointCall? = first
        var seen: Set<String> = []
        while let current = call {
            try checkLoop(current, seen: &seen)
            let response = try await send(current, client: client)
            guard case .array(let entries)? = EndpointRequests.value(at: path, in: response) else {
                throw SyncEngineError.invalidTarget(syncName, missing(current))
            }
            guard try await body(entries) else { return }
            call = try nextCall(after: response, of: current, first: first, paging: paging, org: client)
        }
    }

    private func send(_ call: EndpointCall, client: any OrgEndpointClient) async throws -> JSONValue {
        let reply = try await client.send(call)
        do {
            return try JSONValue(parsing: reply.body)
        } catch {
            throw SyncEngineError.invalidTarget(
                syncName,
                "the response of \(call.method) '\(call.path)' is not JSON; an endpoint target reads JSON responses"
            )
        }
    }

    private func checkLoop(_ call: EndpointCall, seen: inout Set<String>) throws {
        guard seen.insert(call.target).inserted, seen.count <= Self.maximumPages else {
            throw SyncEngineError.invalidTarget(
                syncName,
                "the endpoint sent the same next page twice (or more than \(Self.maximumPages) pages); "
                    + "check 'nextPage': the last page must have no next URL or cursor"
            )
        }
    }

    private func build(_ make: () throws(EndpointSubstitutionError) -> EndpointCall) throws -> EndpointCall {
        do {
            return try make()
        } catch {
            throw SyncEngineError.invalidTarget(syncName, error.message)
        }
    }

    static func endpointClient(_ org: any OrgClient, syncName: String) throws -> any OrgEndpointClient {
        guard let client = org as? any OrgEndpointClient else {
            throw SyncEngineError.invalidTarget(
                syncName,
                "this org connection cannot call endpoints; endpoint targets run against an org reached over REST"
            )
        }
        return client
    }

    static func noIDsRequest(_ syncName: String) -> SyncEngineError {
        SyncEngineError(
            code: .ghostCleaningRefused,
            message:
                "sync '\(syncName)': ghost cleaning needs the ids of every record on the server, and this endpoint "
                + "target declares no 'idsRequest'; add 'idsRequest' (a request and the 'recordsPath' of its list "
                + "of ids) or turn 'cleanGhosts' off",
            syncName: syncName
        )
    }
}
