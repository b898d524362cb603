import JSONCore
import OrgClient
import SoupStore
import SyncConfig

/// The `layout` target (sync-semantics §9.6): `GET /ui-api/layout/<sobjectType>` with the
/// target's `formFactor`, `layoutType`, `mode` and `recordTypeId` (empty ones left out), stored as
/// the SDK stores it: the response object, its id field set to
/// `<sobjectType>-<formFactor>-<layoutType>-<mode>-<recordTypeId>` (a missing value written
/// `null`, as on Android). No incremental mode; `totalSize` is 1.
///
/// Ghost cleaning: the one record is the layout itself, which the org still returns while the
/// request succeeds (the SDK's cleaning is a no-op for this target).
struct LayoutDownFetcher: DownTargetFetcher {
    let syncName: String
    let soupName: String
    let target: LayoutSyncDownTarget

    var idFieldName: String { target.idFieldName }
    var modificationDateFieldName: String { target.modificationDateFieldName }
    var isSortedByModification: Bool { false }
    var isIncremental: Bool { false }

    /// The id the SDK gives the stored layout.
    var layoutID: String {
        [target.sobjectType, target.formFactor, target.layoutType, target.mode, target.recordTypeId]
            .map { value in value.flatMap { $0.isEmpty ? nil : $0 } ?? "null" }
            .joined(separator: "-")
    }

    /// The request (decide): path below the org's data path, the non-empty parameters in the SDK's order.
    func call(dataPath: String) -> EndpointCall {
        let parameters = [
            ("formFactor", target.formFactor), ("layoutType", target.layoutType), ("mode", target.mode),
            ("recordTypeId", target.recordTypeId),
        ]
        let query = parameters.compactMap { name, value -> String? in
            guard let value, !value.isEmpty else { return nil }
            return name + "=" + EndpointRequests.percentEncoded(value)
        }
        .joined(separator: "&")
        return EndpointCall(
            method: "GET",
            path: dataPath + "/ui-api/layout/" + EndpointRequests.pathSegmentEncoded(target.sobjectType),
            query: query.isEmpty ? nil : query
        )
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let client = try EndpointDownFetcher.endpointClient(org, syncName: syncName)
        let reply = try await client.send(call(dataPath: client.dataPath))
        guard case .object(var layout) = try JSONValue(parsing: reply.body) else {
            throw SyncEngineError.invalidTarget(
                syncName,
                "the org's layout of '\(target.sobjectType)' is not a JSON object; check the sObject type"
            )
        }
        layout[target.idFieldName] = .string(layoutID)
        _ = try await body(DownPage(json: "[" + JSONValue.object(layout).jsonText + "]", totalSize: 1))
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        // Fails (and so keeps everything) when the layout can no longer be read.
        let client = try EndpointDownFetcher.endpointClient(org, syncName: syncName)
        _ = try await client.send(call(dataPath: client.dataPath))
        _ = try await body(.ids([layoutID]))
    }
}
