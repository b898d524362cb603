import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import PubSubAPI

/// Runs the Pub/Sub API (gRPC over HTTP/2) of a local org on its own port beside the REST server:
/// plaintext, or TLS with the REST server's certificate (`--tls-cert`).
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
enum PubSubServer {
    /// Binds `host:port` (`0`: a free port), serves while `body` runs with the bound port, then
    /// shuts down gracefully.
    static func withRunning<Result: Sendable>(
        host: String,
        port: Int,
        tls: TLSSettings?,
        service: PubSubService,
        authenticator: PubSubAuthenticator,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let security: HTTP2ServerTransport.Posix.TransportSecurity =
            tls.map { settings in
                .tls(
                    certificateChain: [.bytes(Array(settings.certificateChainPEM.utf8), format: .pem)],
                    privateKey: .bytes(Array(settings.privateKeyPEM.utf8), format: .pem)
                )
            } ?? .plaintext
        let transport = HTTP2ServerTransport.Posix(
            address: host.contains(":") ? .ipv6(host: host, port: port) : .ipv4(host: host, port: port),
            transportSecurity: security
        )
        return try await withGRPCServer(
            transport: transport,
            services: [service],
            interceptors: [authenticator]
        ) { server in
            let address = try await transport.listeningAddress
            let bound = address.ipv4?.port ?? address.ipv6?.port ?? port
            return try await body(bound)
        }
    }
}

/// Checks every call's authentication metadata as the REST API checks its bearer token:
/// `accesstoken` must be a token this org issued and still honours, `tenantid` the org's id (15 or
/// 18 characters), and `instanceurl` present. Anything else is `UNAUTHENTICATED` with the published
/// `sfdc.platform.eventbus.grpc.service.auth.error` code; tokens are never echoed or logged.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
struct PubSubAuthenticator: ServerInterceptor {
    let sessions: SessionStore
    let organizationID: String

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>,
        context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        func first(_ key: String) -> String? { request.metadata[stringValues: key].first(where: { _ in true }) }
        guard let token = first("accesstoken"), sessions.isAuthorized("Bearer " + token),
            let tenant = first("tenantid"), tenant == organizationID || tenant == String(organizationID.prefix(15)),
            let instance = first("instanceurl"), !instance.isEmpty
        else {
            throw PubSubErrors.authError
        }
        return try await next(request, context)
    }
}
