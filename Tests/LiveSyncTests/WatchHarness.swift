import Foundation
import LiveSync
import LocalOrg
import Logging
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import SyncrunTestSupport

/// One test's world: a local org on 127.0.0.1 (REST and Pub/Sub on free ports), a REST client to
/// it, and a fresh store with an `accounts` soup.
struct WatchHarness: Sendable {
    let database: OrgDatabase
    let endpoint: LocalOrgEndpoint
    let org: RESTOrgClient
    let store: SoupStore

    static let accountsSoup = SoupSpec(
        name: "accounts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
            IndexSpec(path: "__sync_id__", type: .integer),
        ]
    )

    static let logger = Logger(label: "livesync.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    static func with<T: Sendable>(
        retention: TimeInterval = 72 * 3600,
        _ body: (WatchHarness) async throws -> T
    ) async throws -> T {
        try await TemporaryDirectory.with(prefix: "livesync") { directory in
            let database = try OrgDatabase(
                directory: directory.appendingPathComponent("org"),
                configuration: OrgDatabase.Configuration(changeEventRetention: retention)
            )
            let server = try LocalOrgServer(configuration: LocalOrgConfiguration(), database: database)
            let store = try SoupStore.ledger(path: directory.appendingPathComponent("store.db").path)
            try await store.write { writer in _ = try writer.registerSoup(accountsSoup) }
            return try await server.withRunningServer { endpoint in
                let orgEndpoint = try OrgEndpoint(
                    baseURL: endpoint.baseURL.absoluteString,
                    accessToken: endpoint.accessToken
                )
                return try await withRESTOrgClient(
                    configuration: RESTOrgClient.Configuration(endpoint: orgEndpoint),
                    logger: logger
                ) { client in
                    try await body(WatchHarness(database: database, endpoint: endpoint, org: client, store: store))
                }
            }
        }
    }

    var engine: SyncEngine { SyncEngine(store: store, org: org, logger: Self.logger) }

    var credentials: RESTOrgCredentials { RESTOrgCredentials(client: org, organizationID: database.organizationID) }

    var pubsubEndpoint: PubSubEndpoint {
        get throws {
            guard let port = endpoint.pubsubPort else { throw LiveSyncError(.unavailable, "no pubsub port") }
            return PubSubEndpoint(host: "127.0.0.1", port: port, usesTLS: false)
        }
    }

    static func soql(_ name: String, query: String, mergeMode: SyncConfig.MergeMode = .overwrite) -> SyncDefinition {
        SyncDefinition(
            name: name,
            type: .syncDown,
            soupName: "accounts",
            target: .down(.soql(SOQLSyncDownTarget(query: query))),
            options: SyncOptions(mergeMode: mergeMode)
        )
    }

    @discardableResult
    func create(_ name: String, industry: String = "Energy") throws -> String {
        try database.write { try $0.create("Account", fields: ["Name": .string(name), "Industry": .string(industry)]) }
    }

    func update(_ id: String, _ fields: OrgJSONObject) throws {
        try database.write { try $0.update("Account", id: id, fields: fields) }
    }

    func delete(_ id: String) throws {
        try database.write { try $0.delete("Account", id: id) }
    }

    func storedNames() throws -> [String] {
        var names: [String] = []
        try store.read { reader in
            try reader.query("SELECT {accounts:Name} FROM {accounts} ORDER BY {accounts:Name}") { row in
                if case .text(let name) = row.values[0] { names.append(name) }
            }
        }
        return names
    }

    func positions() throws -> [WatchPosition] {
        try store.read { try $0.watchPositions() }
    }

    /// Marks the stored record `id` as locally updated with `name`.
    func editLocally(_ id: String, name: String) throws {
        try store.write { writer in
            guard let entry = try writer.reader.entries(in: "accounts", wherePath: "Id", isIn: [id]).first else {
                return
            }
            var fields = try OrgValue(parsing: entry.json).objectValue ?? [:]
            fields["Name"] = .string(name)
            fields["__local__"] = .bool(true)
            fields["__locally_updated__"] = .bool(true)
            try writer.upsert(OrgValue.object(fields).jsonText, into: "accounts")
        }
    }
}

/// Collects a watcher's reports.
final class Reports: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var events: [WatchEvent] = []

    func add(_ event: WatchEvent) { lock.withLock { events.append(event) } }

    var all: [WatchEvent] { lock.withLock { events } }

    var batches: [WatchBatchReport] {
        all.compactMap { if case .batch(let batch) = $0 { batch } else { nil } }
    }

    var resyncReasons: [String] {
        all.compactMap { if case .resynced(_, let reason, _, _, _, _) = $0 { reason } else { nil } }
    }

    var starts: [WatchStart] {
        all.flatMap { event -> [WatchStart] in
            if case .started(let starts) = event { return starts }
            return []
        }
    }
}

/// A change event source played from a script: each subscription delivers the next script's
/// deliveries (then waits until cancelled), or fails with its error. Records what it was asked.
final class ScriptedSource: ChangeEventSource {
    enum Step: Sendable {
        case deliver([SubscriptionDelivery])
        case fail(LiveSyncError)
    }

    private let lock = NSLock()
    private nonisolated(unsafe) var steps: [Step]
    private nonisolated(unsafe) var starts: [ReplayStart] = []
    let topics: Set<String>

    init(topics: Set<String> = ["/data/AccountChangeEvent"], _ steps: [Step]) {
        self.topics = topics
        self.steps = steps
    }

    /// The start of every subscription, in order.
    var subscriptionStarts: [ReplayStart] { lock.withLock { starts } }

    func topicExists(_ topic: String) async throws -> Bool { topics.contains(topic) }

    func subscribe(
        topic: String,
        start: ReplayStart,
        flow: SubscriptionFlow,
        deliver: @escaping @Sendable (SubscriptionDelivery) async -> Void
    ) async throws {
        let step: Step? = lock.withLock {
            starts.append(start)
            return steps.isEmpty ? nil : steps.removeFirst()
        }
        switch step {
        case .fail(let error)?:
            throw error
        case .deliver(let deliveries)?:
            for delivery in deliveries { await deliver(delivery) }
        case nil:
            break
        }
        // Then idle, as a quiet topic, until the watcher ends the subscription.
        for await _ in flow.credits {}
    }
}

/// Waits (up to 20 s, polling every 20 ms on the continuous clock) until `condition` holds.
func eventually(_ condition: () throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(20)
    while clock.now < deadline {
        if try condition() { return true }
        try await clock.sleep(for: .milliseconds(20))
    }
    return try condition()
}

/// An event as the local org would send it, for scripted sources.
func event(_ type: ChangeEvent.ChangeType, _ ids: [String], replay: UInt8) -> ChangeEvent {
    ChangeEvent(
        entity: "Account",
        changeType: type,
        recordIDs: ids,
        commitTimestamp: Int64(Date().timeIntervalSince1970 * 1000),
        replayID: [0, 0, 0, replay]
    )
}
