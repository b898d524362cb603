import OrgClient
import SoupStore

/// Previews one operation with reads only (``SyncEngine/preview(_:operation:full:replace:stop:)``):
/// sync down, ghost cleaning or sync up.
protocol SyncPreviewer: Sendable {
    /// The store, only read.
    var store: SoupStore { get }
    /// The org, sent only the requests the run would read with.
    var org: any OrgClient { get }

    init(store: SoupStore, org: any OrgClient, registry: SyncStateRegistry, plugins: CustomTargets)
}

extension SyncPreviewer {
    /// Runs a preview's `reads` of the org and the store: `reads` returns whether a stop was
    /// requested. A stop or a cancelled task throws `.stopped`, another error is wrapped with the
    /// sync's name; otherwise `preview.requests` is set to the requests `org` sent meanwhile.
    func read(
        syncName: String,
        into preview: inout SyncPreview,
        _ reads: (inout SyncPreview) async throws -> Bool
    ) async throws {
        let before = org.statistics()
        let stopped: Bool
        do {
            stopped = try await reads(&preview)
        } catch is CancellationError {
            stopped = true
        } catch {
            throw SyncEngineError.wrapping(error, syncName: syncName)
        }
        if stopped { throw SyncEngineError.stopped(syncName) }
        preview.requests = org.statistics().requests - before.requests
    }
}
