import Foundation
import LocalOrg
import Logging
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import SyncrunTestSupport

/// The world of a sync up test: ``EngineHarness`` (local org over HTTP, store, request log) whose
/// org schema adds an external id field `External_Id__c` to Account, plus helpers to make local
/// changes and read records on the server.
extension EngineHarness {
    static let externalIDField = "External_Id__c"

    /// Runs `body` with a fresh harness whose Account has `External_Id__c` (external id, unique).
    ///
    /// - Parameters:
    ///   - faults: Injected by the local org.
    ///   - hook: Called by the local org before it serves each request.
    ///   - clockStart: The org clock's start (2026-01-01 by default).
    ///   - apiRequestLimit: The daily API allocation the org reports (`Sforce-Limit-Info` MAX).
    static func withSyncUp<T: Sendable>(
        faults: FaultConfiguration = .none,
        hook: RequestHook? = nil,
        clockStart: Date? = nil,
        apiRequestLimit: Int = 100_000,
        _ body: (EngineHarness) async throws -> T
    ) async throws -> T {
        try await TemporaryDirectory.with(prefix: "syncup") { directory in
            var schema = OrgSchema.standard
            if var account = schema.object(named: "Account") {
                account.addOrReplace(
                    OrgField(name: externalIDField, type: .string, length: 40, isExternalID: true, isUnique: true)
                )
                schema.addOrReplace(account)
            }
            let clock: TestClock = if let clockStart { TestClock(clockStart) } else { TestClock() }
            let database = try OrgDatabase(
                directory: directory.appendingPathComponent("org"),
                schema: schema,
                configuration: OrgDatabase.Configuration(now: { clock.now })
            )
            let logURL = directory.appendingPathComponent("requests.jsonl")
            let server = try LocalOrgServer(
                configuration: LocalOrgConfiguration(
                    apiRequestLimit: apiRequestLimit,
                    faults: faults,
                    requestLogURL: logURL,
                    requestObserver: observer(hook)
                ),
                database: database
            )
            let store = try SoupStore.ledger(path: directory.appendingPathComponent("store.db").path)
            try await store.write { writer in _ = try writer.registerSoup(accountsSoup) }
            return try await server.withRunningServer { endpoint in
                let orgEndpoint = try OrgEndpoint(
                    baseURL: endpoint.baseURL.absoluteString,
                    accessToken: endpoint.accessToken
                )
                let configuration = RESTOrgClient.Configuration(endpoint: orgEndpoint)
                return try await withRESTOrgClient(configuration: configuration, logger: Self.logger) { client in
                    try await body(
                        EngineHarness(
                            directory: directory,
                            database: database,
                            clock: clock,
                            org: client,
                            store: store,
                            requestLogURL: logURL
                        )
                    )
                }
            }
        }
    }

    private static func observer(_ hook: RequestHook?) -> (@Sendable (String, String) -> Void)? {
        guard let hook else { return nil }
        return { method, target in hook.fire(method: method, target: target) }
    }

    /// Syncs every Account down into `accounts` (OVERWRITE), then moves the org's clock on so
    /// later server edits are strictly newer.
    func syncDownAccounts() async throws {
        _ = try await engine().syncDown(
            Definitions.soql(
                "down",
                query: "SELECT Name, AccountNumber, Industry, Description, External_Id__c FROM Account"
            )
        )
        clock.advance(seconds: 5)
    }

    /// Adds a locally created Account (`local_` id; `fields` may override the flags) and returns its entry id.
    @discardableResult
    func createLocally(_ fields: [String: OrgValue]) throws -> Int64 {
        var record: [String: OrgValue] = [
            "attributes": ["type": "Account"], "Id": .string("local_\(UUID().uuidString)"), "__local__": true,
            "__locally_created__": true, "__locally_updated__": false, "__locally_deleted__": false,
        ]
        record.merge(fields) { $1 }
        return try store.write { try $0.upsert(OrgValue.object(record).jsonText, into: "accounts").entryID }
    }

    /// Changes fields of the stored record `id` and sets `flag` (and `__local__`).
    func changeLocally(_ id: String, _ fields: [String: OrgValue], flag: String = "__locally_updated__") throws {
        try store.write { writer in
            guard let entry = try writer.reader.entries(in: "accounts", wherePath: "Id", isIn: [id]).first else {
                return
            }
            var record = try OrgValue(parsing: entry.json).objectValue ?? [:]
            record.merge(fields) { $1 }
            record["__local__"] = true
            record[flag] = true
            try writer.upsert(OrgValue.object(record).jsonText, into: "accounts")
        }
    }

    /// The stored document of entry `entryID`, or `nil` when it is gone.
    func storedRecord(entryID: Int64) throws -> [String: OrgValue]? {
        try store.read { try $0.entry(entryID, in: "accounts") }.flatMap { try OrgValue(parsing: $0.json).objectValue }
    }

    /// The stored document whose `Id` is `id`.
    func storedRecord(id: String) throws -> [String: OrgValue]? {
        try store.read { try $0.entries(in: "accounts", wherePath: "Id", isIn: [id]) }.first
            .flatMap { try OrgValue(parsing: $0.json).objectValue }
    }

    /// The Account `id` as the org holds it, or `nil` when it does not exist.
    func serverAccount(_ id: String) throws -> [String: OrgValue]? {
        guard let data = try? database.retrieve("Account", id: id, apiVersion: "62.0") else { return nil }
        return try OrgValue(parsing: String(decoding: data, as: UTF8.self)).objectValue
    }

    /// Write requests (POST, PATCH, DELETE) sent since the log had `since` entries.
    func writeRequests(since: Int = 0) throws -> [RequestLogEntry] {
        try requestLog().dropFirst(since).filter { ["POST", "PATCH", "DELETE"].contains($0.method) }
    }
}

/// An action the local org runs once, before serving the first request that matches.
final class RequestHook: Sendable {
    private let lock = NSLock()
    typealias Matcher = @Sendable (String, String) -> Bool
    // Guarded by `lock`.
    private nonisolated(unsafe) var pending: [(matches: Matcher, action: @Sendable () -> Void)] = []

    /// Runs `action` before the first request for which `matches(method, target)` holds.
    func once(
        when matches: @escaping @Sendable (_ method: String, _ target: String) -> Bool,
        _ action: @escaping @Sendable () -> Void
    ) {
        lock.withLock { pending.append((matches, action)) }
    }

    func fire(method: String, target: String) {
        let actions = lock.withLock { () -> [@Sendable () -> Void] in
            let due = pending.filter { $0.matches(method, target) }
            pending.removeAll { $0.matches(method, target) }
            return due.map(\.action)
        }
        for action in actions { action() }
    }
}

/// Sync up definitions for tests.
enum UpDefinitions {
    static func accounts(
        kind: SyncUpTargetKind = .collection,
        mergeMode: SyncConfig.MergeMode = .overwrite,
        createFields: [String]? = ["Name", "AccountNumber", "Industry"],
        updateFields: [String]? = ["Name", "AccountNumber", "Industry"],
        externalIDField: String? = nil,
        maxBatchSize: Int? = nil
    ) -> SyncDefinition {
        SyncDefinition(
            name: "up",
            type: .syncUp,
            soupName: "accounts",
            target: .up(
                SyncUpTarget(
                    kind: kind,
                    createFieldlist: createFields,
                    updateFieldlist: updateFields,
                    externalIdFieldName: externalIDField,
                    maxBatchSize: maxBatchSize
                )
            ),
            options: SyncOptions(mergeMode: mergeMode)
        )
    }
}
