import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// The data model of a real org, black-box over HTTP: the standard delete cascades and refusals,
/// references to deleted records, label-worded messages, record types and master-detail fields.
struct DataModelEndpointTests {
    private static func schema(_ json: String) throws -> OrgSchema {
        try OrgSchema.standard.merging(json: Data(json.utf8), source: "schema.json")
    }

    private static func errorItem(_ response: TestResponse) throws -> OrgJSONObject {
        try #require(try response.json().arrayValue?.first?.objectValue)
    }

    /// `IsDeleted` of a record read with queryAll, `nil` when the org has no such record.
    private static func isDeleted(_ client: LocalOrgTestClient, _ object: String, _ id: String) async throws -> Bool? {
        let soql = "SELECT+IsDeleted+FROM+\(object)+WHERE+Id='\(id)'"
        let response = try await client.send(.GET, "queryAll?q=\(soql)")
        #expect(response.status == 200, "\(response.text)")
        return try response.json().objectValue?["records"]?.arrayValue?.first?.objectValue?["IsDeleted"]?.boolValue
    }

    @Test func deletingAnAccountDeletesItsContactsOpportunitiesAndActivities() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let account = try await client.create("Account", ["Name": "Acme"])
            let other = try await client.create("Account", ["Name": "Other"])
            let contacts = [
                try await client.create("Contact", ["LastName": "A", "AccountId": .string(account)]),
                try await client.create("Contact", ["LastName": "B", "AccountId": .string(account)]),
            ]
            let otherContact = try await client.create("Contact", ["LastName": "C", "AccountId": .string(other)])
            let open = try await client.create(
                "Opportunity",
                ["Name": "Open", "StageName": "Prospecting", "CloseDate": "2026-01-31", "AccountId": .string(account)]
            )
            let lost = try await client.create(
                "Opportunity",
                ["Name": "Lost", "StageName": "Closed Lost", "CloseDate": "2026-01-31", "AccountId": .string(account)]
            )
            let task = try await client.create("Task", ["Subject": "Call", "WhoId": .string(contacts[0])])

            let response = try await client.send(.DELETE, "sobjects/Account/\(account)")
            #expect(response.status == 204, "\(response.text)")
            for (object, id) in [("Account", account), ("Contact", contacts[0]), ("Contact", contacts[1])]
                + [("Opportunity", open), ("Opportunity", lost), ("Task", task)]
            {
                #expect(try await Self.isDeleted(client, object, id) == true, "\(object) \(id)")
                let read = try await client.send(.GET, "sobjects/\(object)/\(id)")
                let code = try read.errorCode()
                #expect(read.status == 404 && code == "ENTITY_IS_DELETED")
            }
            #expect(try await Self.isDeleted(client, "Contact", otherContact) == false)
            #expect(try await Self.isDeleted(client, "Account", other) == false)
            // The cascade shows in the replication feed like any delete.
            let feed = try await client.send(
                .GET,
                "sobjects/Contact/deleted/?start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z"
            )
            let deleted = try feed.json().objectValue?["deletedRecords"]?.arrayValue?.compactMap {
                $0.objectValue?["id"]?.stringValue
            }
            #expect(Set(deleted ?? []) == Set(contacts))
        }
    }

    @Test func anAccountWithACaseIsDeleteFailedAndNothingIsDeleted() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let account = try await client.create("Account", ["Name": "Acme"])
            let contact = try await client.create("Contact", ["LastName": "A", "AccountId": .string(account)])
            let caseID = try await client.create("Case", ["Subject": "Broken", "AccountId": .string(account)])
            let caseNumber = try await client.send(.GET, "sobjects/Case/\(caseID)?fields=CaseNumber")
            let number = try #require(try caseNumber.json().objectValue?["CaseNumber"]?.stringValue)

            let response = try await client.send(.DELETE, "sobjects/Account/\(account)")
            #expect(response.status == 400)
            let error = try Self.errorItem(response)
            #expect(error["errorCode"] == "DELETE_FAILED")
            #expect(
                error["message"]?.stringValue
                    == "Your attempt to delete Acme could not be completed because it is associated with the "
                    + "following cases.: \(number)"
            )
            for (object, id) in [("Account", account), ("Contact", contact), ("Case", caseID)] {
                #expect(try await Self.isDeleted(client, object, id) == false, "\(object)")
            }
            // The collections delete reports it per record.
            let collection = try await client.send(.DELETE, "composite/sobjects?ids=\(account)")
            let result = try #require(try collection.json().arrayValue?.first?.objectValue)
            #expect(result["success"] == false)
            #expect(result["errors"]?.arrayValue?.first?.objectValue?["statusCode"] == "DELETE_FAILED")
            // Once the case is gone, the account can go.
            #expect(try await client.send(.DELETE, "sobjects/Case/\(caseID)").status == 204)
            #expect(try await client.send(.DELETE, "sobjects/Account/\(account)").status == 204)
            #expect(try await Self.isDeleted(client, "Contact", contact) == true)
        }
    }

    @Test func aClosedWonOpportunityBlocksItsAccountsDelete() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let account = try await client.create("Account", ["Name": "Acme"])
            let contact = try await client.create("Contact", ["LastName": "A", "AccountId": .string(account)])
            let won = try await client.create(
                "Opportunity",
                [
                    "Name": "Big deal", "StageName": "Closed Won", "CloseDate": "2026-01-31",
                    "AccountId": .string(account),
                ]
            )
            let read = try await client.send(.GET, "sobjects/Opportunity/\(won)?fields=IsWon,IsClosed")
            #expect(try read.json().objectValue?["IsWon"] == true && read.json().objectValue?["IsClosed"] == true)
            let response = try await client.send(.DELETE, "sobjects/Account/\(account)")
            #expect(response.status == 400)
            let error = try Self.errorItem(response)
            #expect(error["errorCode"] == "DELETE_FAILED")
            #expect(error["message"]?.stringValue?.hasSuffix("following opportunities.: Big deal") == true)
            #expect(try await Self.isDeleted(client, "Contact", contact) == false)
            #expect(try await Self.isDeleted(client, "Opportunity", won) == false)
        }
    }

    @Test func aReferenceToADeletedRecordIsEntityIsDeleted() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let account = try await client.create("Account", ["Name": "Gone"])
            #expect(try await client.send(.DELETE, "sobjects/Account/\(account)").status == 204)
            let response = try await client.send(
                .POST,
                "sobjects/Contact",
                json: ["LastName": "A", "AccountId": .string(account)]
            )
            #expect(response.status == 400)
            let error = try Self.errorItem(response)
            #expect(error["errorCode"] == "ENTITY_IS_DELETED")
            #expect(error["fields"] == ["AccountId"])
            // An ID that never existed in this org keeps INVALID_CROSS_REFERENCE_KEY.
            let unknown = String(account.prefix(14)) + (account.dropFirst(14).first == "z" ? "y" : "z")
            let never = try await client.send(
                .POST,
                "sobjects/Contact",
                json: ["LastName": "A", "AccountId": .string(OrgRecordID.caseSafe(unknown))]
            )
            #expect(try Self.errorItem(never)["errorCode"] == "INVALID_CROSS_REFERENCE_KEY")
            // The same in a collection create.
            let collection = try await client.send(
                .POST,
                "composite/sobjects",
                json: [
                    "allOrNone": false,
                    "records": [["attributes": ["type": "Contact"], "LastName": "B", "AccountId": .string(account)]],
                ]
            )
            let result = try #require(try collection.json().arrayValue?.first?.objectValue)
            #expect(result["errors"]?.arrayValue?.first?.objectValue?["statusCode"] == "ENTITY_IS_DELETED")
        }
    }

    @Test func messagesNameTheFieldByItsLabel() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(
                .POST,
                "sobjects/Account",
                json: ["Name": .string(String(repeating: "x", count: 256))]
            )
            let error = try Self.errorItem(response)
            #expect(error["errorCode"] == "STRING_TOO_LONG")
            #expect(error["message"] == "Account Name: data value too large (max length=255)")
            #expect(error["fields"] == ["Name"])
            let describe = try await org.client.send(.GET, "sobjects/Contact/describe")
            let fields = try #require(try describe.json().objectValue?["fields"]?.arrayValue)
            let accountID = fields.first { $0.objectValue?["name"] == "AccountId" }?.objectValue
            #expect(accountID?["label"] == "Account ID")
        }
    }

    private static let recordTypeSchema = """
        {"objects": [{"name": "Account", "recordTypes": [
          {"developerName": "Business", "name": "Business Account", "default": true},
          {"developerName": "Partner", "name": "Partner Account"},
          {"developerName": "Retired", "active": false}
        ]}, {"name": "Contact", "recordTypes": [{"developerName": "Employee"}]}]}
        """

    @Test func recordTypesAreDescribedQueriedAndEnforced() async throws {
        let schema = try Self.schema(Self.recordTypeSchema)
        let firstIDs = try await LocalOrgFixture.with(schema: schema) { org in
            let client = org.client
            let describe = try await client.send(.GET, "sobjects/Account/describe")
            let body = try #require(try describe.json().objectValue)
            let infos = try #require(body["recordTypeInfos"]?.arrayValue?.compactMap { $0.objectValue })
            #expect(infos.map { $0["developerName"] } == ["Business", "Partner", "Retired", "Master"])
            #expect(infos.map { $0["defaultRecordTypeMapping"] } == [true, false, false, false])
            #expect(infos.map { $0["master"] } == [false, false, false, true])
            #expect(infos.map { $0["active"] } == [true, true, false, true])
            #expect(infos[0]["name"] == "Business Account")
            #expect(infos[3]["recordTypeId"] == "012000000000000AAA")
            let fields = try #require(body["fields"]?.arrayValue?.compactMap { $0.objectValue })
            let recordTypeField = try #require(fields.first { $0["name"] == "RecordTypeId" })
            #expect(recordTypeField["referenceTo"] == ["RecordType"])
            #expect(recordTypeField["relationshipName"] == "RecordType")
            let ids = infos.compactMap { $0["recordTypeId"]?.stringValue }
            let (business, partner, retired) = (ids[0], ids[1], ids[2])

            let query = try await client.send(
                .GET,
                "query?q=SELECT+Id,DeveloperName,Name,IsActive,NamespacePrefix+FROM+RecordType"
                    + "+WHERE+SobjectType='Account'+ORDER+BY+DeveloperName"
            )
            let records = try #require(
                try query.json().objectValue?["records"]?.arrayValue?.compactMap { $0.objectValue }
            )
            #expect(records.map { $0["Id"]?.stringValue } == [business, partner, retired])
            #expect(records.map { $0["IsActive"] } == [true, true, false])
            #expect(records[0]["NamespacePrefix"] == .null)

            // No RecordTypeId: the default one; a given active one is kept.
            let plain = try await client.create("Account", ["Name": "A"])
            let typed = try await client.create("Account", ["Name": "B", "RecordTypeId": .string(partner)])
            let read = try await client.send(
                .GET,
                "query?q=SELECT+Id,RecordType.DeveloperName+FROM+Account+ORDER+BY+Name"
            )
            let rows = try #require(try read.json().objectValue?["records"]?.arrayValue?.compactMap { $0.objectValue })
            #expect(rows.map { $0["Id"]?.stringValue } == [plain, typed])
            #expect(rows.map { $0["RecordType"]?.objectValue?["DeveloperName"] } == ["Business", "Partner"])

            // Inactive, another object's and unknown record types are refused, worded as a real org words it.
            let contactTypes = try await client.send(
                .GET,
                "query?q=SELECT+Id+FROM+RecordType+WHERE+SobjectType='Contact'"
            )
            let employee = try #require(
                try contactTypes.json().objectValue?["records"]?.arrayValue?.first?.objectValue?["Id"]?.stringValue
            )
            for bad in [retired, employee, RecordTypeConstants.master] {
                let response = try await client.send(
                    .POST,
                    "sobjects/Account",
                    json: ["Name": "C", "RecordTypeId": .string(bad)]
                )
                #expect(response.status == 400)
                let error = try Self.errorItem(response)
                #expect(error["errorCode"] == "INVALID_CROSS_REFERENCE_KEY")
                #expect(
                    error["message"]?.stringValue == "Record Type ID: this ID value isn't valid for the user: \(bad)"
                )
            }
            // Record types are metadata: not writable through the data API.
            let write = try await client.send(
                .POST,
                "sobjects/RecordType",
                json: ["Name": "X", "DeveloperName": "X", "SobjectType": "Account"]
            )
            #expect(write.status == 400)
            return ids
        }
        // Another org made from the same schema file has other record type IDs.
        let secondIDs = try await LocalOrgFixture.with(schema: schema) { org in
            let describe = try await org.client.send(.GET, "sobjects/Account/describe")
            return try #require(
                try describe.json().objectValue?["recordTypeInfos"]?.arrayValue?.compactMap {
                    $0.objectValue?["recordTypeId"]?.stringValue
                }
            )
        }
        #expect(firstIDs.count == 4 && secondIDs.count == 4)
        #expect(Set(firstIDs.dropLast()).isDisjoint(with: secondIDs.dropLast()))
    }

    private static let masterDetailSchema = """
        {"objects": [
          {"name": "Invoice__c", "fields": [{"name": "Total__c", "type": "currency"}]},
          {"name": "Line__c", "fields": [
            {"name": "Invoice__c", "type": "reference", "referenceTo": "Invoice__c", "relationshipOrder": 0,
             "childRelationshipName": "Lines__r", "updateable": false},
            {"name": "Amount__c", "type": "currency"}
          ]}
        ]}
        """

    @Test func masterDetailFieldsAreRequiredAndDeletingTheMasterDeletesTheDetails() async throws {
        try await LocalOrgFixture.with(schema: try Self.schema(Self.masterDetailSchema)) { org in
            let client = org.client
            let describe = try await client.send(.GET, "sobjects/Line__c/describe")
            let fields = try #require(
                try describe.json().objectValue?["fields"]?.arrayValue?.compactMap { $0.objectValue }
            )
            let master = try #require(fields.first { $0["name"] == "Invoice__c" })
            #expect(master["type"] == "reference" && master["relationshipOrder"] == 0)
            #expect(master["cascadeDelete"] == true && master["nillable"] == false && master["updateable"] == false)
            let invoiceDescribe = try await client.send(.GET, "sobjects/Invoice__c/describe")
            let relationships = try #require(
                try invoiceDescribe.json().objectValue?["childRelationships"]?.arrayValue?.compactMap {
                    $0.objectValue
                }
            )
            let lines = try #require(relationships.first { $0["childSObject"] == "Line__c" })
            #expect(lines["relationshipName"] == "Lines__r" && lines["cascadeDelete"] == true)

            let orphan = try await client.send(.POST, "sobjects/Line__c", json: ["Name": "L0", "Amount__c": 1])
            #expect(try Self.errorItem(orphan)["errorCode"] == "REQUIRED_FIELD_MISSING")
            let invoice = try await client.create("Invoice__c", ["Name": "INV-1"])
            let keep = try await client.create("Invoice__c", ["Name": "INV-2"])
            let details = [
                try await client.create("Line__c", ["Name": "L1", "Invoice__c": .string(invoice)]),
                try await client.create("Line__c", ["Name": "L2", "Invoice__c": .string(invoice)]),
            ]
            let kept = try await client.create("Line__c", ["Name": "L3", "Invoice__c": .string(keep)])
            let subquery = try await client.send(
                .GET,
                "query?q=SELECT+Id,(SELECT+Id+FROM+Lines__r)+FROM+Invoice__c+WHERE+Id='\(invoice)'"
            )
            let nested = try subquery.json().objectValue?["records"]?.arrayValue?.first?.objectValue?["Lines__r"]
            #expect(nested?.objectValue?["totalSize"] == 2)
            #expect(try await client.send(.DELETE, "sobjects/Invoice__c/\(invoice)").status == 204)
            for id in details { #expect(try await Self.isDeleted(client, "Line__c", id) == true) }
            #expect(try await Self.isDeleted(client, "Line__c", kept) == false)
            let late = try await client.send(
                .POST,
                "sobjects/Line__c",
                json: ["Name": "L4", "Invoice__c": .string(invoice)]
            )
            #expect(try Self.errorItem(late)["errorCode"] == "ENTITY_IS_DELETED")
        }
    }

    @Test func describeExposesTheRealOrgProperties() async throws {
        try await LocalOrgFixture.with { org in
            let describe = try await org.client.send(.GET, "sobjects/Account/describe")
            let body = try #require(try describe.json().objectValue)
            for key in ["label", "keyPrefix", "queryable", "createable", "updateable", "deletable"] {
                #expect(body[key] != nil, "\(key)")
            }
            let relationships = try #require(body["childRelationships"]?.arrayValue?.compactMap { $0.objectValue })
            let byName = Dictionary(
                relationships.compactMap { relationship in
                    relationship["relationshipName"]?.stringValue.map { ($0, relationship) }
                },
                uniquingKeysWith: { first, _ in first }
            )
            #expect(byName["Contacts"]?["cascadeDelete"] == true && byName["Contacts"]?["field"] == "AccountId")
            #expect(byName["Opportunities"]?["cascadeDelete"] == true)
            #expect(byName["Cases"]?["cascadeDelete"] == false && byName["Cases"]?["restrictedDelete"] == true)
            let fields = try #require(body["fields"]?.arrayValue?.compactMap { $0.objectValue })
            let keys = [
                "label", "type", "length", "createable", "updateable", "nillable", "defaultedOnCreate", "externalId",
                "idLookup", "unique", "referenceTo", "relationshipName", "relationshipOrder", "cascadeDelete",
                "picklistValues",
            ]
            for field in fields {
                for key in keys { #expect(field[key] != nil, "\(field["name"] ?? .null).\(key)") }
            }
            let opportunity = try await org.client.send(.GET, "sobjects/Opportunity/describe")
            let stage = try opportunity.json().objectValue?["fields"]?.arrayValue?.first {
                $0.objectValue?["name"] == "StageName"
            }
            let values = stage?.objectValue?["picklistValues"]?.arrayValue?.compactMap { $0.objectValue?["value"] }
            #expect(values?.contains("Closed Won") == true && values?.contains("Prospecting") == true)
        }
    }

    @Test func anExactModeSchemaReplacesTheStandardObjects() async throws {
        let file = """
            {"mode": "exact", "objects": [
              {"name": "Account", "label": "Account", "keyPrefix": "001", "fields": [
                {"name": "Name", "label": "Account Name", "type": "string", "length": 80, "required": true},
                {"name": "Tier", "type": "picklist", "picklistValues": ["Gold", "Silver"]}
              ], "recordTypes": [{"developerName": "Customer", "default": true}]},
              {"name": "Widget__c", "keyPrefix": "a07", "deletable": false, "fields": [
                {"name": "Name", "type": "string", "length": 80, "custom": false},
                {"name": "Account__c", "type": "reference", "referenceTo": "Account", "relationshipName": "Account__r",
                 "childRelationshipName": "Widgets__r"},
                {"name": "Part__c", "type": "reference", "referenceTo": "Part__c"}
              ]}
            ]}
            """
        let schema = try OrgSchema.standard.merging(json: Data(file.utf8), source: "exact.json")
        try await LocalOrgFixture.with(schema: schema) { org in
            let client = org.client
            let global = try await client.send(.GET, "sobjects")
            let names = try global.json().objectValue?["sobjects"]?.arrayValue?.compactMap {
                $0.objectValue?["name"]?.stringValue
            }
            #expect(names == ["Account", "Widget__c", "User", "Organization", "RecordType"])
            let describe = try await client.send(.GET, "sobjects/Account/describe")
            let fields = try describe.json().objectValue?["fields"]?.arrayValue?.compactMap {
                $0.objectValue?["name"]?.stringValue
            }
            #expect(
                fields == [
                    "Id", "IsDeleted", "CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById",
                    "SystemModstamp", "Name", "Tier", "RecordTypeId",
                ]
            )
            let tooLong = try await client.send(
                .POST,
                "sobjects/Account",
                json: ["Name": .string(String(repeating: "x", count: 81))]
            )
            #expect(try Self.errorItem(tooLong)["message"] == "Account Name: data value too large (max length=80)")
            let industry = try await client.send(.POST, "sobjects/Account", json: ["Name": "A", "Industry": "Banking"])
            #expect(try Self.errorItem(industry)["errorCode"] == "INVALID_FIELD")
            #expect(try await client.send(.POST, "sobjects/Contact", json: ["LastName": "A"]).status == 404)
            let account = try await client.create("Account", ["Name": "A", "Tier": "Gold"])
            let widget = try await client.create("Widget__c", ["Name": "W", "Account__c": .string(account)])
            let refused = try await client.send(.DELETE, "sobjects/Widget__c/\(widget)")
            #expect(refused.status == 400)
            let widgetDescribe = try await client.send(.GET, "sobjects/Widget__c/describe")
            #expect(try widgetDescribe.json().objectValue?["deletable"] == false)
        }
    }

    @Test func theSchemaFileOfASchemaReadsBackEqualAndIsDeterministic() throws {
        let schema = try Self.schema(Self.recordTypeSchema + "")
            .merging(json: Data(Self.masterDetailSchema.utf8), source: "md.json")
        let data = schema.schemaFileData()
        #expect(data == schema.schemaFileData())
        let read = try OrgSchema(objects: []).merging(json: data, source: "pulled.json")
        #expect(read == schema)
        #expect(read.schemaFileData() == data)
        // Keys sorted at every level.
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"mode\": \"exact\",\n  \"objects\": ["))
        let root = try #require(try OrgJSONValue.decode(data).objectValue)
        let account = try #require(root["objects"]?.arrayValue?.first?.objectValue)
        #expect(account.keys == account.keys.sorted())
    }
}

/// IDs every org shares.
private enum RecordTypeConstants {
    static let master = OrgRecordType.masterID
}
