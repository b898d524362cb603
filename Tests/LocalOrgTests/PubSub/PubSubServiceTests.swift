import Avro
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import LocalOrg
import PubSubAPI
import SyncrunTestSupport
import Testing

/// The local org's Pub/Sub API over gRPC, as a client sees it: subscribe, write through REST,
/// receive the change event and decode it with the schema `GetSchema` returns.
@Suite struct PubSubServiceTests {
    private func withPubSub<Result: Sendable>(
        _ org: LocalOrgFixture,
        _ body: (Eventbus_V1_PubSub.Client<HTTP2ClientTransport.Posix>, Metadata) async throws -> Result
    ) async throws -> Result {
        let port = try #require(org.endpoint.pubsubPort)
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: "127.0.0.1", port: port),
            transportSecurity: .plaintext
        )
        let metadata: Metadata = [
            "accesstoken": "\(org.accessToken)", "instanceurl": "\(org.baseURL.absoluteString)",
            "tenantid": "\(org.database.organizationID)",
        ]
        return try await withGRPCClient(transport: transport) { client in
            try await body(Eventbus_V1_PubSub.Client(wrapping: client), metadata)
        }
    }

    private func fetch(
        _ topic: String,
        _ count: Int32,
        preset: Eventbus_V1_ReplayPreset = .earliest,
        replayID: Data = Data()
    )
        -> Eventbus_V1_FetchRequest
    {
        var request = Eventbus_V1_FetchRequest()
        request.topicName = topic
        request.replayPreset = preset
        request.replayID = replayID
        request.numRequested = count
        return request
    }

    @Test func subscribeThenWriteThroughRESTAndDecodeTheEvent() async throws {
        try await LocalOrgFixture.with { org in
            try await withPubSub(org) { pubsub, metadata in
                var topicRequest = Eventbus_V1_TopicRequest()
                topicRequest.topicName = "/data/AccountChangeEvent"
                let topic = try await pubsub.getTopic(topicRequest, metadata: metadata)
                #expect(topic.canSubscribe && !topic.canPublish)
                #expect(topic.tenantGuid == org.database.organizationID)
                var schemaRequest = Eventbus_V1_SchemaRequest()
                schemaRequest.schemaID = topic.schemaID
                let schema = try AvroSchema(
                    jsonText: try await pubsub.getSchema(schemaRequest, metadata: metadata).schemaJson
                )
                #expect(schema.record()?.fullName == "com.sforce.eventbus.AccountChangeEvent")

                let client = LocalOrgTestClient(org: org)
                let received = try await pubsub.subscribe(
                    metadata: metadata,
                    requestProducer: { writer in
                        try await writer.write(fetch("/data/AccountChangeEvent", 1))
                        // Written after the subscription asked for events; EARLIEST also holds it
                        // should the write win the race.
                        _ = try await client.create("Account", ["Name": "Streamed"])
                        try await Task.sleep(for: .seconds(30))
                    },
                    onResponse: { response in
                        for try await message in response.messages where !message.events.isEmpty {
                            return message
                        }
                        return Eventbus_V1_FetchResponse()
                    }
                )
                let event = try #require(received.events.first)
                #expect(received.pendingNumRequested == 0)
                #expect(received.latestReplayID == event.replayID)
                #expect(event.event.schemaID == topic.schemaID)
                let value = try AvroDecoder.decode([UInt8](event.event.payload), as: schema)
                #expect(value[field: "ChangeEventHeader"]?[field: "changeType"] == .enumeration("CREATE"))
                #expect(value[field: "ChangeEventHeader"]?[field: "entityName"]?.stringValue == "Account")
                #expect(value[field: "Name"]?.stringValue == "Streamed")
            }
        }
    }

    @Test func flowControlDeliversNoMoreThanRequested() async throws {
        try await LocalOrgFixture.with { org in
            for index in 1...3 {
                try org.database.write { _ = try $0.create("Account", fields: ["Name": .string("A\(index)")]) }
            }
            try await withPubSub(org) { pubsub, metadata in
                // More is asked for only once the first delivery came, and after a pause in which
                // nothing unrequested may come: the order is the server's, not the machine's speed.
                let (firstDelivery, delivered) = AsyncStream<Void>.makeStream()
                let askedForMore = Flag()
                let counts = try await pubsub.subscribe(
                    metadata: metadata,
                    requestProducer: { writer in
                        try await writer.write(fetch("/data/ChangeEvents", 2))
                        for await _ in firstDelivery { break }
                        try await Task.sleep(for: .milliseconds(300))
                        askedForMore.set()
                        var more = Eventbus_V1_FetchRequest()
                        more.numRequested = 5
                        try await writer.write(more)
                        try await Task.sleep(for: .seconds(30))
                    },
                    onResponse: { response in
                        var counts: [Int] = []
                        for try await message in response.messages where !message.events.isEmpty {
                            // A second delivery before more was asked for is more than requested.
                            counts.append(counts.isEmpty || askedForMore.isSet ? message.events.count : -1)
                            if counts.count == 1 { delivered.yield() }
                            if counts.reduce(0, +) >= 3 || counts.contains(-1) { break }
                        }
                        return counts
                    }
                )
                #expect(counts == [2, 1])
            }
        }
    }

    private func rpcError(_ body: () async throws -> Void) async -> RPCError? {
        do {
            try await body()
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            return nil
        }
    }

    @Test func unknownTopicsBadTokensAndUnknownReplayIDsGetThePublishedErrors() async throws {
        try await LocalOrgFixture.with { org in
            try await withPubSub(org) { pubsub, metadata in
                var topicRequest = Eventbus_V1_TopicRequest()
                topicRequest.topicName = "/data/NoSuchChangeEvent"
                let unknown = await rpcError { _ = try await pubsub.getTopic(topicRequest, metadata: metadata) }
                #expect(unknown?.code == .notFound)
                #expect(unknown?.message.contains("/data/NoSuchChangeEvent") == true)

                var forged = metadata
                forged.removeAllValues(forKey: "accesstoken")
                forged.addString("not-a-token", forKey: "accesstoken")
                topicRequest.topicName = "/data/AccountChangeEvent"
                let unauthenticated = await rpcError { _ = try await pubsub.getTopic(topicRequest, metadata: forged) }
                #expect(unauthenticated?.code == .unauthenticated)
                #expect(
                    unauthenticated?.metadata[stringValues: "error-code"].first(where: { _ in true })
                        == "sfdc.platform.eventbus.grpc.service.auth.error"
                )
                #expect(unauthenticated?.message.contains("not-a-token") == false)

                let badReplay = await rpcError {
                    try await pubsub.subscribe(
                        metadata: metadata,
                        requestProducer: { writer in
                            try await writer.write(
                                fetch(
                                    "/data/AccountChangeEvent",
                                    1,
                                    preset: .custom,
                                    replayID: Data(repeating: 9, count: 16)
                                )
                            )
                        },
                        onResponse: { response in
                            for try await _ in response.messages {}
                        }
                    )
                }
                #expect(badReplay?.code == .invalidArgument)
                #expect(
                    badReplay?.metadata[stringValues: "error-code"].first(where: { _ in true })
                        == "sfdc.platform.eventbus.grpc.subscription.fetch.replayid.corrupted"
                )
            }
        }
    }
}

/// A flag one task sets and another reads.
private final class Flag: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
