import Foundation
import LocalOrg
import SoupStore
import SyncConfig
import SyncEngine
import SyncrunTestSupport
import Testing

/// The watermark of a `parent_children` sync down (issue 19 item 1): MobileSync's
/// `getLatestModificationTimeStamp` for the target, the larger of the parents' latest and each
/// nested child set's latest, each read from its own `modificationDateFieldName`, a side counting
/// -1 when one of its records lacks the field.
struct ParentChildrenWatermarkTests {
    static let timeStamps: [Int64] = [100_000_000, 200_000_000, 300_000_000, 400_000_000]
    static let texts = [
        "1970-01-02T03:46:40.000+0000", "1970-01-03T07:33:20.000+0000", "1970-01-04T11:20:00.000+0000",
        "1970-01-05T15:06:40.000+0000",
    ]

    /// Account and Contact with `AccountTimeStamp1..3__c` and `ContactTimeStamp1..3__c`.
    static func schema(in directory: URL) throws -> OrgSchema {
        func fields(_ prefix: String) -> String {
            (1...3).map { #"{"name": "\#(prefix)\#($0)__c", "type": "datetime"}"# }.joined(separator: ",")
        }
        let text = #"""
            {"objects": [{"name": "Account", "fields": [\#(fields("AccountTimeStamp"))]},
                         {"name": "Contact", "fields": [\#(fields("ContactTimeStamp"))]}]}
            """#
        let url = directory.appendingPathComponent("schema.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try OrgSchema.standard.merging(contentsOf: url)
    }

    /// MobileSync's records (4 accounts with 3 contacts each, see `FidelityWatermarkTests` in the
    /// executable's tests), plus `AccountTimeStamp3` on account 0 only and `ContactTimeStamp3` on
    /// contacts 1 and 2 of account 0 only.
    static func createRecords(in database: OrgDatabase) throws {
        try database.write { writer in
            for account in 0..<4 {
                var fields: OrgJSONObject = [
                    "Name": .string("Account \(account)"), "AccountTimeStamp1__c": .string(texts[account]),
                    "AccountTimeStamp2__c": .string(texts[0]),
                ]
                if account == 0 { fields["AccountTimeStamp3__c"] = .string(texts[3]) }
                let accountID = try writer.create("Account", fields: fields)
                for contact in 0..<3 {
                    var child: OrgJSONObject = [
                        "LastName": .string("Contact \(account)-\(contact)"), "AccountId": .string(accountID),
                        "ContactTimeStamp1__c": .string(texts[1]), "ContactTimeStamp2__c": .string(texts[contact]),
                    ]
                    if account == 0, contact > 0 { child["ContactTimeStamp3__c"] = .string(texts[3]) }
                    _ = try writer.create("Contact", fields: child)
                }
            }
        }
    }

    static func definition(parent: Int, child: Int) -> SyncDefinition {
        let target = ParentChildrenSyncDownTarget(
            parent: ParentInfo(
                sobjectType: "Account",
                soupName: "accounts",
                modificationDateFieldName: "AccountTimeStamp\(parent)__c"
            ),
            parentFieldlist: ["Name"],
            children: ChildrenInfo(
                sobjectType: "Contact",
                sobjectTypePlural: "Contacts",
                soupName: "contacts",
                parentIdFieldName: "AccountId",
                modificationDateFieldName: "ContactTimeStamp\(child)__c"
            ),
            childrenFieldlist: ["LastName"],
            relationshipType: .lookup
        )
        return SyncDefinition(
            name: "ts\(parent)\(child)",
            type: .syncDown,
            soupName: "accounts",
            target: .down(.parentChildren(target)),
            options: SyncOptions(mergeMode: .overwrite)
        )
    }

    /// MobileSync's four rows, then one row per side counting -1.
    static let table: [(parent: Int, child: Int, expected: Int64)] = [
        (1, 1, timeStamps[3]), (1, 2, timeStamps[3]), (2, 1, timeStamps[1]), (2, 2, timeStamps[2]),
        (2, 3, timeStamps[0]), (3, 1, timeStamps[1]),
    ]

    @Test(arguments: 0..<6)
    func theWatermarkFollowsMobileSyncsLatestTimeStampTable(row: Int) async throws {
        let (parent, child, expected) = Self.table[row]
        try await TemporaryDirectory.with { directory in
            try await EngineHarness.with(pageSize: 2, schema: try Self.schema(in: directory)) { harness in
                try await harness.registerContactsSoup()
                try Self.createRecords(in: harness.database)

                let summary = try await harness.engine().syncDown(Self.definition(parent: parent, child: child))

                #expect(summary.status == .done && summary.saved == 4)
                #expect(summary.maxTimeStamp == expected, "AccountTimeStamp\(parent) / ContactTimeStamp\(child)")
                #expect(try harness.engine().syncState(id: summary.syncID).maxTimeStamp == expected)
            }
        }
    }

    @Test func aResyncAfterAChildOnlyChangeMovesTheWatermarkToTheChild() async throws {
        try await EngineHarness.with { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B"], contactsEach: 2)
            let definition = Definitions.accountsWithContacts()
            let engine = harness.engine()
            let first = try await engine.syncDown(definition)
            #expect(first.status == .done && first.saved == 2)
            harness.clock.advance(seconds: 60)
            let changedAt = Int64(harness.clock.now.timeIntervalSince1970 * 1000)
            try harness.updateChild(trees[0].1[0], lastName: "A-1 server")

            let resync = try await engine.syncDown(definition)

            #expect(resync.status == .done)
            #expect(try harness.storedValuesByID("LastName", in: "contacts")[trees[0].1[0]] == .text("A-1 server"))
            // The child's date, later than any parent's: the next resync starts from it.
            #expect(resync.maxTimeStamp > first.maxTimeStamp)
            #expect(resync.maxTimeStamp == changedAt)
            #expect(try engine.syncState(id: resync.syncID).maxTimeStamp == changedAt)
        }
    }
}
