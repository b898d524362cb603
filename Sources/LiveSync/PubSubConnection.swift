import Avro
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import PubSubAPI

/// The authentication a Pub/Sub API call carries (Pub/Sub API Developer Guide, "Supported
/// Authentication"): the org's access token, its instance URL and its id. The token is never
/// printed or logged.
public struct PubSubAuthentication: Sendable, Hashable {
    public var accessToken: String
    public var instanceURL: String
    /// The org's id (`tenantid`).
    public var tenantID: String

    /// Creates the values.
    public init(accessToken: String, instanceURL: String, tenantID: String) {
        self.accessToken = accessToken
        self.instanceURL = instanceURL
        self.tenantID = tenantID
    }
}

/// Gives the Pub/Sub API calls their authentication and renews it after the org refused it: the
/// same token source and renewal as the org's REST client (``RESTOrgCredentials``).
public protocol PubSubCredentials: Sendable {
    /// The authentication to send now.
    func current() async throws -> PubSubAuthentication
    /// Renews after `refused` was refused; throws when it cannot be renewed.
    func renew(after refused: PubSubAuthentication) async throws
}

/// A connection to the Pub/Sub API (`eventbus.v1.PubSub`, gRPC over HTTP/2): `GetTopic`,
/// `GetSchema` (schemas cached by id) and `Subscribe` with flow control, each event decoded from
/// Avro with its schema (``ChangeEventDecoder``).
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct PubSubConnection: ChangeEventSource {
    let client: Eventbus_V1_PubSub.Client<HTTP2ClientTransport.Posix>
    let credentials: any PubSubCredentials
    let schemas = SchemaCache()

    /// Connects to `endpoint` for the duration of `body`.
    ///
    /// - Throws: ``LiveSyncError`` (``LiveSyncError/Code/invalidConfiguration``) when the transport
    ///   cannot be made; what `body` throws.
    public static func with<Result: Sendable>(
        endpoint: PubSubEndpoint,
        credentials: any PubSubCredentials,
        _ body: (PubSubConnection) async throws -> Result
    ) async throws -> Result {
        let security: HTTP2ClientTransport.Posix.TransportSecurity
        if endpoint.usesTLS {
            let file = endpoint.trustedCertificatesFile
            security = .tls { config in
                if let file { config.trustRoots = .certificates([.file(path: file, format: .pem)]) }
            }
        } else {
            security = .plaintext
        }
        let target: any ResolvableTarget
        if endpoint.host.hasPrefix("127.") {
            let address: ResolvableTargets.IPv4 = .ipv4(address: endpoint.host, port: endpoint.port)
            target = address
        } else {
            let name: ResolvableTargets.DNS = .dns(host: endpoint.host, port: endpoint.port)
            target = name
        }
        let transport: HTTP2ClientTransport.Posix
        do {
            transport = try HTTP2ClientTransport.Posix(target: target, transportSecurity: security)
        } catch {
            throw LiveSyncError(
                .invalidConfiguration,
                "cannot set up a connection to the Pub/Sub API at \(endpoint): \(error)"
            )
        }
        return try await withGRPCClient(transport: transport) { client in
            try await body(
                PubSubConnection(client: Eventbus_V1_PubSub.Client(wrapping: client), credentials: credentials)
            )
        }
    }

    private func metadata(_ authentication: PubSubAuthentication) -> Metadata {
        [
            "accesstoken": "\(authentication.accessToken)", "instanceurl": "\(authentication.instanceURL)",
            "tenantid": "\(authentication.tenantID)",
        ]
    }

    /// Runs a unary call, renewing the token once when the org refuses it.
    private func calling<Result: Sendable>(
        _ what: String,
        _ call: (Metadata) async throws -> Result
    ) async throws -> Result {
        var authentication = try await credentials.current()
        var renewed = false
        while true {
            do {
                return try await call(metadata(authentication))
            } catch let error as RPCError where error.code == .unauthenticated && !renewed {
                try await credentials.renew(after: authentication)
                authentication = try await credentials.current()
                renewed = true
            } catch let error as RPCError {
                throw Self.liveSyncError(error, what: what)
            }
        }
    }

    public func topicExists(_ topic: String) async throws -> Bool {
        var request = Eventbus_V1_TopicRequest()
        request.topicName = topic
        do {
            let info = try await calling("GetTopic \(topic)") { try await client.getTopic(request, metadata: $0) }
            return info.canSubscribe
        } catch let error as LiveSyncError where error.code == .topicNotFound {
            return false
        }
    }

    /// The schema with id `id`, from the cache or `GetSchema`.
    func schema(id: String) async throws -> AvroSchema {
        if let cached = schemas.schema(id: id) { return cached }
        var request = Eventbus_V1_SchemaRequest()
        request.schemaID = id
        let info = try await calling("GetSchema \(id)") { try await client.getSchema(request, metadata: $0) }
        let schema: AvroSchema
        do {
            schema = try AvroSchema(jsonText: info.schemaJson)
        } catch {
            throw LiveSyncError(.invalidEvent, "the org's schema '\(id)' is not a valid Avro schema: \(error)")
        }
        schemas.store(schema, id: id)
        return schema
    }

    public func subscribe(
        topic: String,
        start: ReplayStart,
        flow: SubscriptionFlow,
        deliver: @escaping @Sendable (SubscriptionDelivery) async -> Void
    ) async throws {
        let authentication = try await credentials.current()
        var first = Eventbus_V1_FetchRequest()
        first.topicName = topic
        first.numRequested = Int32(flow.window)
        switch start {
        case .latest: first.replayPreset = .latest
        case .earliest: first.replayPreset = .earliest
        case .after(let replayID):
            first.replayPreset = .custom
            first.replayID = Data(replayID)
        }
        do {
            try await client.subscribe(
                metadata: metadata(authentication),
                requestProducer: { [first] writer in
                    try await writer.write(first)
                    for await count in flow.credits {
                        var more = Eventbus_V1_FetchRequest()
                        more.numRequested = Int32(clamping: count)
                        try await writer.write(more)
                    }
                },
                onResponse: { response in
                    // The request writer ends with the responses (it waits on the flow's credits).
                    defer { flow.finish() }
                    for try await message in response.messages {
                        if message.events.isEmpty {
                            await deliver(.keepalive(latestReplayID: [UInt8](message.latestReplayID)))
                            continue
                        }
                        var events: [ChangeEvent] = []
                        for consumer in message.events {
                            let schema = try await schema(id: consumer.event.schemaID)
                            events.append(
                                try ChangeEventDecoder.decode(
                                    [UInt8](consumer.event.payload),
                                    schema: schema,
                                    replayID: [UInt8](consumer.replayID)
                                )
                            )
                        }
                        await deliver(.events(events))
                    }
                }
            )
        } catch let error as RPCError {
            if error.code == .unauthenticated {
                do {
                    try await credentials.renew(after: authentication)
                } catch {
                    throw LiveSyncError(
                        .authentication,
                        "the Pub/Sub API refused the org's access token and it could not be renewed: \(error)"
                    )
                }
                throw LiveSyncError(.reconnect, "the access token was renewed; subscribing to \(topic) again")
            }
            throw Self.liveSyncError(error, what: "Subscribe \(topic)")
        }
    }

    /// The ``LiveSyncError`` of a failed call: by the published `error-code` trailer where it says
    /// more than the status (Pub/Sub API Developer Guide, "Handle Errors").
    static func liveSyncError(_ error: RPCError, what: String) -> LiveSyncError {
        let errorCode = error.metadata[stringValues: "error-code"].first(where: { _ in true }) ?? ""
        if errorCode.hasSuffix("topic.not.found") || (error.code == .notFound && errorCode.isEmpty) {
            return LiveSyncError(.topicNotFound, "\(what): \(error.message)")
        }
        if errorCode.contains("replayid") {
            return LiveSyncError(.replayIDUnavailable, "\(what): \(error.message)")
        }
        switch error.code {
        case .unauthenticated, .permissionDenied:
            return LiveSyncError(
                .authentication,
                "\(what) was refused (\(error.code)): \(error.message); check that the org's user may subscribe "
                    + "to change events ('View All Data' or the object's read permission)"
            )
        default:
            return LiveSyncError(.unavailable, "\(what) failed (\(error.code)): \(error.message)")
        }
    }
}

/// The Avro schemas fetched so far, by id (a topic's events rarely change schema).
final class SchemaCache: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var schemas: [String: AvroSchema] = [:]

    func schema(id: String) -> AvroSchema? { lock.withLock { schemas[id] } }
    func store(_ schema: AvroSchema, id: String) { lock.withLock { schemas[id] = schema } }
}
