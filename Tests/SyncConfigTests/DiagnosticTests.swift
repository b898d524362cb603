import Foundation
import SyncConfig
import Testing

/// The rendering and encoding of diagnostics, and a few messages pinned word for word.
struct DiagnosticTests {
    @Test func descriptionIsCompilerStyle() {
        let diagnostic = Diagnostic(
            location: SourceLocation(file: "usersyncs.json", line: 3, column: 17),
            severity: .error,
            path: "syncs[0].syncType",
            code: .unknownSyncType,
            message: "unknown sync type 'x'"
        )
        #expect(diagnostic.description == "usersyncs.json:3:17: error: syncs[0].syncType: unknown sync type 'x'")
        let syntax = Diagnostic(
            location: SourceLocation(file: "a.yaml", line: 1, column: 2),
            severity: .warning,
            path: "",
            code: .syntax,
            message: "m"
        )
        #expect(syntax.description == "a.yaml:1:2: warning: m")
    }

    @Test func encodesExactlyTheDocumentedKeys() throws {
        let diagnostic = Diagnostic(
            location: SourceLocation(file: "f.json", line: 1, column: 2),
            severity: .warning,
            path: "syncs",
            code: .unknownKey,
            message: "m"
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(diagnostic), as: UTF8.self)
        #expect(
            text
                == #"{"code":"unknown-key","column":2,"file":"f.json","line":1,"message":"m","path":"syncs","severity":"warning"}"#
        )
        #expect(try JSONDecoder().decode(Diagnostic.self, from: Data(text.utf8)) == diagnostic)
    }

    @Test func pinnedMessages() throws {
        let loaded = try ConfigFixture.load([
            "userstore.json": """
            {"soups": [{"soupName": "accounts", "indexes": [{"path": "Id", "type": "strng"}]}]}
            """,
            "usersyncs.json": """
            {"syncs": [
              {"syncName": "down", "syncType": "syncdown", "soupName": "acounts", "target": {}},
              {"syncName": "up", "syncType": "syncUp", "soupName": "accounts", "target": {},
               "options": {"mergeMode": "OVERWRITE", "feildlist": ["Name"]}, "dependsOn": ["dwn"]},
              {"syncName": "soql", "syncType": "syncDown", "soupName": "accounts",
               "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Account WHERE"},
               "options": {"mergeMode": "OVERWRITE"}}
            ]}
            """,
        ])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "userstore.json:1:72: error: soups[0].indexes[0].type: unknown index type 'strng'; did you mean 'string'? (expected one of 'string', 'integer', 'floating', 'full_text', 'json1', exact case)",
                "usersyncs.json:2:3: warning: syncs[0]: no 'mergeMode' in 'options'; using 'OVERWRITE' (set \"mergeMode\" to \"OVERWRITE\" or \"LEAVE_IF_CHANGED\" to make the choice explicit)",
                "usersyncs.json:2:36: error: syncs[0].syncType: unknown sync type 'syncdown'; did you mean 'syncDown'? (expected one of 'syncDown', 'syncUp', exact case)",
                "usersyncs.json:2:60: error: syncs[0].soupName: soup 'acounts' is not declared in 'userstore.json'; did you mean 'accounts'?",
                "usersyncs.json:4:42: warning: syncs[1].options.feildlist: unknown key 'feildlist'; did you mean 'fieldlist'? (the key is kept as is but not used)",
                "usersyncs.json:4:80: error: syncs[1].dependsOn[0]: depends on 'dwn', which is not defined; did you mean 'down'?",
                "usersyncs.json:6:87: error: syncs[2].target.query: invalid SOQL: expected a field, 'NOT' or '(' after 'WHERE', found end of query",
            ]
        )
        #expect(loaded.errorCount == 5)
        #expect(loaded.warningCount == 2)
    }

    @Test func syntaxErrorsPointAtTheOffendingCharacter() throws {
        let loaded = try ConfigFixture.load(["usersyncs.json": "{\n  \"syncs\": [\n    {\"a\": 1,}\n  ]\n}\n"])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "usersyncs.json:3:13: error: trailing comma before '}'; remove the last ','"
            ]
        )
        #expect(loaded.userSyncs == nil)
    }

    @Test func yamlSyntaxErrorsCarryLineAndColumn() throws {
        let loaded = try ConfigFixture.load(["userstore.yaml": "soups:\n  - soupName: \"a\n"])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "userstore.yaml:3:1: error: invalid YAML: found unexpected end of stream (while scanning a quoted scalar at line 2, column 15)"
            ]
        )
    }
}
