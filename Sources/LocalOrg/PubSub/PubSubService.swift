import Foundation
import GRPCCore
import NIOConcurrencyHelpers
import PubSubAPI
import SwiftProtobuf

/// The Pub/Sub API's `eventbus.v1.PubSub` service over the local org's change events: `GetTopic`,
/// `GetSchema` and `Subscribe` (pull-based: events flow only as `num_requested` allows; replay
/// presets LATEST, EARLIEST and CUSTOM). Publishing is refused: a local org's topics are its change
/// events, which only its writes publish. Errors carry the published `error-code` trailer.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
struct PubSubService: Eventbus_V1_PubSub.SimpleServiceProtocol {
    let feed: ChangeEventFeed
    let organizationID: String
    /// How long a subscription with nothing to send waits before an empty keepalive response
    /// (a real org sends one within 270 s).
    let keepaliveInterval: Duration
    /// The clock keepalives wait on.
    let clock: any Clock<Duration>
    /// The most events one `FetchResponse` carries (the published per-request cap is 100).
    static let batchLimit = 100

    func getTopic(request: Eventbus_V1_TopicRequest, context: ServerContext) async throws -> Eventbus_V1_TopicInfo {
        let topic = try topic(named: request.topicName)
        var info = Eventbus_V1_TopicInfo()
        info.topicName = topic.name
        info.tenantGuid = organizationID
        info.canPublish = false
        info.canSubscribe = true
        info.schemaID = topic.schemaID
        info.rpcID = UUID().uuidString.lowercased()
        return info
    }

    func getSchema(request: Eventbus_V1_SchemaRequest, context: ServerContext) async throws -> Eventbus_V1_SchemaInfo {
        guard let json = try feed.schemaJSON(id: request.schemaID) else {
            throw PubSubErrors.schemaNotFound(request.schemaID)
        }
        var info = Eventbus_V1_SchemaInfo()
        info.schemaJson = json
        info.schemaID = request.schemaID
        info.rpcID = UUID().uuidString.lowercased()
        return info
    }

    func publish(request: Eventbus_V1_PublishRequest, context: ServerContext) async throws
        -> Eventbus_V1_PublishResponse
    {
        throw PubSubErrors.publishRefused(request.topicName)
    }

    func publishStream(
        request: RPCAsyncSequence<Eventbus_V1_PublishRequest, any Error>,
        response: RPCWriter<Eventbus_V1_PublishResponse>,
        context: ServerContext
    ) async throws {
        throw PubSubErrors.publishRefused("")
    }

    func managedSubscribe(
        request: RPCAsyncSequence<Eventbus_V1_ManagedFetchRequest, any Error>,
        response: RPCWriter<Eventbus_V1_ManagedFetchResponse>,
        context: ServerContext
    ) async throws {
        throw RPCError(
            code: .unimplemented,
            message: "managed subscriptions are not available on a local org; use Subscribe"
        )
    }

    private func topic(named name: String) throws -> ChangeEventFeed.Topic {
        guard let topic = feed.topic(named: name) else { throw PubSubErrors.topicNotFound(name) }
        return topic
    }

    func subscribe(
        request: RPCAsyncSequence<Eventbus_V1_FetchRequest, any Error>,
        response: RPCWriter<Eventbus_V1_FetchResponse>,
        context: ServerContext
    ) async throws {
        let state = SubscriptionState()
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let appends = feed.appends()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The client's requests: the first names the topic and where to start; each adds to
            // the events owed.
            group.addTask {
                defer { wake.finish() }
                for try await fetch in request {
                    try state.receive(fetch, feed: feed)
                    wake.yield()
                }
            }
            group.addTask {
                for await _ in appends { wake.yield() }
            }
            group.addTask {
                while !Task.isCancelled {
                    try await clock.sleep(for: keepaliveInterval)
                    state.keepaliveDue()
                    wake.yield()
                }
            }
            for await _ in wakes {
                try await deliver(state, to: response)
            }
            // The wakes end when the client's requests do, normally or with an error (a corrupted
            // replay id, an unknown topic). That error is the call's answer: wait for every task
            // and throw it, rather than whichever task happened to end first (the cancelled
            // keepalive's CancellationError, or nothing, which would drop it).
            group.cancelAll()
            while let result = await group.nextResult() {
                if case .failure(let error) = result, !(error is CancellationError) { throw error }
            }
        }
    }

    /// Sends what is owed and available, or a keepalive when one is due.
    private func deliver(_ state: SubscriptionState, to response: RPCWriter<Eventbus_V1_FetchResponse>) async throws {
        while case (let topic, let position, let owed)? = state.pending(), owed > 0 {
            let events = try feed.events(of: topic, after: position, limit: min(owed, Self.batchLimit))
            guard let last = events.last else { break }
            let remaining = state.delivered(events.count, through: last.sequence)
            var message = Eventbus_V1_FetchResponse()
            message.events = events.map { event in
                var consumer = Eventbus_V1_ConsumerEvent()
                consumer.replayID = Data(event.replayID)
                consumer.event.id = UUID().uuidString.lowercased()
                consumer.event.schemaID = event.schemaID
                consumer.event.payload = Data(event.payload)
                return consumer
            }
            message.latestReplayID = Data(last.replayID)
            message.rpcID = UUID().uuidString.lowercased()
            message.pendingNumRequested = Int32(clamping: remaining)
            try await response.write(message)
        }
        if state.takeKeepalive(), case (_, _, let owed)? = state.pending() {
            var message = Eventbus_V1_FetchResponse()
            message.latestReplayID = Data(try feed.latestReplayID())
            message.rpcID = UUID().uuidString.lowercased()
            message.pendingNumRequested = Int32(clamping: owed)
            try await response.write(message)
        }
    }
}

/// One subscription's topic, position and the number of events still owed, shared by the tasks of
/// ``PubSubService/subscribe(request:response:context:)``.
final class SubscriptionState: Sendable {
    private struct Values {
        var topic: ChangeEventFeed.Topic?
        var position: Int64 = 0
        var owed = 0
        var isKeepaliveDue = false
    }
    private let values = NIOLockedValueBox(Values())

    /// Takes one `FetchRequest`.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func receive(_ fetch: Eventbus_V1_FetchRequest, feed: ChangeEventFeed) throws {
        let current = values.withLockedValue { $0.topic }
        if let current {
            if !fetch.topicName.isEmpty, fetch.topicName != current.name {
                throw PubSubErrors.topicChanged(from: current.name, to: fetch.topicName)
            }
        } else {
            guard let topic = feed.topic(named: fetch.topicName) else {
                throw PubSubErrors.topicNotFound(fetch.topicName)
            }
            let start: ChangeEventFeed.Start
            switch fetch.replayPreset {
            case .earliest: start = .earliest
            case .custom: start = .after([UInt8](fetch.replayID))
            default: start = .latest
            }
            let position: Int64
            do {
                position = try feed.position(start)
            } catch is ChangeEventFeed.StartError {
                throw PubSubErrors.replayIDInvalid
            }
            values.withLockedValue {
                $0.topic = topic
                $0.position = position
            }
        }
        guard fetch.numRequested > 0 else { throw PubSubErrors.numRequestedInvalid(fetch.numRequested) }
        values.withLockedValue { $0.owed += Int(fetch.numRequested) }
    }

    func pending() -> (ChangeEventFeed.Topic, Int64, Int)? {
        values.withLockedValue { values in values.topic.map { ($0, values.position, values.owed) } }
    }

    func delivered(_ count: Int, through sequence: Int64) -> Int {
        values.withLockedValue {
            $0.owed -= count
            $0.position = sequence
            return $0.owed
        }
    }

    func keepaliveDue() { values.withLockedValue { $0.isKeepaliveDue = true } }

    func takeKeepalive() -> Bool {
        values.withLockedValue { values in
            let isDue = values.isKeepaliveDue
            values.isKeepaliveDue = false
            return isDue
        }
    }
}
