import Hummingbird
import NIOCore

/// The per-request context of the local org's HTTP server: Hummingbird's core storage plus the
/// connection's channel, which `--fail-after` closes to drop a connection without a response.
struct OrgRequestContext: RequestContext {
    /// Hummingbird's core context storage.
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
