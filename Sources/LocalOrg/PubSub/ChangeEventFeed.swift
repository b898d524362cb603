import Foundation
import GRDB
import NIOConcurrencyHelpers

/// The local org's change events as the Pub/Sub API serves them: topics, schemas, the stored events
/// by replay position, and a wake-up for subscribers when new events are stored.
///
/// Topics are `/data/{Object}ChangeEvent` (`/data/{Name}__ChangeEvent` for a custom object) for
/// each object enabled for Change Data Capture, and `/data/ChangeEvents` for all of them.
public final class ChangeEventFeed: Sendable {
    /// The topic of every object's events.
    public static let allChangesTopic = "/data/ChangeEvents"

    let schemas: [String: ChangeEventSchema]
    private let pool: DatabasePool
    /// Wakes subscribers; what the change capture, which the pool keeps for its lifetime, holds
    /// instead of the feed (holding the feed, and through it the pool, it would keep the pool
    /// and its files open after the org is released).
    let signal = AppendSignal()

    init(pool: DatabasePool, schema: OrgSchema) {
        self.pool = pool
        var schemas: [String: ChangeEventSchema] = [:]
        for object in schema.objects where object.isChangeDataCaptureEnabled {
            schemas[object.name] = ChangeEventSchema(object: object)
        }
        self.schemas = schemas
    }

    /// A topic: the object whose events it carries (`nil` for ``allChangesTopic``) and the id of the
    /// schema its events are written in (the first object's for ``allChangesTopic``: each event
    /// names its own).
    public struct Topic: Sendable, Hashable {
        public var name: String
        public var entity: String?
        public var schemaID: String
    }

    /// The topic called `name`, or `nil` when the org has no such topic (an unknown object, or one
    /// not enabled for Change Data Capture).
    public func topic(named name: String) -> Topic? {
        if name == Self.allChangesTopic {
            let first = schemas.keys.sorted().first.flatMap { schemas[$0] }
            return Topic(name: name, entity: nil, schemaID: first?.id ?? "")
        }
        guard name.hasPrefix("/data/"), name.hasSuffix("ChangeEvent") else { return nil }
        let eventName = String(name.dropFirst("/data/".count))
        guard let schema = schemas.values.first(where: { ChangeEventSchema.eventName(of: $0.entityName) == eventName })
        else { return nil }
        return Topic(name: name, entity: schema.entityName, schemaID: schema.id)
    }

    /// The JSON text of the schema with this id, current or one past events were written in.
    public func schemaJSON(id: String) throws -> String? {
        if let schema = schemas.values.first(where: { $0.id == id }) { return schema.jsonText }
        return try pool.read { try ChangeEventLog.schemaJSON(id: id, $0) }
    }

    /// A stored event.
    public struct Event: Sendable, Hashable {
        public var replayID: [UInt8]
        public var schemaID: String
        public var payload: [UInt8]
        public var sequence: Int64
    }

    /// Where a subscription starts.
    public enum Start: Sendable, Hashable {
        case latest
        case earliest
        case after([UInt8])
    }

    /// Why a start position cannot be served.
    public enum StartError: Error, Sendable, Hashable {
        /// The replay id is not one of this org's.
        case unknownReplayID
        /// The replay id's event is older than the retention window.
        case expiredReplayID
    }

    /// The sequence number a subscription resumes after.
    public func position(_ start: Start) throws -> Int64 {
        try pool.read { db in
            let bounds = try ChangeEventLog.bounds(db)
            switch start {
            case .latest: return bounds.newest ?? 0
            case .earliest: return (bounds.oldest ?? ((bounds.newest ?? 0) + 1)) - 1
            case .after(let replayID):
                let epoch = try ChangeEventLog.epoch(db)
                guard let sequence = ChangeEventLog.sequence(ofReplayID: replayID, epoch: epoch),
                    sequence <= (bounds.newest ?? 0)
                else { throw StartError.unknownReplayID }
                // The event itself may be gone; what follows it must still be held.
                if let oldest = bounds.oldest, sequence < oldest - 1 { throw StartError.expiredReplayID }
                if bounds.oldest == nil, sequence < (bounds.newest ?? 0) { throw StartError.expiredReplayID }
                return sequence
            }
        }
    }

    /// Up to `limit` events after `sequence`, of the topic's object (all for ``allChangesTopic``).
    public func events(of topic: Topic, after sequence: Int64, limit: Int) throws -> [Event] {
        try pool.read { db in
            let epoch = try ChangeEventLog.epoch(db)
            return try ChangeEventLog.events(after: sequence, entity: topic.entity, limit: limit, db).map {
                Event(
                    replayID: ChangeEventLog.replayID(epoch: epoch, sequence: $0.sequence),
                    schemaID: $0.schemaID,
                    payload: $0.payload,
                    sequence: $0.sequence
                )
            }
        }
    }

    /// The replay id of the newest stored event (of any topic), for keepalives.
    public func latestReplayID() throws -> [UInt8] {
        try pool.read { db in
            ChangeEventLog.replayID(
                epoch: try ChangeEventLog.epoch(db),
                sequence: try ChangeEventLog.bounds(db).newest ?? 0
            )
        }
    }

    /// A stream of the newest sequence number, yielded each time events are stored; ends when the
    /// task iterating it is cancelled.
    public func appends() -> AsyncStream<Int64> { signal.appends() }
}

extension ChangeEventFeed {
    /// The subscribers waiting for new events.
    final class AppendSignal: Sendable {
        private let waiters = NIOLockedValueBox<[UUID: AsyncStream<Int64>.Continuation]>([:])

        /// A stream of the newest sequence number, yielded each time events are stored.
        func appends() -> AsyncStream<Int64> {
            let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
            let key = UUID()
            waiters.withLockedValue { $0[key] = continuation }
            continuation.onTermination = { [weak self] _ in
                _ = self?.waiters.withLockedValue { $0.removeValue(forKey: key) }
            }
            return stream
        }

        /// Wakes every subscriber with the newest sequence number.
        func didAppend(_ newest: Int64) {
            for continuation in waiters.withLockedValue({ Array($0.values) }) { continuation.yield(newest) }
        }
    }
}
