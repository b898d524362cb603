import Foundation
import SyncrunTestSupport
import Testing

/// Issue 19 item 1, through the executable: the watermark of a parent_children sync down is
/// MobileSync's (`ParentChildrenSyncDownTarget.getLatestModificationTimeStamp`), the larger of the
/// parents' latest and the children's latest, each from its own `modificationDateFieldName`.
@Suite(.serialized)
struct FidelityWatermarkTests {
    /// MobileSync's `testGetLatestModificationTimeStamp` timestamps.
    static let timeStamps: [Int64] = [100_000_000, 200_000_000, 300_000_000, 400_000_000]
    static let texts = [
        "1970-01-02T03:46:40.000+0000", "1970-01-03T07:33:20.000+0000", "1970-01-04T11:20:00.000+0000",
        "1970-01-05T15:06:40.000+0000",
    ]

    static let schema = """
        {"objects": [
          {"name": "Account", "fields": [{"name": "AccountTimeStamp1__c", "type": "datetime"},
            {"name": "AccountTimeStamp2__c", "type": "datetime"}, {"name": "AccountTimeStamp3__c", "type": "datetime"}]},
          {"name": "Contact", "fields": [{"name": "ContactTimeStamp1__c", "type": "datetime"},
            {"name": "ContactTimeStamp2__c", "type": "datetime"}, {"name": "ContactTimeStamp3__c", "type": "datetime"}]}
        ]}
        """

    /// MobileSync's records: 4 accounts, account i with `AccountTimeStamp1` = ts[i] and
    /// `AccountTimeStamp2` = ts[0]; 3 contacts each, contact j with `ContactTimeStamp1` = ts[1] and
    /// `ContactTimeStamp2` = ts[j]. Added for the -1 rule: `AccountTimeStamp3` only on account 0
    /// (ts[3]), `ContactTimeStamp3` only on contacts 1 and 2 of account 0 (ts[3]).
    static var data: [(file: String, object: String, text: String)] {
        var accounts: [String] = []
        var contacts: [String] = []
        for account in 0..<4 {
            let extra = account == 0 ? #", "AccountTimeStamp3__c": "\#(texts[3])""# : ""
            accounts.append(
                #"{"attributes": {"type": "Account", "referenceId": "A\#(account)"}, "Name": "Account \#(account)", "#
                    + #""AccountTimeStamp1__c": "\#(texts[account])", "AccountTimeStamp2__c": "\#(texts[0])"\#(extra)}"#
            )
            for contact in 0..<3 {
                let third = account == 0 && contact > 0 ? #", "ContactTimeStamp3__c": "\#(texts[3])""# : ""
                contacts.append(
                    #"{"attributes": {"type": "Contact", "referenceId": "C\#(account)\#(contact)"}, "#
                        + #""LastName": "Contact \#(account)-\#(contact)", "AccountId": "@A\#(account)", "#
                        + #""ContactTimeStamp1__c": "\#(texts[1])", "ContactTimeStamp2__c": "\#(texts[contact])"\#(third)}"#
                )
            }
        }
        return [
            ("Account.json", "Account", #"{"records": ["# + accounts.joined(separator: ",") + "]}"),
            ("Contact.json", "Contact", #"{"records": ["# + contacts.joined(separator: ",") + "]}"),
        ]
    }

    /// A parent_children sync down reading the parents' dates from `AccountTimeStamp<parent>__c` and
    /// the children's from `ContactTimeStamp<child>__c`.
    static func sync(parent: Int, child: Int) -> String {
        """
        {"syncName": "ts\(parent)\(child)", "syncType": "syncDown", "soupName": "accounts",
         "target": {"type": "parent_children",
           "parent": {"sobjectType": "Account", "soupName": "accounts", "idFieldName": "Id",
             "modificationDateFieldName": "AccountTimeStamp\(parent)__c"},
           "parentFieldlist": ["Name"],
           "children": {"sobjectType": "Contact", "sobjectTypePlural": "Contacts", "soupName": "contacts",
             "parentIdFieldName": "AccountId", "idFieldName": "Id",
             "modificationDateFieldName": "ContactTimeStamp\(child)__c"},
           "childrenFieldlist": ["LastName", "AccountId"], "relationshipType": "LOOKUP"},
         "options": {"mergeMode": "OVERWRITE"}}
        """
    }

    /// (parent field, child field, expected watermark).
    static let table: [(parent: Int, child: Int, expected: Int64)] = [
        // MobileSync's four rows.
        (1, 1, timeStamps[3]), (1, 2, timeStamps[3]), (2, 1, timeStamps[1]), (2, 2, timeStamps[2]),
        // A child set where one child lacks the field counts -1: the parents' latest (ts[0]) wins.
        (2, 3, timeStamps[0]),
        // Parents where one lacks the field count -1: the children's latest (ts[1]) wins.
        (3, 1, timeStamps[1]),
    ]

    @Test func theWatermarkIsTheLatestOfParentsAndChildrenEachFromItsOwnField() async throws {
        let syncs =
            #"{"syncs": ["#
            + Self.table.map { Self.sync(parent: $0.parent, child: $0.child) }
            .joined(separator: ",") + "]}"
        try await FidelityProject.with(syncs: syncs, schema: Self.schema, data: Self.data) { project in
            let summary = try project.runDone()
            #expect(try summary.count("created", of: "syncDown:ts11") == 4)
            #expect(try project.storeRecords("contacts").count == 12)
            for row in Self.table {
                #expect(
                    try project.maxTimeStamp("ts\(row.parent)\(row.child)") == row.expected,
                    "AccountTimeStamp\(row.parent) / ContactTimeStamp\(row.child)"
                )
            }
        }
    }
}
