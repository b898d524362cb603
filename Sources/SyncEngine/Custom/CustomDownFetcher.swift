import JSONCore
import Logging
import OrgClient
import SoupStore
import SyncConfig

/// A sync down target written in Swift (``SyncDownTargetPlugin``), run as any other target:
/// each page the plug-in returns is written before the next is asked for.
struct CustomDownFetcher: DownTargetFetcher {
    let syncName: String
    let soupName: String
    let plugin: any SyncDownTargetPlugin
    let definition: CustomTargetDefinition
    /// The engine's logger (``CustomTargets/pluginLogger(implName:)``), handed to the plug-in.
    let logger: Logger

    /// The most pages one fetch follows, a guard against a plug-in whose cursor never ends.
    static let maximumPages = 1_000_000

    var idFieldName: String { definition.idFieldName }
    var modificationDateFieldName: String { definition.modificationDateFieldName }
    var isSortedByModification: Bool { plugin.isSortedByModification }
    var isIncremental: Bool { plugin.isIncremental }

    func context(_ org: any OrgClient) -> CustomTargetContext {
        CustomTargetContext(
            syncName: syncName,
            soupName: soupName,
            org: org,
            logger: logger
        )
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let context = context(org)
        var page = try await call("startFetch") {
            try await plugin.startFetch(maxTimeStamp: maxTimeStamp, context: context)
        }
        var pages = 1
        while true {
            let downPage = DownPage(
                json: JSONValue.array(page.records).jsonText,
                totalSize: page.totalSize,
                latestModification: plugin.latestModification(in: page.records)
            )
            guard try await body(downPage), let cursor = page.cursor else { return }
            try checkPages(&pages)
            page = try await call("continueFetch") { try await plugin.continueFetch(cursor: cursor, context: context) }
        }
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        let context = context(org)
        guard var page = try await call("startRemoteIDs", { try await plugin.startRemoteIDs(context: context) }) else {
            throw SyncEngineError(
                code: .ghostCleaningRefused,
                message: "sync '\(syncName)': ghost cleaning needs the ids of every record on the server, and the "
                    + "plug-in '\(definition.implName)' does not list them (its startRemoteIDs returns nil); "
                    + "implement startRemoteIDs / continueRemoteIDs or turn ghost cleaning off for this sync",
                syncName: syncName
            )
        }
        var pages = 1
        while true {
            guard try await body(.ids(page.ids)), let cursor = page.cursor else { return }
            try checkPages(&pages)
            page = try await call("continueRemoteIDs") {
                try await plugin.continueRemoteIDs(cursor: cursor, context: context)
            }
        }
    }

    private func checkPages(_ pages: inout Int) throws {
        pages += 1
        guard pages <= Self.maximumPages else {
            throw SyncEngineError.invalidTarget(
                syncName,
                "the plug-in '\(definition.implName)' returned more than \(Self.maximumPages) pages; the last page "
                    + "must have no cursor"
            )
        }
    }

    /// Runs one call of the plug-in; errors other than the org client's, the engine's and
    /// cancellation are reported as the plug-in's, with the call named.
    private func call<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as OrgClientError {
            throw error
        } catch let error as SyncEngineError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SyncEngineError.invalidTarget(
                syncName,
                "the plug-in '\(definition.implName)' failed in \(name): \(error)"
            )
        }
    }
}
