import OrgClient
import SoupStore
import SyncConfig

/// The `metadata` target (sync-semantics §9.7): the describe of one sObject
/// (`GET /sobjects/<sobjectType>/describe`), stored whole as one record whose id field holds the
/// sObject type. No incremental mode; `totalSize` is 1.
///
/// Ghost cleaning: the one record the target stores is the type itself, which the org still
/// returns while the describe succeeds, so a stored describe is never a ghost (the SDK's cleaning
/// is a no-op for this target; a pass that finds nothing to delete is the same).
struct MetadataDownFetcher: DownTargetFetcher {
    let syncName: String
    let soupName: String
    let target: MetadataSyncDownTarget

    var idFieldName: String { target.idFieldName }
    var modificationDateFieldName: String { target.modificationDateFieldName }
    var isSortedByModification: Bool { false }
    var isIncremental: Bool { false }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let describe = try await org.describeJSON(target.sobjectType)
        guard case .object(var fields) = try OrgValue(parsing: describe.text) else {
            throw SyncEngineError.invalidTarget(
                syncName,
                "the org's describe of '\(target.sobjectType)' is not a JSON object; check the sObject type"
            )
        }
        fields[target.idFieldName] = .string(target.sobjectType)
        _ = try await body(DownPage(json: "[" + OrgValue.object(fields).jsonText + "]", totalSize: 1))
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        // Fails (and so keeps everything) when the type no longer exists.
        _ = try await org.describeJSON(target.sobjectType)
        _ = try await body(.ids([target.sobjectType]))
    }
}
