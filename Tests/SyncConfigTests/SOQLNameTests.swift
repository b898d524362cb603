import SyncConfig
import Testing

/// Names a config gives that syncrun writes into the SOQL it builds: SOQL cannot quote names, so
/// one that is not a name (quotes, spaces, comments, a second clause) is an `invalid-name` error at
/// the value, and names with keywords or odd but valid shapes still load (issue 20 item 5).
struct SOQLNameTests {
    private static let store =
        #"{"soups": [{"soupName": "accounts", "indexes": [{"path": "Id", "type": "string"}]}, "#
        + #"{"soupName": "contacts", "indexes": [{"path": "Id", "type": "string"}]}]}"#

    private static func syncs(_ target: String, type: String = "syncDown") -> [String: String] {
        [
            "userstore.json": store,
            "usersyncs.json": #"{"syncs": [{"syncName": "s", "syncType": "\#(type)", "soupName": "accounts", "#
                + #""target": \#(target), "options": {"mergeMode": "OVERWRITE"}}]}"#,
        ]
    }

    static let hostileNames = [
        #"Id FROM Contact WHERE Name != null"#, #"Id') OR (Name"#, "Id -- comment", "Id/* c */", "Name'", #"Name\\"#,
        "Id, Name", "1Id", "Id.", ".Id", "Account..Name", "Id;",
    ]

    @Test(arguments: ["sobjectType", "idFieldName", "modificationDateFieldName"])
    func aNameThatIsNotANameIsAnErrorAtTheValue(_ key: String) throws {
        for hostile in Self.hostileNames {
            let quoted = "\"" + hostile.replacingOccurrences(of: "\\", with: "\\\\") + "\""
            let target =
                key == "sobjectType"
                ? #"{"type": "mru", "sobjectType": \#(quoted), "fieldlist": ["Name"]}"#
                : #"{"type": "mru", "sobjectType": "Account", "fieldlist": ["Name"], "\#(key)": \#(quoted)}"#
            let loaded = try ConfigFixture.load(Self.syncs(target))
            let errors = loaded.diagnostics.filter(\.isError)
            #expect(errors.map(\.code) == [.invalidName], "\(key) = \(hostile): \(loaded.diagnostics)")
            #expect(errors.first?.path == "syncs[0].target.\(key)")
        }
    }

    @Test func parentChildrenNamesAreChecked() throws {
        for key in ["sobjectType", "sobjectTypePlural", "parentIdFieldName", "idFieldName"] {
            var children: [String: String] = [
                "sobjectType": "Contact", "sobjectTypePlural": "Contacts", "soupName": "contacts",
                "parentIdFieldName": "AccountId",
            ]
            children[key] = "Contacts) FROM Account --"
            let childrenJSON = children.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
                .joined(separator: ", ")
            let target =
                #"{"type": "parent_children", "parent": {"sobjectType": "Account", "soupName": "accounts"}, "#
                + #""parentFieldlist": ["Name"], "children": {\#(childrenJSON)}, "childrenFieldlist": ["LastName"], "#
                + #""relationshipType": "LOOKUP"}"#
            let loaded = try ConfigFixture.load(Self.syncs(target))
            let errors = loaded.diagnostics.filter(\.isError)
            #expect(errors.map(\.code) == [.invalidName], "\(key): \(loaded.diagnostics)")
            #expect(errors.first?.path == "syncs[0].target.children.\(key)")
        }
    }

    @Test(arguments: ["fieldlist", "createFieldlist", "updateFieldlist"])
    func aFieldListEntryThatIsNotOneFieldIsAnErrorAtTheEntry(_ key: String) throws {
        for hostile in Self.hostileNames {
            let escaped = hostile.replacingOccurrences(of: "\\", with: "\\\\")
            let target =
                key == "fieldlist"
                ? #"{"type": "refresh", "sobjectType": "Account", "soupName": "accounts", "fieldlist": ["Id", "\#(escaped)"]}"#
                : #"{"\#(key)": ["Name", "\#(escaped)"]}"#
            let loaded = try ConfigFixture.load(Self.syncs(target, type: key == "fieldlist" ? "syncDown" : "syncUp"))
            let errors = loaded.diagnostics.filter(\.isError)
            #expect(errors.map(\.code) == [.invalidName], "\(key) = \(hostile): \(loaded.diagnostics)")
            #expect(errors.first?.path == "syncs[0].target.\(key)[1]")
        }
    }

    /// Keywords as (parts of) names, custom and namespaced names and paths are names, not injections.
    @Test func unusualButValidNamesLoad() throws {
        let target =
            #"{"type": "refresh", "sobjectType": "Order", "soupName": "accounts", "#
            + #""fieldlist": ["Id", "Select__c", "ns__From__c", "Owner.Name", "Where_2"], "#
            + #""idFieldName": "Id", "modificationDateFieldName": "ns__LastModified__c"}"#
        let loaded = try ConfigFixture.load(Self.syncs(target))
        #expect(loaded.diagnostics.filter(\.isError).isEmpty, "\(loaded.diagnostics)")
    }
}
