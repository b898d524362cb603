import Foundation
import LocalOrg
import Logging
import OrgClient
import SOQL
import SoupStore
import SyncEngine
import SyncLedger
import SyncrunTestSupport
import Testing

@testable import Migration

/// The decide step against a real local org over HTTP, and the apply step's id map.
struct RecordDeciderTests {
    private static let pair = MigrationPair(sourceOrgID: "00DSOURCE", targetOrgID: "00DTARGET")

    private func withWorld(
        _ body: (LocalOrgFixture, RESTOrgClient, SoupStore, MigrationBooks) async throws -> Void
    ) async throws {
        try await LocalOrgFixture.with { org in
            try await TemporaryDirectory.with(prefix: "migration-store") { directory in
                let store = try SoupStore.migrationStaging(path: directory.appendingPathComponent("staging.db").path)
                let journal = try MigrationJournal(
                    path: directory.appendingPathComponent("migrations/journal.db").path,
                    pair: Self.pair
                )
                try await store.write { writer in
                    for soup in ["accounts", "contacts"] {
                        _ = try writer.registerSoup(
                            SoupSpec(name: soup, indexes: [IndexSpec(path: "Id", type: .string)])
                        )
                    }
                }
                let endpoint = try OrgEndpoint(baseURL: org.baseURL.absoluteString, accessToken: org.accessToken)
                let logger = Logger(label: "migration.tests", factory: { _ in SwiftLogNoOpLogHandler() })
                try await withRESTOrgClient(configuration: .init(endpoint: endpoint), logger: logger) { client in
                    try await body(org, client, store, MigrationBooks(journal: journal))
                }
            }
        }
    }

    private func records(_ json: String) throws -> [[String: OrgValue]] {
        try OrgValue(parsing: json).arrayValue?.compactMap(\.objectValue) ?? []
    }

    @Test func decidesCreateUpdateUnchangedAndAmbiguousMatchesByKey() async throws {
        try await withWorld { org, client, store, books in
            try org.database.write { writer in
                try writer.create("Account", fields: ["Name": "Same", "Industry": "Energy"])
                try writer.create("Account", fields: ["Name": "Differs", "Industry": "Old"])
                try writer.create("Account", fields: ["Name": "Twice", "Industry": "Energy"])
                try writer.create("Account", fields: ["Name": "Twice", "Industry": "Energy"])
            }
            let accounts = MigrationObject(
                sobject: "Account",
                soup: "accounts",
                syncUp: "accountsUp",
                createFields: ["Name", "Industry"],
                updateFields: ["Name", "Industry"],
                matchFields: ["Name"]
            )
            let decider = RecordDecider(
                target: client,
                books: books,
                store: store,
                object: accounts,
                targetFieldTypes: [:],
                soups: ["account": ("accounts", "Id")],
                isDryRun: false
            )
            let source = try records(
                """
                [{"Id": "001S1", "Name": "Same", "Industry": "Energy"},
                 {"Id": "001S2", "Name": "Differs", "Industry": "New"},
                 {"Id": "001S3", "Name": "Twice", "Industry": "Energy"},
                 {"Id": "001S4", "Name": "Fresh", "Industry": "Retail"}]
                """
            )
            let decisions = try await decider.decide(source)
            #expect(decisions.count == 4)
            guard case .unchanged = decisions[0].action else { Issue.record("\(decisions[0])"); return }
            guard case .update(_, let fields) = decisions[1].action else { Issue.record("\(decisions[1])"); return }
            #expect(fields["Industry"] == .string("New"))
            guard case .fail(let reason) = decisions[2].action else { Issue.record("\(decisions[2])"); return }
            #expect(reason.contains("matches 2 target records"))
            guard case .create(let created) = decisions[3].action else { Issue.record("\(decisions[3])"); return }
            #expect(created == ["Name": "Fresh", "Industry": "Retail"])

            // Apply: one create, one update, the matches go to the id map; the next decide finds
            // everything through the map and unchanged.
            let applier = BatchApplier(
                target: client,
                books: books,
                sobject: "Account",
                externalIDField: nil,
                run: "run-1",
                now: { 0 }
            )
            let outcome = try await applier.apply(decisions)
            #expect(outcome.created == 1)
            #expect(outcome.updated == 1)
            #expect(outcome.unchanged == 1)
            #expect(outcome.failures.map(\.sourceID) == ["001S3"])
            let mapped = try books.targetIDs(of: ["001S1", "001S2", "001S3", "001S4"], sobjects: ["Account"])
            #expect(Set(mapped.keys) == ["001S1", "001S2", "001S4"])
            #expect(try books.intents(of: "Account").isEmpty)
            let again = try await decider.decide([source[0], source[1], source[3]])
            #expect(again.allSatisfy { $0.isMapped })
            #expect(again.allSatisfy { if case .unchanged = $0.action { true } else { false } })
        }
    }

    @Test func referencesAreRewrittenOrTheRecordFails() async throws {
        try await withWorld { _, client, store, books in
            try books.recordBatch(sobject: "Account", mapped: [("001SRC", "001TGT")], createdRun: nil, clearIntents: [])
            let contacts = MigrationObject(
                sobject: "Contact",
                soup: "contacts",
                syncUp: "contactsUp",
                createFields: ["LastName", "AccountId"],
                updateFields: ["LastName", "AccountId"],
                references: [MigrationReference(field: "AccountId", referenceTo: ["Account"], isNillable: true)]
            )
            let decider = RecordDecider(
                target: client,
                books: books,
                store: store,
                object: contacts,
                targetFieldTypes: [:],
                soups: ["account": ("accounts", "Id"), "contact": ("contacts", "Id")],
                isDryRun: false
            )
            let decisions = try await decider.decide(
                try records(
                    """
                    [{"Id": "003A", "LastName": "Mapped", "AccountId": "001SRC"},
                     {"Id": "003B", "LastName": "Orphan", "AccountId": "001GONE"},
                     {"Id": "003C", "LastName": "None", "AccountId": null}]
                    """
                )
            )
            guard case .create(let first) = decisions[0].action else { Issue.record("\(decisions[0])"); return }
            #expect(first["AccountId"] == .string("001TGT"))
            guard case .fail(let reason) = decisions[1].action else { Issue.record("\(decisions[1])"); return }
            #expect(reason.contains("AccountId refers to Account 001GONE"))
            guard case .create(let third) = decisions[2].action else { Issue.record("\(decisions[2])"); return }
            #expect(third["AccountId"] == .null)
        }
    }
}

struct ValuesTests {
    @Test func keysCompareTextCaseInsensitivelyAndNumbersAsNumbers() {
        #expect(Values.keyText(.string("Acme")) == Values.keyText(.string("ACME")))
        #expect(Values.keyText(.integer(5)) == Values.keyText(.number(5.0)))
        #expect(Values.keyText(nil) == Values.keyText(.null))
        let record: [String: OrgValue] = ["Account": ["Name": "Acme"], "Email": "a@b.c"]
        #expect(OrgValue.value(atPath: "Account.Name", in: record, ignoringCase: true) == .string("Acme"))
        #expect(OrgValue.value(atPath: "account.name", in: record, ignoringCase: true) == .string("Acme"))
        #expect(OrgValue.value(atPath: "Owner.Name", in: record, ignoringCase: true) == nil)
    }

    @Test func literalsAreTypedByTheTargetField() {
        #expect(Values.literal(.string("2026-01-15"), fieldType: "date") != .string("2026-01-15"))
        #expect(Values.literal(.string("O'Brien"), fieldType: "string") == .string("O'Brien"))
        #expect(Values.literal(.integer(3), fieldType: nil) == .integer(3))
        #expect(Values.literal(nil, fieldType: nil) == .null)
    }
}

struct ParentFirstTests {
    /// A required self-reference: records are written in rounds, each record after its parent, so a
    /// target rule requiring the parent never sees it empty; the parent's id is set on create.
    @Test func aRequiredSelfReferenceWritesParentsBeforeChildren() async throws {
        try await LocalOrgFixture.with { org in
            try await TemporaryDirectory.with(prefix: "migration-rounds") { directory in
                let store = try SoupStore.migrationStaging(path: directory.appendingPathComponent("staging.db").path)
                // Children first in entry order: a single pass would find their parents unwritten.
                let entries = """
                    [{"Id": "001S4", "Name": "Leaf", "ParentId": "001S3"},
                     {"Id": "001S3", "Name": "Middle", "ParentId": "001S1"},
                     {"Id": "001S2", "Name": "Orphan", "ParentId": "001MISSING"},
                     {"Id": "001S1", "Name": "Root", "ParentId": null}]
                    """
                try await store.write { writer in
                    _ = try writer.registerSoup(
                        SoupSpec(name: "accounts", indexes: [IndexSpec(path: "Id", type: .string)])
                    )
                    _ = try writer.upsert(entries: entries, into: "accounts")
                }
                let endpoint = try OrgEndpoint(baseURL: org.baseURL.absoluteString, accessToken: org.accessToken)
                let logger = Logger(label: "migration.tests", factory: { _ in SwiftLogNoOpLogHandler() })
                try await withRESTOrgClient(configuration: .init(endpoint: endpoint), logger: logger) { client in
                    let pair = MigrationPair(sourceOrgID: "00DSOURCE", targetOrgID: "00DTARGET")
                    let journal = try MigrationJournal(
                        path: directory.appendingPathComponent("journal.db").path,
                        pair: pair
                    )
                    let identity = try await client.identity()
                    let migrator = Migrator(
                        store: store,
                        source: client,
                        target: client,
                        journal: journal,
                        targetUserID: identity.userID,
                        logger: logger
                    )
                    let object = MigrationObject(
                        sobject: "Account",
                        soup: "accounts",
                        syncUp: "accountsUp",
                        createFields: ["Name", "ParentId"],
                        updateFields: ["Name", "ParentId"],
                        references: [
                            MigrationReference(field: "ParentId", referenceTo: ["Account"], isNillable: false)
                        ],
                        parentFirstField: "ParentId"
                    )
                    let decider = RecordDecider(
                        target: client,
                        books: MigrationBooks(journal: journal),
                        store: store,
                        object: object,
                        targetFieldTypes: [:],
                        soups: ["account": ("accounts", "Id")],
                        isDryRun: false
                    )
                    var entry = MigrationReport.Object(sobject: "Account")
                    entry.read = 4
                    try await migrator.writeObject(
                        object,
                        decider: decider,
                        entry: &entry,
                        runID: "run",
                        options: MigrationOptions(batchSize: 2),
                        stop: StopSignal(),
                        progress: { _ in }
                    )
                    #expect(entry.created == 3)
                    #expect(entry.failures.map(\.sourceID) == ["001S2"])
                    #expect(entry.failures.first?.message.contains("001MISSING") == true)
                    let page = try await client.queryFirstPage(
                        "SELECT Name, Parent.Name FROM Account ORDER BY Name",
                        options: QueryOptions()
                    )
                    let rows = try page.body.parse()["records"]?.arrayValue ?? []
                    let pairs = rows.map { row in
                        "\(row["Name"]?.stringValue ?? "?")<\(row["Parent"]?["Name"]?.stringValue ?? "-")"
                    }
                    #expect(pairs == ["Leaf<Middle", "Middle<Root", "Root<-"])
                }
            }
        }
    }
}
