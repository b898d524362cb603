import Foundation
import LocalOrg
import Logging
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import SyncrunTestSupport

/// A clock the local org stamps records with, moved by the test.
final class TestClock: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {  // 2026-01-01T00:00:00Z
        current = start
    }

    var now: Date { lock.withLock { current } }

    func advance(seconds: Double) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}

/// One test's world: a local org on 127.0.0.1 (port 0), the REST client talking to it over HTTP,
/// a fresh store with an `accounts` soup, and the org's request log.
struct EngineHarness: Sendable {
    let directory: URL
    let database: OrgDatabase
    let clock: TestClock
    let org: RESTOrgClient
    let store: SoupStore
    let requestLogURL: URL

    static let accountsSoup = SoupSpec(
        name: "accounts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
            IndexSpec(path: "__sync_id__", type: .integer),
        ]
    )

    /// Runs `body` with a fresh harness; everything is removed afterwards. `schema` replaces the
    /// local org's standard one (custom objects, briefcases).
    static func with<T: Sendable>(
        pageSize: Int? = nil,
        faults: FaultConfiguration = .none,
        schema: OrgSchema? = nil,
        _ body: (EngineHarness) async throws -> T
    ) async throws -> T {
        try await TemporaryDirectory.with(prefix: "syncengine") { directory in
            let clock = TestClock()
            let database = try OrgDatabase(
                directory: directory.appendingPathComponent("org"),
                schema: schema,
                configuration: OrgDatabase.Configuration(now: { clock.now })
            )
            let logURL = directory.appendingPathComponent("requests.jsonl")
            let server = try LocalOrgServer(
                configuration: LocalOrgConfiguration(pageSize: pageSize, faults: faults, requestLogURL: logURL),
                database: database
            )
            let store = try SoupStore.ledger(path: directory.appendingPathComponent("store.db").path)
            try await store.write { writer in _ = try writer.registerSoup(accountsSoup) }
            return try await server.withRunningServer { endpoint in
                let orgEndpoint = try OrgEndpoint(
                    baseURL: endpoint.baseURL.absoluteString,
                    accessToken: endpoint.accessToken
                )
                var configuration = RESTOrgClient.Configuration(endpoint: orgEndpoint)
                configuration.retryPolicy = .default
                return try await withRESTOrgClient(configuration: configuration, logger: Self.logger) { client in
                    let harness = EngineHarness(
                        directory: directory,
                        database: database,
                        clock: clock,
                        org: client,
                        store: store,
                        requestLogURL: logURL
                    )
                    return try await body(harness)
                }
            }
        }
    }

    static let logger = Logger(label: "syncengine.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    func engine(processID: Int32? = nil) -> SyncEngine {
        var configuration = SyncEngineConfiguration()
        if let processID { configuration.processID = processID }
        return SyncEngine(store: store, org: org, logger: Self.logger, configuration: configuration)
    }

    // MARK: Org data

    @discardableResult
    func createAccounts(_ names: [String], industry: String? = nil, secondsApart: Double = 0) throws -> [String] {
        try names.map { name in
            var fields: OrgJSONObject = ["Name": .string(name)]
            if let industry { fields = ["Name": .string(name), "Industry": .string(industry)] }
            let id = try database.write { try $0.create("Account", fields: fields) }
            clock.advance(seconds: secondsApart)
            return id
        }
    }

    /// Creates accounts stamped with exactly `lastModified` (a Salesforce date-time), through the
    /// local org's seeder, so several records share the watermark's instant.
    func seedAccounts(_ names: [String], lastModified: String) throws {
        let records = names.enumerated().map { index, name in
            """
            {"attributes": {"type": "Account", "referenceId": "Seed\(UUID().uuidString.prefix(8))\(index)"}, \
            "Name": "\(name)", "LastModifiedDate": "\(lastModified)", "SystemModstamp": "\(lastModified)"}
            """
        }
        let file = directory.appendingPathComponent("seed-\(UUID().uuidString).json")
        try Data("{\"records\": [\(records.joined(separator: ","))]}".utf8).write(to: file)
        _ = try OrgSeeder(database: database).seed(files: [file])
    }

    func updateAccount(_ id: String, fields: OrgJSONObject) throws {
        try database.write { try $0.update("Account", id: id, fields: fields) }
    }

    func deleteAccount(_ id: String) throws {
        try database.write { try $0.delete("Account", id: id) }
    }

    // MARK: Store data

    func storedNames(in soup: String = "accounts") throws -> [String] {
        var names: [String] = []
        try store.read { reader in
            try reader.query("SELECT {\(soup):Name} FROM {\(soup)} ORDER BY {\(soup):Name}") { row in
                if case .text(let name) = row.values[0] { names.append(name) }
            }
        }
        return names
    }

    func storedCount(in soup: String = "accounts") throws -> Int {
        try store.read { try $0.entryCount(in: soup) }
    }

    func storedValue(_ path: String, ofID id: String, in soup: String = "accounts") throws -> SoupValue {
        var value = SoupValue.null
        try store.read { reader in
            try reader.query(
                "SELECT {\(soup):\(path)} FROM {\(soup)} WHERE {\(soup):Id} = ?",
                arguments: [.text(id)]
            ) { row in value = row.values[0] }
        }
        return value
    }

    /// Marks the stored record `id` as locally updated with `name`.
    func editLocally(_ id: String, name: String, in soup: String = "accounts") throws {
        try store.write { writer in
            guard let entry = try writer.reader.entries(in: soup, wherePath: "Id", isIn: [id]).first else { return }
            let edited = try OrgValue(parsing: entry.json).objectValue ?? [:]
            var fields = edited
            fields["Name"] = .string(name)
            fields["__local__"] = .bool(true)
            fields["__locally_updated__"] = .bool(true)
            try writer.upsert(OrgValue.object(fields).jsonText, into: soup)
        }
    }

    // MARK: Request log

    func requestLog() throws -> [RequestLogEntry] {
        let text = (try? String(contentsOf: requestLogURL, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map {
            try JSONDecoder().decode(RequestLogEntry.self, from: Data($0.utf8))
        }
    }

    func queryRequestCount() throws -> Int {
        try requestLog().filter { $0.path.contains("/query") }.count
    }
}

/// Sync definitions for tests.
enum Definitions {
    static func soql(
        _ name: String,
        query: String,
        soup: String = "accounts",
        mergeMode: SyncConfig.MergeMode = .overwrite,
        maxBatchSize: Int = 2000
    ) -> SyncDefinition {
        SyncDefinition(
            name: name,
            type: .syncDown,
            soupName: soup,
            target: .down(.soql(SOQLSyncDownTarget(query: query, maxBatchSize: maxBatchSize))),
            options: SyncOptions(mergeMode: mergeMode)
        )
    }
}

/// Collects a run's events.
final class EventRecorder: Sendable {
    let stream: AsyncStream<SyncEvent>
    let continuation: AsyncStream<SyncEvent>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
    }

    func finish() async -> [SyncEvent] {
        continuation.finish()
        var events: [SyncEvent] = []
        for await event in stream { events.append(event) }
        return events
    }
}
