import Foundation
import SyncConfig
import SyncPlan
import SyncrunTestSupport
import Testing

/// `plan` shows the requests `endpoint` and `layout` steps send, as declared (decide / apply).
struct EndpointPlanTests {
    static let syncs = """
        {"syncs": [
          {"syncName": "widgetsUp", "syncType": "syncUp", "soupName": "widgets",
           "target": {"type": "endpoint", "createFieldlist": ["Name"], "updateFieldlist": ["Name"],
                      "create": {"path": "/services/apexrest/widgets"},
                      "update": {"path": "/services/apexrest/widgets/{Id}", "query": {"rev": "{Rev__c}"}},
                      "delete": {"path": "/services/apexrest/widgets/{Id}"},
                      "modificationDate": {"request": {"path": "/services/apexrest/widgets/{Id}"}, "path": "modified"}},
           "options": {"mergeMode": "LEAVE_IF_CHANGED"}},
          {"syncName": "widgetsDown", "syncType": "syncDown", "soupName": "widgets",
           "target": {"type": "endpoint", "request": {"path": "/services/apexrest/widgets", "query": {"view": "all"}},
                      "recordsPath": "items", "since": {"param": "modifiedSince", "format": "epochMillis"},
                      "idsRequest": {"path": "/services/apexrest/widgets/ids", "recordsPath": "ids"}},
           "options": {"mergeMode": "OVERWRITE"}},
          {"syncName": "layouts", "syncType": "syncDown", "soupName": "sfdcLayouts",
           "target": {"type": "layout", "sobjectType": "Account", "layoutType": "Compact"},
           "options": {"mergeMode": "OVERWRITE"}}
        ]}
        """

    static func plan() throws -> SyncPlan {
        let directory = try TemporaryDirectory(prefix: "endpoint-plan")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let url = directory.url.appendingPathComponent("usersyncs.json")
        try Data(syncs.utf8).write(to: url)
        let loaded = try ConfigLoader().load(ConfigFiles(userSyncs: url))
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        return try SyncPlan(planning: try #require(loaded.userSyncs))
    }

    @Test func theTextPlanListsTheDeclaredRequests() throws {
        let text = try Self.plan().rendered(as: .text)
        let expected = [
            "   sends create: POST /services/apexrest/widgets (new id at 'id')",
            "   sends update: PATCH /services/apexrest/widgets/{Id}?rev={Rev__c}",
            "   sends delete: DELETE /services/apexrest/widgets/{Id}",
            "   sends modification date: GET /services/apexrest/widgets/{Id} ('modified')",
            "   sends list: GET /services/apexrest/widgets?view=all (a resync adds modifiedSince=<the watermark as "
                + "epochMillis>)",
            "   sends ids (ghost cleaning): GET /services/apexrest/widgets/ids",
            "   sends GET /ui-api/layout/Account?layoutType=Compact",
        ]
        for line in expected { #expect(text.contains(line + "\n"), "\(line) not in:\n\(text)") }
    }

    @Test func theJSONPlanHasRequestsOnlyWhereTheyAreKnown() throws {
        let plan = try Self.plan()
        let json = try JSONSerialization.jsonObject(with: Data(plan.rendered(as: .json).utf8)) as? [String: Any]
        let steps = try #require(json?["steps"] as? [[String: Any]])
        let bySync = Dictionary(uniqueKeysWithValues: steps.map { ($0["syncName"] as? String ?? "", $0) })
        #expect((bySync["widgetsDown"]?["requests"] as? [String])?.count == 2)
        #expect((bySync["widgetsUp"]?["requests"] as? [String])?.count == 4)
        #expect((bySync["layouts"]?["requests"] as? [String]) == ["GET /ui-api/layout/Account?layoutType=Compact"])
        #expect(bySync["widgetsDown"]?["resync"] as? String == "incremental")
    }
}
