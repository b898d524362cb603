import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger

/// The create table of `syncrun-bench sync-up`: N Accounts created locally (local ids,
/// `__locally_created__`, `attributes.type`) sent by the `collection` target, and optionally the
/// Python create baseline, each on its own copy of the same state and against its own org, which
/// starts with no Account.
extension SyncUpBenchmark {
    /// The fields every created Account carries and that both rows send.
    static let createFields = [
        "Name", "Industry", "Phone", "Website", "BillingCity", "BillingCountry", "NumberOfEmployees", "AnnualRevenue",
    ]

    /// Makes the create state, measures the rows, and returns the table.
    func measureCreates(in work: URL, executable: URL) async throws -> String {
        let base = Workspace(root: work.appendingPathComponent("base-create", isDirectory: true))
        try makeCreateState(in: base)
        var rows: [SyncUpMeasurement] = []
        var notes: [String] = []
        for api in skipAuto ? [SyncAPI.rest] : [.rest, .auto] {
            let copy = try base.copy(to: work.appendingPathComponent("create-collection-\(api)", isDirectory: true))
            do {
                rows.append(try await measureSyncrunCreates(api: api, in: copy, executable: executable))
            } catch let error as BenchmarkError where api == .auto {
                notes.append("note: the api auto row failed: \(error)")
            }
        }
        if let createBaseline {
            let name = "python collections script, POST 200 per call"
            let copy = try base.copy(to: work.appendingPathComponent("create-python", isDirectory: true))
            var row = try await runBaseline(
                script: createBaseline,
                name: name,
                fields: Self.createFields,
                in: copy,
                executable: executable
            )
            try verifyCreates(copy, store: try SoupStore.ledger(path: copy.store.path), row: name, measurement: &row)
            rows.append(row)
        }
        return ([SyncUpMeasurement.table(rows, records: records, operation: .create)] + notes)
            .joined(separator: "\n")
    }

    /// An empty org, and a store whose soup holds N locally created Accounts.
    private func makeCreateState(in base: Workspace) throws {
        try FileManager.default.createDirectory(at: base.org, withIntermediateDirectories: true)
        _ = try OrgDatabase(directory: base.org)
        let store = try SoupStore.ledger(path: base.store.path)
        let industries = ["Technology", "Banking", "Energy", "Retail", "Healthcare", "Manufacturing"]
        let places = [
            ("San Francisco", "United States"), ("London", "United Kingdom"), ("Paris", "France"),
            ("Berlin", "Germany"), ("Tokyo", "Japan"), ("Sydney", "Australia"),
        ]
        var documents: [String] = []
        documents.reserveCapacity(records)
        for index in 0..<records {
            let number = String(format: "%06d", index)
            let place = places[index % places.count]
            let record: OrgValue = .object([
                "attributes": .object(["type": "Account"]),
                "Id": .string("\(ControlFields.localIDPrefix)\(number)"),
                "Name": .string("New Account \(number) Holdings International"),
                "Industry": .string(industries[index % industries.count]),
                "Phone": .string("+1 (415) 555-\(number.suffix(4))"),
                "Website": .string("https://www.new-account-\(number).example.com"),
                "BillingCity": .string(place.0),
                "BillingCountry": .string(place.1),
                "NumberOfEmployees": .integer(Int64(index % 50_000 + 10)),
                "AnnualRevenue": .number(Double(index % 1000 * 12_345 + 1_000_000) + 0.5),
                ControlFields.local: .bool(true),
                ControlFields.locallyCreated: .bool(true),
                ControlFields.locallyUpdated: .bool(false),
                ControlFields.locallyDeleted: .bool(false),
            ])
            documents.append(record.jsonText)
        }
        try store.write { writer in
            let indexes = [
                IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
                IndexSpec(path: "__sync_id__", type: .integer), IndexSpec(path: "LastModifiedDate", type: .string),
                IndexSpec(path: "Name", type: .string),
            ]
            _ = try writer.registerSoup(SoupSpec(name: Self.soup, indexes: indexes))
            _ = try writer.upsert(entries: "[" + documents.joined(separator: ",") + "]", into: Self.soup)
        }
        let dirty = try store.read { try $0.dirtyEntryCount(in: Self.soup) }
        guard dirty == records else { throw BenchmarkError("created \(dirty) of \(records) local entries") }
        try store.checkpoint()
    }

    private func measureSyncrunCreates(api: SyncAPI, in workspace: Workspace, executable: URL) async throws
        -> SyncUpMeasurement
    {
        let name = Self.collectionRowName(api)
        var target = SyncUpTarget(kind: .collection)
        target.api = api
        let definition = SyncDefinition(
            name: "accountsCreate",
            type: .syncUp,
            soupName: Self.soup,
            target: .up(target),
            options: SyncOptions(fieldlist: Self.createFields, mergeMode: .overwrite)
        )
        let store = try SoupStore.ledger(path: workspace.store.path)
        var measurement = try await timeSyncUp(
            definition,
            row: name,
            store: store,
            in: workspace,
            executable: executable
        ) { summary in
            guard summary.status == .done, summary.created == records, summary.failed == 0 else {
                return "\(name) (creates): the sync up ended \(summary.status.rawValue) with \(summary.created) of "
                    + "\(records) created, \(summary.failed) failed"
            }
            return nil
        }
        try verifyCreates(workspace, store: store, row: name, measurement: &measurement)
        return measurement
    }

    /// Checks the outcome of a create row (the org is stopped): no entry is left `__local__`, every
    /// entry holds a server id, and the org holds exactly N Accounts, whose ids are the entries' ids.
    private func verifyCreates(
        _ workspace: Workspace,
        store: SoupStore,
        row: String,
        measurement: inout SyncUpMeasurement
    ) throws {
        let dirty = try store.read { try $0.dirtyEntryCount(in: Self.soup) }
        var storeIDs = Set<String>()
        var entries = 0
        try store.read { reader in
            try reader.forEachEntry(in: Self.soup) { entry in
                entries += 1
                if let id = try OrgValue(parsing: entry.json)["Id"]?.stringValue, !id.isEmpty,
                    !id.hasPrefix(ControlFields.localIDPrefix)
                {
                    storeIDs.insert(id)
                }
            }
        }
        let orgIDs = try Self.accountIDs(in: OrgDatabase(directory: workspace.org))
        guard dirty == 0, entries == records, storeIDs.count == records, orgIDs.count == records, storeIDs == orgIDs
        else {
            throw BenchmarkError(
                "\(row) (creates): wrong outcome: \(dirty) entries still __local__, \(storeIDs.count) of \(entries) "
                    + "entries with a server id, \(orgIDs.count) Accounts on the org (expected \(records)), "
                    + "ids \(storeIDs == orgIDs ? "match" : "differ") (kept with --keep: \(workspace.root.path))"
            )
        }
        try Self.countRequests(workspace, into: &measurement)
    }

    /// Every Account id of the org.
    private static func accountIDs(in database: OrgDatabase) throws -> Set<String> {
        struct Row: Decodable {
            var id: String
            private enum CodingKeys: String, CodingKey { case id = "Id" }
        }
        let version = OrgEndpoint.defaultAPIVersion
        var page = try database.query("SELECT Id FROM Account", apiVersion: version)
        var ids = Set<String>()
        while true {
            for row in try JSONDecoder().decode([Row].self, from: page.recordsJSON) { ids.insert(row.id) }
            guard !page.done, let locator = page.nextLocator else { return ids }
            page = try database.queryMore(locator: locator, apiVersion: version)
        }
    }
}
