import Foundation
import LocalOrg
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// The `layout` target against the local org over HTTP: `GET /ui-api/layout/<type>` with the
/// target's parameters, stored whole under the SDK's id.
struct LayoutTargetTests {
    @Test func layoutSyncStoresTheLayoutUnderTheSDKsIDAndKeepsItThroughGhostCleaning() async throws {
        try await EngineHarness.with { harness in
            try await harness.store.write { writer in
                _ = try writer.registerSoup(
                    SoupSpec(name: "sfdcLayouts", indexes: [IndexSpec(path: "Id", type: .string)])
                )
            }
            let target = LayoutSyncDownTarget(
                sobjectType: "Account",
                formFactor: "Medium",
                layoutType: "Compact",
                mode: "Edit"
            )
            let definition = SyncDefinition(
                name: "accountLayout",
                type: .syncDown,
                soupName: "sfdcLayouts",
                target: .down(.layout(target))
            )
            let engine = harness.engine()

            let first = try await engine.syncDown(definition)
            #expect(first.status == .done, "\(first.error ?? "")")
            #expect(first.fetched == 1 && first.created == 1)
            let id = "Account-Medium-Compact-Edit-null"
            #expect(try harness.storedValue("objectApiName", ofID: id, in: "sfdcLayouts") == .text("Account"))
            #expect(try harness.storedValue("layoutType", ofID: id, in: "sfdcLayouts") == .text("Compact"))
            #expect(try harness.storedValue("mode", ofID: id, in: "sfdcLayouts") == .text("Edit"))
            let log = try harness.requestLog()
            #expect(
                log.last?.path.hasSuffix("/ui-api/layout/Account?formFactor=Medium&layoutType=Compact&mode=Edit")
                    == true
            )

            let second = try await engine.syncDown(definition)
            // Sent again exactly as stored: unchanged, not updated (issue 31 item 2).
            #expect(second.status == .done && second.updated == 0 && second.unchanged == 1 && second.created == 0)
            #expect(try harness.storedCount(in: "sfdcLayouts") == 1)
            let ghosts = try await engine.cleanGhosts(definition)
            #expect(ghosts.status == .done && ghosts.deletedGhosts == 0)
            #expect(try harness.storedCount(in: "sfdcLayouts") == 1)
        }
    }

    @Test func anUnknownObjectFailsTheSyncWithTheOrgsMessage() async throws {
        try await EngineHarness.with { harness in
            try await harness.store.write { writer in
                _ = try writer.registerSoup(
                    SoupSpec(name: "sfdcLayouts", indexes: [IndexSpec(path: "Id", type: .string)])
                )
            }
            let definition = SyncDefinition(
                name: "noLayout",
                type: .syncDown,
                soupName: "sfdcLayouts",
                target: .down(.layout(LayoutSyncDownTarget(sobjectType: "Nothing__c")))
            )
            let summary = try await harness.engine().syncDown(definition)
            #expect(summary.status == .failed)
            #expect(summary.error?.contains("INVALID_TYPE") == true, "\(summary.error ?? "")")
        }
    }
}

/// A layout declared in the local org's schema file is served as written.
struct DeclaredLayoutTests {
    @Test func aDeclaredLayoutIsServedAndStoredAsWritten() async throws {
        var schema = OrgSchema.standard
        schema.layouts = [
            OrgDeclaredLayout(object: "Account", layout: ["id": "00hDECLARED000001", "sections": [], "mode": "View"])
        ]
        try await EngineHarness.with(schema: schema) { harness in
            try await harness.store.write { writer in
                _ = try writer.registerSoup(
                    SoupSpec(name: "sfdcLayouts", indexes: [IndexSpec(path: "Id", type: .string)])
                )
            }
            let definition = SyncDefinition(
                name: "declared",
                type: .syncDown,
                soupName: "sfdcLayouts",
                target: .down(.layout(LayoutSyncDownTarget(sobjectType: "Account")))
            )
            let summary = try await harness.engine().syncDown(definition)
            #expect(summary.status == .done && summary.created == 1, "\(summary.error ?? "")")
            let id = "Account-null-null-null-null"
            #expect(try harness.storedValue("id", ofID: id, in: "sfdcLayouts") == .text("00hDECLARED000001"))
        }
    }

    @Test func endpointsAndLayoutsSurviveTheSchemaFile() throws {
        let file = """
            {"endpoints": [{"path": "/services/apexrest/things/", "object": "Account", "fields": ["Name"],
                            "keyField": "AccountNumber", "pageSize": 7,
                            "since": {"param": "after", "format": "epochMillis"}}],
             "layouts": [{"object": "Account", "mode": "Edit", "layout": {"sections": []}}]}
            """
        let schema = try OrgSchema.standard.merging(json: Data(file.utf8), source: "schema.json")
        #expect(
            schema.endpoints == [
                OrgCustomEndpoint(
                    path: "/services/apexrest/things",
                    object: "Account",
                    fields: ["Name"],
                    keyField: "AccountNumber",
                    pageSize: 7,
                    sinceParam: "after",
                    sinceFormat: "epochMillis"
                )
            ]
        )
        #expect(schema.layouts == [OrgDeclaredLayout(object: "Account", mode: "Edit", layout: ["sections": []])])
        let again = try OrgSchema.standard.merging(json: schema.schemaFileData(), source: "again.json")
        #expect(again.endpoints == schema.endpoints && again.layouts == schema.layouts)
        #expect(throws: OrgError.self) {
            _ = try OrgSchema.standard.merging(
                json: Data(#"{"endpoints": [{"path": "/elsewhere", "object": "Account", "fields": []}]}"#.utf8),
                source: "bad.json"
            )
        }
    }
}
