import Migration
import SyncConfig
import Testing

struct MigrationOrderTests {
    private func object(_ name: String, fields: [String]) -> MigrationObject {
        MigrationObject(
            sobject: name,
            soup: name.lowercased(),
            syncDowns: ["\(name)Down"],
            syncUp: "\(name)Up",
            createFields: fields,
            updateFields: fields
        )
    }

    @Test func parentsComeFirstWhateverTheConfigOrder() throws {
        let objects = [
            object("Project__c", fields: ["Name", "Account__c", "Contact__c"]),
            object("Contact", fields: ["LastName", "AccountId"]),
            object("Account", fields: ["Name"]),
        ]
        let references: [String: [SourceReferenceField]] = [
            "project__c": [
                .init(name: "Account__c", referenceTo: ["Account"], isNillable: false),
                .init(name: "Contact__c", referenceTo: ["Contact"], isNillable: true),
            ],
            "contact": [.init(name: "AccountId", referenceTo: ["Account"], isNillable: true)],
        ]
        let ordered = try MigrationOrder.order(objects, referenceFields: references)
        #expect(ordered.map(\.sobject) == ["Account", "Contact", "Project__c"])
        #expect(ordered[2].references.map(\.field) == ["Account__c", "Contact__c"])
        #expect(ordered.allSatisfy { $0.references.allSatisfy { !$0.isDeferred } })
    }

    @Test func aNillableSelfReferenceIsWrittenInTheSecondPass() throws {
        let ordered = try MigrationOrder.order(
            [object("Account", fields: ["Name", "ParentId"])],
            referenceFields: ["account": [.init(name: "ParentId", referenceTo: ["Account"], isNillable: true)]]
        )
        #expect(
            ordered[0].references == [
                MigrationReference(field: "ParentId", referenceTo: ["Account"], isNillable: true, isDeferred: true)
            ]
        )
        #expect(ordered[0].parentFirstField == nil)
    }

    @Test func aRequiredSelfReferenceOrdersRecordsParentsFirst() throws {
        let ordered = try MigrationOrder.order(
            [object("Region__c", fields: ["Name", "Parent__c"])],
            referenceFields: ["region__c": [.init(name: "Parent__c", referenceTo: ["Region__c"], isNillable: false)]]
        )
        #expect(ordered[0].parentFirstField == "Parent__c")
        #expect(ordered[0].references.allSatisfy { !$0.isDeferred })
    }

    @Test func aCycleIsBrokenAtItsNillableReference() throws {
        // A.B__c → B (nillable), B.A__c → A (required): B needs A first, so A's reference waits.
        let ordered = try MigrationOrder.order(
            [object("B__c", fields: ["A__c"]), object("A__c", fields: ["B__c"])],
            referenceFields: [
                "a__c": [.init(name: "B__c", referenceTo: ["B__c"], isNillable: true)],
                "b__c": [.init(name: "A__c", referenceTo: ["A__c"], isNillable: false)],
            ]
        )
        #expect(ordered.map(\.sobject) == ["A__c", "B__c"])
        #expect(ordered[0].references.first?.isDeferred == true)
        #expect(ordered[1].references.first?.isDeferred == false)
    }

    @Test func aCycleOfRequiredReferencesIsRefused() {
        #expect(throws: MigrationConfigError.self) {
            try MigrationOrder.order(
                [object("B__c", fields: ["A__c"]), object("A__c", fields: ["B__c"])],
                referenceFields: [
                    "a__c": [.init(name: "B__c", referenceTo: ["B__c"], isNillable: false)],
                    "b__c": [.init(name: "A__c", referenceTo: ["A__c"], isNillable: false)],
                ]
            )
        }
    }

    @Test func referencesToObjectsNotWrittenAreNotRemapped() throws {
        let ordered = try MigrationOrder.order(
            [object("Contact", fields: ["LastName", "OwnerId"])],
            referenceFields: ["contact": [.init(name: "OwnerId", referenceTo: ["User"], isNillable: false)]]
        )
        #expect(ordered[0].references.isEmpty)
    }

    @Test func configGivesSoupsObjectsFieldsAndKeys() throws {
        let syncs = SyncsConfig(syncs: [
            SyncDefinition(
                name: "accountsDown",
                type: .syncDown,
                soupName: "accounts",
                target: .down(.soql(SOQLSyncDownTarget(query: "SELECT Id, Name, Owner.Name FROM Account")))
            ),
            SyncDefinition(
                name: "moreAccountsDown",
                type: .syncDown,
                soupName: "accounts",
                target: .down(.soql(SOQLSyncDownTarget(query: "SELECT Id, Industry FROM Account WHERE X__c = 1")))
            ),
            SyncDefinition(
                name: "accountsUp",
                type: .syncUp,
                soupName: "accounts",
                target: .up(SyncUpTarget(matchFields: ["Name"]))
            ),
            SyncDefinition(
                name: "usersDown",
                type: .syncDown,
                soupName: "users",
                target: .down(.soql(SOQLSyncDownTarget(query: "SELECT Id, Username FROM User")))
            ),
        ])
        let sources = try MigrationSources(config: syncs)
        #expect(sources.syncDowns.map(\.name) == ["accountsDown", "moreAccountsDown", "usersDown"])
        #expect(sources.objects.count == 2)
        let accounts = try #require(sources.objects.first)
        #expect(accounts.sobject == "Account")
        #expect(accounts.syncDowns == ["accountsDown", "moreAccountsDown"])
        #expect(accounts.syncUp == "accountsUp")
        // No field list: the union of the plain fields the sync downs select.
        #expect(accounts.createFields == ["Id", "Name", "Industry"])
        #expect(accounts.matchFields == ["Name"])
        #expect(sources.objects[1].isWritten == false)

        let only = try MigrationSources(config: syncs, only: ["accountsUp"])
        #expect(only.syncDowns.map(\.name) == ["accountsDown", "moreAccountsDown"])
        #expect(throws: MigrationConfigError.self) { try MigrationSources(config: syncs, only: ["nope"]) }
    }
}

struct IDMapExportTests {
    @Test func csvLinesFollowRFC4180() {
        #expect(IDMapExport.line(["a", "b"]) == "a,b\r\n")
        #expect(
            IDMapExport.line(["x,y", "say \"hi\"", "two\nlines"]) == "\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n"
        )
        #expect(IDMapExport.header == ["sobject", "source_org", "target_org", "source_id", "target_id"])
    }
}

struct WrittenElsewhereTests {
    @Test func referencesToObjectsOfSyncUpsLeftOutByOnlyGoThroughTheIDMap() throws {
        let contacts = MigrationObject(
            sobject: "Contact",
            soup: "contacts",
            syncUp: "contactsUp",
            createFields: ["LastName", "AccountId"],
            updateFields: ["LastName"]
        )
        let ordered = try MigrationOrder.order(
            [contacts],
            referenceFields: ["contact": [.init(name: "AccountId", referenceTo: ["Account"], isNillable: true)]],
            writtenElsewhere: ["Account"]
        )
        #expect(
            ordered[0].references == [
                MigrationReference(field: "AccountId", referenceTo: ["Account"], isNillable: true, isDeferred: false)
            ]
        )
    }
}
