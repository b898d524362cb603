import JSONCore
import SyncConfig
import Testing

/// The `endpoint` target keys: decoded into the typed model, persisted unchanged, and every
/// problem reported at its exact place.
struct EndpointConfigTests {
    static let down = """
        {"syncs": [{"syncName": "widgets", "syncType": "syncDown", "soupName": "widgets",
          "target": {"type": "endpoint",
                     "request": {"method": "GET", "path": "/services/apexrest/widgets", "query": {"view": "all", "n": "5"}},
                     "recordsPath": "data.items",
                     "nextPage": {"cursorPath": "data.cursor", "cursorParam": "cursor"},
                     "since": {"param": "modifiedSince", "format": "epochMillis"},
                     "idsRequest": {"path": "/services/apexrest/widgets/ids", "recordsPath": "ids",
                                    "nextPage": {"urlPath": "next"}}},
          "options": {"mergeMode": "OVERWRITE"}}]}
        """

    static let up = """
        {"syncs": [{"syncName": "push", "syncType": "syncUp", "soupName": "widgets",
          "target": {"type": "endpoint", "createFieldlist": ["Name"],
                     "create": {"path": "/services/apexrest/widgets", "body": {"name": "{Name}", "n": "#{Code__c}"},
                                "idPath": "result.id"},
                     "update": {"method": "PUT", "path": "/services/apexrest/widgets/{Id}", "query": {"v": "{Rev}"}},
                     "delete": {"path": "/services/apexrest/widgets/{Id}"},
                     "modificationDate": {"request": {"path": "/services/apexrest/widgets/{Id}"}, "path": "meta.modified"},
                     "batch": {"path": "/services/apexrest/widgets/batch", "maxBatchSize": 10}},
          "options": {"mergeMode": "LEAVE_IF_CHANGED"}}]}
        """

    @Test func aSyncDownTargetDecodesEveryKey() throws {
        let loaded = try ConfigFixture.load(["usersyncs.json": Self.down])
        #expect(loaded.diagnostics.isEmpty, "\(ConfigFixture.summary(loaded))")
        let definition = try #require(loaded.userSyncs?.syncs.first)
        guard case .down(.endpoint(let target)) = definition.target else {
            Issue.record("not an endpoint target: \(definition.target)")
            return
        }
        #expect(target.request.method == .get && target.request.path.description == "/services/apexrest/widgets")
        #expect(target.request.query.map(\.name) == ["view", "n"])
        #expect(target.recordsPath == "data.items")
        #expect(target.nextPage == .cursor(path: "data.cursor", param: "cursor"))
        #expect(target.since == EndpointSince(param: "modifiedSince", format: .epochMillis))
        #expect(target.idsRequest?.recordsPath == "ids" && target.idsRequest?.nextPage == .urlPath("next"))
        // Persisted and read back: the same definition.
        let again = try ConfigFixture.load([
            "usersyncs.json": "{\"syncs\": [\(definition.normalizedJSON.jsonText)]}"
        ])
        #expect(again.diagnostics.isEmpty, "\(ConfigFixture.summary(again))")
        #expect(again.userSyncs?.syncs.first?.normalizedJSON == definition.normalizedJSON)
    }

    @Test func aSyncUpTargetDecodesEveryKey() throws {
        let loaded = try ConfigFixture.load(["usersyncs.json": Self.up])
        #expect(loaded.diagnostics.isEmpty, "\(ConfigFixture.summary(loaded))")
        let definition = try #require(loaded.userSyncs?.syncs.first)
        guard case .up(let target) = definition.target, let info = target.endpoint else {
            Issue.record("not an endpoint target: \(definition.target)")
            return
        }
        #expect(target.kind == .endpoint)
        #expect(info.create.request.method == .post && info.create.idPath == "result.id")
        #expect(info.update.method == .put && info.update.path.placeholders == ["Id"])
        #expect(info.update.query.first?.value.placeholders == ["Rev"])
        #expect(info.delete.method == .delete)
        #expect(info.modificationDate?.path == "meta.modified")
        #expect(info.batch?.maxBatchSize == 10)
        let again = try ConfigFixture.load([
            "usersyncs.json": "{\"syncs\": [\(definition.normalizedJSON.jsonText)]}"
        ])
        #expect(again.diagnostics.isEmpty, "\(ConfigFixture.summary(again))")
        #expect(again.userSyncs?.syncs.first?.target == definition.target)
    }

    @Test(arguments: [
        ("https://evil.example.com/a", 1, "must start with '/'"),
        ("/a/../b", 4, "'.' or '..' segment"),
        ("/a?b=1", 3, "holds '?'"),
        ("/a//b", 4, "empty, '.' or '..' segment"),
        ("/a/{Id", 4, "'{' without a closing '}'"),
        ("/a/{Id}", 4, "placeholders are for sync up requests"),
        ("/a/é", 4, "holds '\\u{00E9}'"),
    ])
    func aBadPathIsReportedAtTheOffendingCharacter(path: String, column: Int, message: String) throws {
        let prefix =
            #"{"syncs": [{"syncName": "w", "syncType": "syncDown", "soupName": "w", "target": "#
            + #"{"type": "endpoint", "recordsPath": "", "request": {"path": ""#
        let text = prefix + path + #""}}, "options": {"mergeMode": "OVERWRITE"}}]}"#
        let loaded = try ConfigFixture.load(["usersyncs.json": text])
        let diagnostic = try #require(loaded.diagnostics.first)
        #expect(loaded.diagnostics.count == 1, "\(ConfigFixture.summary(loaded))")
        #expect(diagnostic.code == .invalidEndpoint && diagnostic.path == "syncs[0].target.request.path")
        #expect(diagnostic.line == 1 && diagnostic.column == prefix.count + column)
        #expect(diagnostic.message.contains(message), "\(diagnostic.message)")
        #expect(loaded.userSyncs?.syncs.isEmpty == true)
    }

    @Test func cleaningGhostsWithoutAnIDsRequestIsWarnedAbout() throws {
        let text = """
            {"syncs": [{"syncName": "w", "syncType": "syncDown", "soupName": "w",
              "target": {"type": "endpoint", "request": {"path": "/services/apexrest/w"}, "recordsPath": "items"},
              "options": {"mergeMode": "OVERWRITE", "cleanGhosts": true}}]}
            """
        let loaded = try ConfigFixture.load(["usersyncs.json": text])
        #expect(
            ConfigFixture.summary(loaded) == ["3:14: warning: syncs[0].options.cleanGhosts: ghost-cleaning-without-ids"]
        )
        #expect(loaded.userSyncs?.syncs.count == 1)
    }
}
