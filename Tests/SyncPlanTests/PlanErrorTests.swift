import SyncConfig
import SyncPlan
import Testing

/// The planner's errors, with their messages pinned.
struct PlanErrorTests {
    typealias C = PlanTestConfigs

    @Test func unknownDependencySuggestsTheClosestName() throws {
        var contacts = C.down("contactsDown", soup: "contacts", dependsOn: ["acountsDown"])
        contacts.location = SourceLocation(file: "usersyncs.json", line: 14, column: 7)
        let error = try #require(throws: PlanError.self) {
            try C.plan([C.down("accountsDown", soup: "accounts"), contacts])
        }
        #expect(error.code == .unknownDependency)
        #expect(error.syncNames == ["contactsDown"])
        #expect(
            error.description
                == "usersyncs.json:14:7: error: 'contactsDown' depends on 'acountsDown', which is not defined; did you mean 'accountsDown'?"
        )
    }

    @Test func unknownDependencyWithoutACloseNameSaysHowToFix() throws {
        let error = try #require(throws: PlanError.self) {
            try C.plan([C.down("a", soup: "s", dependsOn: ["somethingElseEntirely"])])
        }
        #expect(
            error.message
                == "'a' depends on 'somethingElseEntirely', which is not defined; remove it from 'dependsOn' or add a sync with that name"
        )
        #expect(error.location == nil)
        #expect(error.description == error.message)
    }

    @Test func duplicateNamesAreRejected() throws {
        var second = C.up("sync", soup: "s")
        second.location = SourceLocation(file: "usersyncs.json", line: 9, column: 5)
        var first = C.down("sync", soup: "s")
        first.location = SourceLocation(file: "usersyncs.json", line: 2, column: 5)
        let error = try #require(throws: PlanError.self) { try C.plan([first, second]) }
        #expect(error.code == .duplicateSync)
        #expect(
            error.description
                == "usersyncs.json:9:5: error: two syncs are named 'sync' (the first at usersyncs.json:2:5); rename one of them, sync names must be unique"
        )
    }

    @Test func selfDependencyIsACycleOfOne() throws {
        for cleanGhosts in [false, true] {
            let error = try #require(throws: PlanError.self) {
                try C.plan([C.down("loop", soup: "s", dependsOn: ["loop"], cleanGhosts: cleanGhosts)])
            }
            #expect(error.code == .cycle)
            #expect(error.syncNames == ["loop"])
            #expect(error.message == "'loop' depends on itself (dependsOn); remove 'loop' from its own 'dependsOn'")
        }
    }

    @Test func twoSyncCycleNamesBoth() throws {
        let error = try #require(throws: PlanError.self) {
            try C.plan([C.down("a", soup: "s1", dependsOn: ["b"]), C.down("b", soup: "s2", dependsOn: ["a"])])
        }
        #expect(error.code == .cycle)
        #expect(error.syncNames == ["a", "b"])
        #expect(
            error.message
                == "dependency cycle between 'a' and 'b': 'a' waits for 'b' (dependsOn), 'b' waits for 'a' (dependsOn); remove one of these 'dependsOn' entries"
        )
    }

    @Test func cycleIsReportedInCycleOrderAndLeavesOutBystanders() throws {
        var first = C.down("first", soup: "s0", dependsOn: ["c"])
        first.location = SourceLocation(file: "usersyncs.yaml", line: 3, column: 5)
        var a = C.down("a", soup: "s1", dependsOn: ["c"])
        a.location = SourceLocation(file: "usersyncs.yaml", line: 10, column: 5)
        let error = try #require(throws: PlanError.self) {
            try C.plan([
                first,
                C.down("b", soup: "s2", dependsOn: ["a"]),
                a,
                C.down("c", soup: "s3", dependsOn: ["b"]),
                C.down("bystander", soup: "s4"),
            ])
        }
        #expect(error.syncNames == ["b", "a", "c"])
        #expect(
            error.description
                == "usersyncs.yaml:10:5: error: dependency cycle between 'b', 'a' and 'c': 'b' waits for 'a' (dependsOn), 'a' waits for 'c' (dependsOn), 'c' waits for 'b' (dependsOn); remove one of these 'dependsOn' entries"
        )
    }

    @Test func cycleThroughImplicitRulesExplainsThem() throws {
        // contactsUp waits for accountsDown (dependsOn); accountsDown waits for contactsUp
        // (sync ups of 'contacts' run before the briefcase that also writes 'contacts').
        let error = try #require(throws: PlanError.self) {
            try C.plan([
                C.briefcase("accountsDown", soups: ["accounts", "contacts"]),
                C.up("contactsUp", soup: "contacts", dependsOn: ["accountsDown"]),
            ])
        }
        #expect(error.syncNames == ["accountsDown", "contactsUp"])
        #expect(
            error.message
                == "dependency cycle between 'accountsDown' and 'contactsUp': 'accountsDown' waits for 'contactsUp' (sync ups of soup 'contacts' run before its sync downs), 'contactsUp' waits for 'accountsDown' (dependsOn); remove one of these 'dependsOn' entries"
        )
    }

    @Test func cycleThroughGhostCleaningCountsTheSyncOnce() throws {
        let error = try #require(throws: PlanError.self) {
            try C.plan([
                C.down("a", soup: "s1", dependsOn: ["b"], cleanGhosts: true),
                C.down("b", soup: "s2", dependsOn: ["a"], cleanGhosts: true),
            ])
        }
        #expect(error.syncNames == ["a", "b"])
    }

    @Test func cycleOfParentSoupsSaysWhichTargetsConflict() throws {
        let error = try #require(throws: PlanError.self) {
            try C.plan([
                C.parentChildrenDown("ab", parent: "a", children: "b"),
                C.parentChildrenDown("ba", parent: "b", children: "a"),
            ])
        }
        #expect(error.code == .cycle)
        #expect(error.syncNames == ["ab", "ba"])
        #expect(
            error.message.hasSuffix(
                "the parent_children targets make these soups each other's parents; keep one direction"
            )
        )
    }

    @Test func codesHaveStableIdentifiers() {
        #expect(PlanError.Code.cycle.description == "dependency-cycle")
        #expect(PlanError.Code.unknownDependency.description == "unknown-dependency")
        #expect(PlanError.Code.duplicateSync.description == "duplicate-sync-name")
        #expect(PlanError.Code.unknownSync.description == "unknown-sync")
    }
}
