import Foundation
import NIOHTTP1
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// A restricted user (issue 30 item 3): a token acting as a user the schema file declares sees
/// describes, queries and writes as its profile and permission sets allow, on every API path.
struct RestrictedUserTests {
    static let username = "integration@example.com"

    /// Account: read, create, edit, no delete; `AnnualRevenue` hidden, `Industry` read-only.
    /// Contact: read only. Case (a permission set): delete, its fields read-only. Lead: nothing.
    static let profileJSON = """
        {"profiles": [{"name": "Integration", "objects": [
           {"name": "Account", "read": true, "create": true, "edit": true,
            "fields": {"AnnualRevenue": "none", "Industry": "read"}},
           {"name": "Contact", "read": true}]}],
         "permissionSets": [{"name": "CaseCleanup", "objects": [
           {"name": "Case", "delete": true, "otherFields": "read"}]}],
         "users": [{"username": "integration@example.com", "profile": "Integration",
                    "permissionSets": ["CaseCleanup"]}]}
        """

    static func schema() throws -> OrgSchema {
        try OrgSchema.standard.merging(json: Data(profileJSON.utf8), source: "restricted.json")
    }

    static var configuration: LocalOrgConfiguration {
        var configuration = LocalOrgConfiguration()
        configuration.actingUser = username
        configuration.bulkJobDelay = .milliseconds(1)
        return configuration
    }

    private static func withOrg(_ body: (LocalOrgFixture) async throws -> Void) async throws {
        try await LocalOrgFixture.with(configuration: configuration, schema: try schema(), body)
    }

    private static func firstError(_ response: TestResponse) throws -> (code: String?, message: String?) {
        let error = try response.json().arrayValue?.first?.objectValue
        return (error?["errorCode"]?.stringValue, error?["message"]?.stringValue)
    }

    @Test func describesLeaveOutWhatTheUserMayNotSeeAndMarkWhatItMayNotWrite() async throws {
        try await Self.withOrg { org in
            let client = org.client
            let account = try #require(try await client.send(.GET, "sobjects/Account/describe").json().objectValue)
            let fields = account["fields"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let byName = Dictionary(uniqueKeysWithValues: fields.map { ($0["name"]?.stringValue ?? "", $0) })
            #expect(byName["AnnualRevenue"] == nil)
            #expect(byName["Industry"]?["createable"] == false && byName["Industry"]?["updateable"] == false)
            #expect(byName["Industry"]?["permissionable"] == true)
            #expect(byName["Name"]?["createable"] == true && byName["Name"]?["updateable"] == true)
            #expect(account["createable"] == true && account["updateable"] == true)
            #expect(account["deletable"] == false)

            let contact = try #require(try await client.send(.GET, "sobjects/Contact/describe").json().objectValue)
            #expect(contact["createable"] == false && contact["updateable"] == false && contact["deletable"] == false)
            let caseDescribe = try #require(try await client.send(.GET, "sobjects/Case/describe").json().objectValue)
            #expect(caseDescribe["deletable"] == true && caseDescribe["createable"] == false)

            let lead = try await client.send(.GET, "sobjects/Lead/describe")
            #expect(lead.status == 404)
            #expect(try lead.errorCode() == "NOT_FOUND")
            #expect(try await client.send(.GET, "sobjects/Lead").status == 404)
            let global = try await client.send(.GET, "sobjects").json()
            let names = global.objectValue?["sobjects"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }
            #expect(names?.contains("Lead") == false)
            #expect(names?.contains("Account") == true && names?.contains("User") == true)
        }
    }

    @Test func queriesRefuseHiddenFieldsAndUnreadableObjectsAsARealOrg() async throws {
        try await Self.withOrg { org in
            _ = try org.database.write { try $0.create("Account", fields: ["Name": "Acme", "AnnualRevenue": 5]) }
            let client = org.client
            for resource in ["query", "queryAll"] {
                let hidden = try await client.send(.GET, "\(resource)?q=SELECT+Name,AnnualRevenue+FROM+Account")
                #expect(hidden.status == 400)
                let error = try Self.firstError(hidden)
                #expect(error.code == "INVALID_FIELD")
                #expect(error.message?.contains("No such column 'AnnualRevenue' on entity 'Account'") == true)
                let filtered = try await client.send(
                    .GET,
                    "\(resource)?q=SELECT+Name+FROM+Account+WHERE+AnnualRevenue+>+1"
                )
                #expect(try filtered.errorCode() == "INVALID_FIELD")
                let lead = try await client.send(.GET, "\(resource)?q=SELECT+Id+FROM+Lead")
                #expect(lead.status == 400)
                #expect(try lead.errorCode() == "INVALID_TYPE")
            }
            let visible = try await client.send(.GET, "query?q=SELECT+Name,Industry+FROM+Account").json()
            #expect(visible.objectValue?["totalSize"] == .integer(1))
            let record = try #require(
                try await client.send(.GET, "query?q=SELECT+Id+FROM+Account").json()
                    .objectValue?["records"]?.arrayValue?.first?.objectValue?["Id"]?.stringValue
            )
            let retrieved = try await client.send(.GET, "sobjects/Account/\(record)").json().objectValue
            #expect(retrieved?["Name"] == "Acme")
            #expect(retrieved?["AnnualRevenue"] == nil)
        }
    }

    @Test func restWritesAreRefusedWithTheRealCodes() async throws {
        try await Self.withOrg { org in
            let contactID = try org.database.write { try $0.create("Contact", fields: ["LastName": "Kept"]) }
            let client = org.client
            let readOnly = try await client.send(.POST, "sobjects/Account", json: ["Name": "A", "Industry": "Energy"])
            #expect(readOnly.status == 400)
            let readOnlyError = try Self.firstError(readOnly)
            #expect(readOnlyError.code == "INVALID_FIELD_FOR_INSERT_UPDATE")
            #expect(readOnlyError.message?.hasPrefix("Unable to create/update fields: Industry.") == true)
            let hidden = try await client.send(.POST, "sobjects/Account", json: ["Name": "A", "AnnualRevenue": 1])
            #expect(try Self.firstError(hidden).code == "INVALID_FIELD")
            let accountID = try await client.create("Account", ["Name": "Allowed"])

            let noCreate = try await client.send(.POST, "sobjects/Contact", json: ["LastName": "New"])
            #expect(noCreate.status == 400)
            let noCreateError = try Self.firstError(noCreate)
            #expect(noCreateError.code == "INSUFFICIENT_ACCESS_OR_READONLY")
            #expect(noCreateError.message == "insufficient access rights on object id")
            let noEdit = try await client.send(.PATCH, "sobjects/Contact/\(contactID)", json: ["LastName": "X"])
            #expect(try noEdit.errorCode() == "INSUFFICIENT_ACCESS_OR_READONLY")
            let noDelete = try await client.send(.DELETE, "sobjects/Account/\(accountID)")
            #expect(try noDelete.errorCode() == "INSUFFICIENT_ACCESS_OR_READONLY")
            let noRead = try await client.send(.POST, "sobjects/Lead", json: ["LastName": "L", "Company": "C"])
            #expect(noRead.status == 404)
            #expect(try noRead.errorCode() == "NOT_FOUND")
            // The org's own rules still see everything: the stored Contact is unchanged.
            let stored = try org.database.query("SELECT LastName FROM Contact", apiVersion: "59.0")
            #expect(String(decoding: stored.recordsJSON, as: UTF8.self).contains("Kept"))
            #expect(try org.database.query("SELECT Id FROM Account", apiVersion: "59.0").totalSize == 1)
        }
    }

    @Test func collectionsCompositeAndTreeRefuseRecordByRecord() async throws {
        try await Self.withOrg { org in
            let client = org.client
            let collection = try await client.send(
                .POST,
                "composite/sobjects",
                json: [
                    "records": [
                        ["attributes": ["type": "Account"], "Name": "Good"],
                        ["attributes": ["type": "Contact"], "LastName": "Refused"],
                        ["attributes": ["type": "Account"], "Name": "Bad", "Industry": "Energy"],
                    ]
                ]
            )
            let results = try #require(try collection.json().arrayValue?.compactMap(\.objectValue))
            #expect(results.map { $0["success"] } == [true, false, false])
            func code(_ result: OrgJSONObject) -> String? {
                result["errors"]?.arrayValue?.first?.objectValue?["statusCode"]?.stringValue
            }
            #expect(code(results[1]) == "INSUFFICIENT_ACCESS_OR_READONLY")
            #expect(code(results[2]) == "INVALID_FIELD_FOR_INSERT_UPDATE")

            let composite = try await client.send(
                .POST,
                "composite",
                json: [
                    "compositeRequest": [
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Contact", "referenceId": "c",
                            "body": ["LastName": "Refused"],
                        ]
                    ]
                ]
            )
            let sub = try #require(
                try composite.json().objectValue?["compositeResponse"]?.arrayValue?.first?.objectValue
            )
            #expect(sub["httpStatusCode"] == .integer(400))
            #expect(
                sub["body"]?.arrayValue?.first?.objectValue?["errorCode"] == "INSUFFICIENT_ACCESS_OR_READONLY"
            )

            let tree = try await client.send(
                .POST,
                "composite/tree/Account",
                json: [
                    "records": [
                        [
                            "attributes": ["type": "Account", "referenceId": "a"], "Name": "Parent",
                            "Contacts": [
                                "records": [
                                    ["attributes": ["type": "Contact", "referenceId": "c"], "LastName": "Kid"]
                                ]
                            ],
                        ]
                    ]
                ]
            )
            #expect(tree.status == 400)
            let treeBody = try #require(try tree.json().objectValue)
            #expect(treeBody["hasErrors"] == true)
            let failed = treeBody["results"]?.arrayValue?.first?.objectValue
            #expect(failed?["referenceId"] == "c")
            #expect(
                failed?["errors"]?.arrayValue?.first?.objectValue?["statusCode"] == "INSUFFICIENT_ACCESS_OR_READONLY"
            )
            let accounts = try org.database.query("SELECT Name FROM Account", apiVersion: "59.0")
            #expect(accounts.totalSize == 1)
            #expect(try org.database.query("SELECT Id FROM Contact", apiVersion: "59.0").totalSize == 0)
        }
    }

    @Test func bulkJobsWriteAndReadAsTheirCreator() async throws {
        try await Self.withOrg { org in
            let client = org.client
            // Bulk API 2.0: a Contact insert fails record by record.
            let created = try await client.send(
                .POST,
                "jobs/ingest",
                json: ["object": "Contact", "operation": "insert"]
            )
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            _ = try await client.send(
                .PUT,
                "jobs/ingest/\(id)/batches",
                body: Data("LastName\nOne\n".utf8),
                headers: [("Content-Type", "text/csv")]
            )
            _ = try await client.send(.PATCH, "jobs/ingest/\(id)", json: ["state": "UploadComplete"])
            var state = ""
            for _ in 0..<500 where state != "JobComplete" && state != "Failed" {
                state = try await client.send(.GET, "jobs/ingest/\(id)").json().objectValue?["state"]?.stringValue ?? ""
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(state == "JobComplete")
            let failures = try BulkCSVReader.records(
                try await client.send(.GET, "jobs/ingest/\(id)/failedResults").body,
                delimiter: UInt8(ascii: ",")
            )
            #expect(failures.count == 2)
            #expect(failures.last?[1].hasPrefix("INSUFFICIENT_ACCESS_OR_READONLY:") == true)

            // Bulk API 2.0 query of a hidden field: refused when the job is created.
            let query = try await client.send(
                .POST,
                "jobs/query",
                json: ["operation": "query", "query": "SELECT AnnualRevenue FROM Account"]
            )
            #expect(query.status == 400)
            #expect(try query.errorCode() == "INVALID_FIELD")

            // Bulk API 1.0: a read-only field fails its record.
            let namespace = "http://www.force.com/2009/06/asyncapi/dataload"
            func v1(_ method: HTTPMethod, _ path: String, _ body: String, _ type: String) async throws -> TestResponse {
                try await client.send(
                    method,
                    "/services/async/59.0/\(path)",
                    body: Data(body.utf8),
                    headers: [("X-SFDC-Session", org.accessToken), ("Content-Type", type)],
                    token: .none
                )
            }
            let job = try BulkXMLReader.parse(
                try await v1(
                    .POST,
                    "job",
                    "<jobInfo xmlns=\"\(namespace)\"><operation>insert</operation><object>Account</object>"
                        + "<contentType>CSV</contentType></jobInfo>",
                    "application/xml"
                ).body
            )
            let jobID = try #require(job.childText("id"))
            let batch = try BulkXMLReader.parse(
                try await v1(.POST, "job/\(jobID)/batch", "Name,Industry\nA,Energy\n", "text/csv").body
            )
            let batchID = try #require(batch.childText("id"))
            var batchState = ""
            for _ in 0..<500 where batchState != "Completed" && batchState != "Failed" {
                let info = try await client.send(
                    .GET,
                    "/services/async/59.0/job/\(jobID)/batch/\(batchID)",
                    headers: [("X-SFDC-Session", org.accessToken)],
                    token: .none
                )
                batchState = try BulkXMLReader.parse(info.body).childText("state") ?? ""
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(batchState == "Completed")
            let results = try BulkCSVReader.records(
                try await client.send(
                    .GET,
                    "/services/async/59.0/job/\(jobID)/batch/\(batchID)/result",
                    headers: [("X-SFDC-Session", org.accessToken)],
                    token: .none
                ).body,
                delimiter: UInt8(ascii: ",")
            )
            #expect(results.count == 2)
            #expect(results.last?[1] == "false")
            #expect(results.last?[3].hasPrefix("INVALID_FIELD_FOR_INSERT_UPDATE:") == true)
            #expect(try org.database.query("SELECT Id FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }

    @Test func aJWTWhoseSubjectIsADeclaredUserActsAsThatUser() async throws {
        let signer = try JWTSigner()
        let configuration = LocalOrgConfiguration(jwtBearer: JWTBearerSettings(certificatePEM: signer.certificatePEM))
        try await LocalOrgFixture.with(configuration: configuration, schema: try Self.schema()) { org in
            let client = org.client
            func token(for subject: String) async throws -> String {
                let claims = JWTSigner.Claims(
                    iss: "any",
                    sub: subject,
                    aud: "https://login.salesforce.com",
                    exp: Int(Date().timeIntervalSince1970) + 180
                )
                let response = try await client.send(
                    .POST,
                    "/services/oauth2/token",
                    body: Data(
                        ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="
                            + (try signer.sign(claims))).utf8
                    ),
                    headers: [("Content-Type", "application/x-www-form-urlencoded")],
                    token: .none
                )
                return try #require(try response.json().objectValue?["access_token"]?.stringValue)
            }
            let restricted = try await token(for: "INTEGRATION@example.com")
            let lead = try await client.send(.GET, "sobjects/Lead/describe", token: .some(restricted))
            #expect(lead.status == 404)
            // Another subject gets the org's own user, as does the start-up token.
            let other = try await token(for: "admin@example.com")
            #expect(try await client.send(.GET, "sobjects/Lead/describe", token: .some(other)).status == 200)
            #expect(try await client.send(.GET, "sobjects/Lead/describe").status == 200)
        }
    }

    @Test func theOrgsOwnTokenStillSeesEverything() async throws {
        try await LocalOrgFixture.with(schema: try Self.schema()) { org in
            let client = org.client
            #expect(try await client.send(.GET, "sobjects/Lead/describe").status == 200)
            let query = try await client.send(.GET, "query?q=SELECT+AnnualRevenue+FROM+Account")
            #expect(query.status == 200)
        }
    }

    @Test func anUndeclaredActingUserIsRefusedAtStart() async throws {
        try await TemporaryDirectory.with { directory in
            let database = try OrgDatabase(directory: directory, schema: try Self.schema())
            var configuration = LocalOrgConfiguration()
            configuration.actingUser = "nobody@example.com"
            let error = try #require(throws: OrgError.self) {
                try LocalOrgServer(configuration: configuration, database: database)
            }
            #expect(error.message.contains("'nobody@example.com' is not declared"))
            #expect(error.message.contains(Self.username))
        }
    }

    @Test(arguments: [
        (
            #"{"profiles": [{"name": "P", "objects": [{"name": "Nope__c", "read": true}]}]}"#,
            "'Nope__c' is not an object of the schema"
        ),
        (
            #"{"profiles": [{"name": "P", "objects": [{"name": "Account", "fields": {"Nope": "read"}}]}]}"#,
            "field 'Nope' is not a field of 'Account'"
        ),
        (
            #"{"profiles": [{"name": "P", "objects": [{"name": "Account", "fields": {"Name": "write"}}]}]}"#,
            "must be \"edit\", \"read\" or \"none\", not 'write'"
        ),
        (#"{"users": [{"username": "u@example.com", "profile": "Missing"}]}"#, "profile 'Missing' is not declared"),
        (
            #"{"profiles": [{"name": "P"}], "users": [{"username": "u@x", "profile": "P", "permissionSets": ["S"]}]}"#,
            "permission set 'S' is not declared"
        ),
    ])
    func theLoaderNamesWhatIsWrong(_ json: String, message: String) throws {
        let error = try #require(throws: OrgError.self) {
            try OrgSchema.standard.merging(json: Data(json.utf8), source: "s.json")
        }
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.message.hasPrefix("s.json: "))
    }

    @Test func theSchemaFileRoundTripsItsUsers() throws {
        let schema = try Self.schema()
        let again = try OrgSchema(objects: []).merging(json: schema.schemaFileData(), source: "round.json")
        #expect(again.users == schema.users)
        #expect(again.profiles == schema.profiles)
        #expect(again.permissionSets == schema.permissionSets)
    }
}
