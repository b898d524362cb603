import SyncConfig
import Testing

/// YAML is read as the same structure as JSON, without YAML 1.1 coercions.
struct YAMLLoadingTests {
    @Test func plainScalarsStayStringsWhereStringsAreExpected() throws {
        // Field lists must hold field names (`invalid-name` otherwise), so the scalars YAML 1.1
        // would coerce are sync names here.
        let names = ["on", "2024-01-01", "1e3", "yes", "null", "0x1F", "~x"]
        let syncs = names.map { name in
            """
              - syncName: \(name == "null" ? "\"null\"" : name)
                syncType: syncUp
                soupName: no
                target:
                  createFieldlist: [Name, yes, "null"]
                options: {mergeMode: OVERWRITE}
            """
        }
        let loaded = try ConfigFixture.load(["usersyncs.yaml": "syncs:\n" + syncs.joined(separator: "\n")])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))")
        let all = try #require(loaded.userSyncs?.syncs)
        #expect(all.map(\.name) == names)
        let sync = try #require(all.first)
        #expect(sync.soupName == "no")
        guard case .up(let target) = sync.target else {
            Issue.record("expected a sync up target")
            return
        }
        #expect(target.createFieldlist == ["Name", "yes", "null"])
    }

    @Test func integersAndBooleansFollowTheCoreSchema() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.yaml": """
            syncs:
              - syncName: down
                syncType: syncDown
                soupName: accounts
                target: {type: soql, query: "SELECT Id, LastModifiedDate FROM Account", maxBatchSize: 0x1F4}
                options: {mergeMode: OVERWRITE, cleanGhosts: True}
            """
        ])
        #expect(loaded.diagnostics.isEmpty)
        let sync = try #require(loaded.userSyncs?.syncs.first)
        guard case .down(.soql(let target)) = sync.target else {
            Issue.record("expected a SOQL target")
            return
        }
        #expect(target.maxBatchSize == 500)
        #expect(sync.options.cleanGhosts)
    }

    @Test(arguments: ["yes", "on", "y", "'true'"])
    func yamlOneOneBooleansAreRejected(_ spelling: String) throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.yaml": """
            syncs:
              - syncName: down
                syncType: syncUp
                soupName: accounts
                target: {}
                options: {mergeMode: OVERWRITE, cleanGhosts: \(spelling)}
            """
        ])
        #expect(ConfigFixture.summary(loaded) == ["6:50: error: syncs[0].options.cleanGhosts: type-mismatch"])
    }

    @Test func jsonAndYAMLGiveIdenticalModels() throws {
        let json = try ConfigFixture.load([
            "userstore.json": """
            {"soups": [{"soupName": "accounts", "indexes": [
              {"path": "Id", "type": "string"}, {"path": "__local__", "type": "string"},
              {"path": "__sync_id__", "type": "integer"}]}]}
            """,
            "usersyncs.json": """
            {"syncs": [
              {"syncName": "down", "syncType": "syncDown", "soupName": "accounts",
               "target": {"type": "soql", "query": "SELECT Id, Name, LastModifiedDate FROM Account", "maxBatchSize": 500,
                          "custom": {"nested": [1, 2.5, true, null, "x"]}},
               "options": {"mergeMode": "LEAVE_IF_CHANGED", "cleanGhosts": true}},
              {"syncName": "up", "syncType": "syncUp", "soupName": "accounts", "dependsOn": ["down"],
               "target": {"iOSImpl": "SFBatchSyncUpTarget", "createFieldlist": ["Name"], "maxBatchSize": 10},
               "options": {"fieldlist": ["Name"], "mergeMode": "OVERWRITE"}}
            ]}
            """,
        ])
        let yaml = try ConfigFixture.load([
            "userstore.yml": """
            soups:
              - soupName: accounts
                indexes:
                  - {path: Id, type: string}
                  - {path: __local__, type: string}
                  - {path: __sync_id__, type: integer}
            """,
            "usersyncs.yaml": """
            syncs:
              - syncName: down
                syncType: syncDown
                soupName: accounts
                target:
                  type: soql
                  query: SELECT Id, Name, LastModifiedDate FROM Account
                  maxBatchSize: 500
                  custom:
                    nested: [1, 2.5, true, null, x]
                options:
                  mergeMode: LEAVE_IF_CHANGED
                  cleanGhosts: true
              - syncName: up
                syncType: syncUp
                soupName: accounts
                dependsOn: [down]
                target:
                  iOSImpl: SFBatchSyncUpTarget
                  createFieldlist: [Name]
                  maxBatchSize: 10
                options:
                  fieldlist: [Name]
                  mergeMode: OVERWRITE
            """,
        ])
        #expect(json.diagnostics.map(\.code) == [.unknownKey])
        #expect(yaml.diagnostics.map(\.code) == [.unknownKey])
        let jsonSyncs = try #require(json.userSyncs?.syncs)
        let yamlSyncs = try #require(yaml.userSyncs?.syncs)
        #expect(jsonSyncs.map(\.normalizedJSON) == yamlSyncs.map(\.normalizedJSON))
        #expect(jsonSyncs.map(\.target) == yamlSyncs.map(\.target))
        #expect(jsonSyncs.map(\.options) == yamlSyncs.map(\.options))
        #expect(json.userStore?.soups.map(\.indexes) == yaml.userStore?.soups.map(\.indexes))
        #expect(json.userStore?.soups.map(\.name) == ["accounts"])
    }

    @Test func anchorsAndMergeKeysShareSettings() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.yaml": """
            syncs:
              - syncName: down
                syncType: syncDown
                soupName: accounts
                target: {type: soql, query: "SELECT Id, LastModifiedDate FROM Account"}
                options: &careful {mergeMode: LEAVE_IF_CHANGED, fieldlist: [Name]}
              - syncName: up
                syncType: syncUp
                soupName: accounts
                target: {}
                options:
                  <<: *careful
                  fieldlist: [Name, Industry]
            """
        ])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))")
        let options = loaded.userSyncs?.syncs.map(\.options) ?? []
        #expect(options.map(\.mergeMode) == [.leaveIfChanged, .leaveIfChanged])
        #expect(options.map(\.fieldlist) == [["Name"], ["Name", "Industry"]])
    }
}
