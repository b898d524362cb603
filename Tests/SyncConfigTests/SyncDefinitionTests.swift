import SyncConfig
import Testing

/// Defaults, SDK clamps, kind selection and the normalised (persisted) JSON of definitions.
struct SyncDefinitionTests {
    private func syncs(_ json: String) throws -> (LoadedConfig, [SyncDefinition]) {
        let loaded = try ConfigFixture.load(["usersyncs.json": json])
        return (loaded, loaded.userSyncs?.syncs ?? [])
    }

    @Test func defaultsApplyWhenKeysAreAbsent() throws {
        let (loaded, syncs) = try syncs(
            """
            {"syncs": [
              {"syncName": "down", "syncType": "syncDown", "soupName": "a",
               "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Account"}},
              {"syncName": "up", "syncType": "syncUp", "soupName": "a", "target": {},
               "options": {"mergeMode": "LEAVE_IF_CHANGED"}}
            ]}
            """
        )
        #expect(loaded.diagnostics.map(\.code) == [.missingMergeMode])
        guard case .down(.soql(let soql)) = syncs[0].target, case .up(let up) = syncs[1].target else {
            Issue.record("unexpected targets")
            return
        }
        #expect(soql.maxBatchSize == 2000)
        #expect(soql.idFieldName == "Id")
        #expect(soql.modificationDateFieldName == "LastModifiedDate")
        #expect(syncs[0].options == SyncOptions(fieldlist: nil, mergeMode: .overwrite, cleanGhosts: false))
        #expect(up.kind == .collection)
        #expect(up.maxBatchSize == 200)
        #expect(up.createFieldlist == nil)
        #expect(syncs[1].options.mergeMode == .leaveIfChanged)
        #expect(syncs[1].dependsOn.isEmpty)
    }

    @Test func sdkClampsApplyWithWarnings() throws {
        let (loaded, syncs) = try syncs(
            """
            {"syncs": [
              {"syncName": "small", "syncType": "syncDown", "soupName": "a",
               "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM A", "maxBatchSize": 10},
               "options": {"mergeMode": "OVERWRITE"}},
              {"syncName": "refresh", "syncType": "syncDown", "soupName": "a",
               "target": {"type": "refresh", "sobjectType": "A", "fieldlist": ["Name"], "soupName": "a",
                          "countIdsPerSoql": 900},
               "options": {"mergeMode": "OVERWRITE"}},
              {"syncName": "ios", "syncType": "syncDown", "soupName": "a",
               "target": {"type": "refresh", "sobjectType": "A", "fieldlist": ["Name"], "soupName": "a",
                          "coundIdsPerSoql": 300},
               "options": {"mergeMode": "OVERWRITE"}},
              {"syncName": "briefcase", "syncType": "syncDown", "soupName": "a",
               "target": {"type": "briefcase", "countIdsPerRetrieve": 5000,
                          "infos": [{"sobjectType": "A", "soupName": "a", "fieldlist": ["Name"]}]},
               "options": {"mergeMode": "OVERWRITE"}},
              {"syncName": "batch", "syncType": "syncUp", "soupName": "a",
               "target": {"iOSImpl": "SFBatchSyncUpTarget", "maxBatchSize": 100},
               "options": {"mergeMode": "OVERWRITE"}},
              {"syncName": "collection", "syncType": "syncUp", "soupName": "a",
               "target": {"type": "collection", "maxBatchSize": 50},
               "options": {"mergeMode": "OVERWRITE"}}
            ]}
            """
        )
        #expect(
            ConfigFixture.summary(loaded) == [
                "3:94: warning: syncs[0].target.maxBatchSize: value-clamped",
                "7:34: warning: syncs[1].target.countIdsPerSoql: value-clamped",
                "14:59: warning: syncs[3].target.countIdsPerRetrieve: value-clamped",
                "18:65: warning: syncs[4].target.maxBatchSize: value-clamped",
            ]
        )
        guard case .down(.soql(let soql)) = syncs[0].target,
            case .down(.refresh(let refresh)) = syncs[1].target,
            case .down(.refresh(let ios)) = syncs[2].target,
            case .down(.briefcase(let briefcase)) = syncs[3].target,
            case .up(let batch) = syncs[4].target,
            case .up(let collection) = syncs[5].target
        else {
            Issue.record("unexpected targets")
            return
        }
        #expect(soql.maxBatchSize == 200)
        #expect(refresh.countIdsPerSoql == 500)
        #expect(ios.countIdsPerSoql == 300)
        #expect(syncs[2].normalizedTargetJSON.objectValue?["countIdsPerSoql"] == .integer(300))
        #expect(syncs[2].normalizedTargetJSON.objectValue?["coundIdsPerSoql"] == nil)
        #expect(briefcase.countIdsPerRetrieve == 2000)
        #expect((batch.kind, batch.maxBatchSize) == (.batch, 25))
        #expect((collection.kind, collection.maxBatchSize) == (.collection, 50))
    }

    @Test(arguments: [
        ("SFSyncUpTarget", SyncUpTargetKind.single),
        ("com.salesforce.androidsdk.mobilesync.target.SyncUpTarget", .single),
        ("SFBatchSyncUpTarget", .batch),
        ("com.salesforce.androidsdk.mobilesync.target.BatchSyncUpTarget", .batch),
        ("SFCollectionSyncUpTarget", .collection),
        ("com.salesforce.androidsdk.mobilesync.target.CollectionSyncUpTarget", .collection),
    ])
    func implNamesOfBothPlatformsSelectTheKind(_ name: String, _ kind: SyncUpTargetKind) throws {
        let key = name.hasPrefix("SF") ? "iOSImpl" : "androidImpl"
        let (loaded, syncs) = try syncs(
            """
            {"syncs": [{"syncName": "up", "syncType": "syncUp", "soupName": "a",
                        "target": {"\(key)": "\(name)"}, "options": {"mergeMode": "OVERWRITE"}}]}
            """
        )
        #expect(loaded.diagnostics.isEmpty)
        guard case .up(let target)? = syncs.first?.target else {
            Issue.record("no sync up")
            return
        }
        #expect(target.kind == kind)
        let names = try #require(TargetImplRegistry.implNames(for: kind))
        #expect(target.normalizedJSON.objectValue?["iOSImpl"] == .string(names.iOS))
        #expect(target.normalizedJSON.objectValue?["androidImpl"] == .string(names.android))
    }

    @Test func registeredCustomTargetsAreAccepted() throws {
        let loaded = try ConfigFixture.load(
            [
                "usersyncs.json": """
                {"syncs": [{"syncName": "up", "syncType": "syncUp", "soupName": "a",
                            "target": {"iOSImpl": "MyUp", "androidImpl": "com.example.MyUp", "batch": 3},
                            "options": {"mergeMode": "OVERWRITE"}}]}
                """
            ],
            registry: TargetImplRegistry(customImplNames: ["MyUp", "com.example.MyUp"])
        )
        #expect(loaded.diagnostics.isEmpty)
        guard case .up(let target)? = loaded.userSyncs?.syncs.first?.target else {
            Issue.record("no sync up")
            return
        }
        #expect(target.kind == .custom(implName: "MyUp"))
        #expect(
            target.normalizedJSON.jsonText()
                == #"{"androidImpl":"com.example.MyUp","batch":3,"iOSImpl":"MyUp","idFieldName":"Id","modificationDateFieldName":"LastModifiedDate"}"#
        )
    }

    /// The objects of a target (`parent`, `children`, briefcase `infos`) normalise with their own
    /// keys, the keys every object has and their unknown keys.
    @Test func targetObjectsNormaliseWithEveryKey() throws {
        let (_, syncs) = try syncs(
            """
            {"syncs": [
              {"syncName": "pc", "syncType": "syncDown", "soupName": "accounts",
               "target": {"type": "parent_children", "relationshipType": "LOOKUP",
                          "parent": {"sobjectType": "Account", "soupName": "accounts", "idFieldName": "IdX",
                                     "externalIdFieldName": "Ext__c", "note": 1},
                          "parentFieldlist": ["Id"], "childrenFieldlist": ["Id"],
                          "children": {"sobjectType": "Contact", "sobjectTypePlural": "Contacts",
                                       "soupName": "contacts", "parentIdFieldName": "AccountId",
                                       "modificationDateFieldName": "SystemModstamp", "tag": "x"}},
               "options": {"mergeMode": "OVERWRITE"}},
              {"syncName": "bc", "syncType": "syncDown", "soupName": "a",
               "target": {"type": "briefcase",
                          "infos": [{"sobjectType": "Account", "soupName": "accounts", "fieldlist": ["Name"],
                                     "idFieldName": "Key"}]},
               "options": {"mergeMode": "OVERWRITE"}}
            ]}
            """
        )
        let target = try #require(syncs.first?.normalizedTargetJSON.objectValue)
        #expect(
            target["parent"]?.jsonText()
                == #"{"externalIdFieldName":"Ext__c","idFieldName":"IdX","modificationDateFieldName":"LastModifiedDate","note":1,"sobjectType":"Account","soupName":"accounts"}"#
        )
        #expect(
            target["children"]?.jsonText()
                == #"{"idFieldName":"Id","modificationDateFieldName":"SystemModstamp","parentIdFieldName":"AccountId","sobjectType":"Contact","sobjectTypePlural":"Contacts","soupName":"contacts","tag":"x"}"#
        )
        #expect(
            syncs.last?.normalizedTargetJSON.objectValue?["infos"]?.jsonText()
                == #"[{"fieldlist":["Name"],"idFieldName":"Key","modificationDateFieldName":"LastModifiedDate","sobjectType":"Account","soupName":"accounts"}]"#
        )
    }

    @Test func unknownKeysRoundTripVerbatim() throws {
        let (loaded, syncs) = try syncs(
            """
            {"syncs": [
              {"syncName": "down", "syncType": "syncDown", "soupName": "a", "owner": "team-x",
               "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM A",
                          "hint": {"n": [1, 2.5, true, null]}},
               "options": {"mergeMode": "OVERWRITE", "retries": 3}}
            ]}
            """
        )
        #expect(loaded.diagnostics.map(\.code) == [.unknownKey, .unknownKey, .unknownKey])
        let sync = try #require(syncs.first)
        #expect(sync.extraKeys == ["owner": .string("team-x")])
        #expect(sync.options.extraKeys == ["retries": .integer(3)])
        #expect(
            sync.normalizedJSON.jsonText() == """
                {"options":{"mergeMode":"OVERWRITE","retries":3},"owner":"team-x","soupName":"a","syncName":"down",\
                "syncType":"syncDown","target":{"hint":{"n":[1,2.5,true,null]},"idFieldName":"Id","maxBatchSize":2000,\
                "modificationDateFieldName":"LastModifiedDate","query":"SELECT Id, LastModifiedDate FROM A","type":"soql"}}
                """
        )
        // Reading the normalised form back gives the same definition.
        let (again, reread) = try self.syncs(#"{"syncs": ["# + sync.normalizedJSON.jsonText() + "]}")
        #expect(again.diagnostics.map(\.code) == [.unknownKey, .unknownKey, .unknownKey])
        #expect(reread.first?.normalizedJSON == sync.normalizedJSON)
        #expect(reread.first?.target == sync.target)
    }

    @Test func parentChildrenSyncUpTakesTheParentsFieldNames() throws {
        let (loaded, syncs) = try syncs(
            """
            {"syncs": [{"syncName": "tree", "syncType": "syncUp", "soupName": "accounts",
              "target": {"type": "parent_children",
                         "parent": {"sobjectType": "Account", "soupName": "accounts", "idFieldName": "IdX"},
                         "children": {"sobjectType": "Contact", "sobjectTypePlural": "Contacts",
                                      "soupName": "contacts", "parentIdFieldName": "AccountId"},
                         "relationshipType": "LOOKUP", "childrenCreateFieldlist": ["LastName"]},
              "options": {"mergeMode": "OVERWRITE"}}]}
            """
        )
        #expect(loaded.diagnostics.isEmpty)
        guard case .up(let target)? = syncs.first?.target else {
            Issue.record("no sync up")
            return
        }
        #expect(target.kind == .parentChildren)
        #expect(target.idFieldName == "IdX")
        #expect(target.maxBatchSize == 1)
        #expect(target.parentChildren?.relationshipType == .lookup)
        #expect(target.parentChildren?.children.parentIdFieldName == "AccountId")
        #expect(target.parentChildren?.childrenCreateFieldlist == ["LastName"])
    }

    @Test func dependsOnAndCleanGhostsAreRead() throws {
        let (loaded, syncs) = try syncs(
            """
            {"syncs": [
              {"syncName": "a", "syncType": "syncUp", "soupName": "s", "target": {},
               "options": {"mergeMode": "OVERWRITE"}},
              {"syncName": "b", "syncType": "syncDown", "soupName": "s", "dependsOn": ["a"],
               "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM A"},
               "options": {"mergeMode": "OVERWRITE", "cleanGhosts": true}}
            ]}
            """
        )
        #expect(loaded.diagnostics.isEmpty)
        #expect(syncs.map(\.dependsOn) == [[], ["a"]])
        #expect(syncs.map(\.options.cleanGhosts) == [false, true])
        #expect(syncs[1].normalizedOptionsJSON.jsonText() == #"{"cleanGhosts":true,"mergeMode":"OVERWRITE"}"#)
    }
}
