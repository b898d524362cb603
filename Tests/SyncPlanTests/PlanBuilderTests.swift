import SyncConfig
import SyncPlan
import Testing

/// Each ordering rule of the planner, in isolation.
struct PlanBuilderTests {
    typealias C = PlanTestConfigs

    @Test func independentSyncsKeepConfigOrder() throws {
        let plan = try C.plan([C.down("b", soup: "s2"), C.down("a", soup: "s1"), C.up("c", soup: "s3")])
        #expect(plan.ids == ["syncDown:b", "syncDown:a", "syncUp:c"])
        #expect(plan.steps.allSatisfy { $0.dependsOn.isEmpty && $0.reasons.isEmpty })
    }

    @Test func syncUpRunsBeforeSyncDownOfTheSameSoup() throws {
        let plan = try C.plan([C.down("accountsDown", soup: "accounts"), C.up("accountsUp", soup: "accounts")])
        #expect(plan.ids == ["syncUp:accountsUp", "syncDown:accountsDown"])
        let down = try #require(plan.step(withID: "syncDown:accountsDown"))
        #expect(down.dependsOn == ["syncUp:accountsUp"])
        #expect(
            down.reasons == [
                PlanReason(
                    step: "syncUp:accountsUp",
                    rule: .upBeforeDown,
                    detail: "sync ups of soup 'accounts' run before its sync downs"
                )
            ]
        )
    }

    @Test func everySyncUpOfASoupPrecedesEverySyncDownOfIt() throws {
        let plan = try C.plan([
            C.down("d1", soup: "s"), C.down("d2", soup: "s"), C.up("u1", soup: "s"), C.up("u2", soup: "s"),
        ])
        #expect(plan.ids == ["syncUp:u1", "syncUp:u2", "syncDown:d1", "syncDown:d2"])
        #expect(plan.step(withID: "syncDown:d2")?.dependsOn == ["syncUp:u1", "syncUp:u2"])
    }

    @Test func upBeforeDownDoesNotCrossSoups() throws {
        let plan = try C.plan([C.down("d", soup: "a"), C.up("u", soup: "b")])
        #expect(plan.ids == ["syncDown:d", "syncUp:u"])
    }

    @Test func upBeforeDownCoversEverySoupATargetWrites() throws {
        // The briefcase writes 'contacts' too, so it waits for the contacts sync up.
        let plan = try C.plan([
            C.briefcase("brief", soups: ["accounts", "contacts"]), C.up("contactsUp", soup: "contacts"),
        ])
        #expect(plan.ids == ["syncUp:contactsUp", "syncDown:brief"])
        #expect(plan.step(withID: "syncDown:brief")?.soups == ["accounts", "contacts"])
    }

    @Test func upBeforeDownNamesEverySharedSoup() throws {
        let plan = try C.plan([
            C.parentChildrenDown("tree", parent: "accounts", children: "contacts"),
            C.parentChildrenUp("treeUp", parent: "accounts", children: "contacts"),
        ])
        let down = try #require(plan.step(withID: "syncDown:tree"))
        #expect(
            down.reasons.map(\.detail) == ["sync ups of soups 'accounts' and 'contacts' run before their sync downs"]
        )
    }

    @Test func parentSoupSyncsRunBeforeChildrenSoupSyncs() throws {
        let plan = try C.plan([
            C.down("contactsDown", soup: "contacts"),
            C.parentChildrenDown("accountsTree", parent: "accounts", children: "contacts"),
            C.down("accountsDown", soup: "accounts"),
        ])
        #expect(plan.ids == ["syncDown:accountsTree", "syncDown:accountsDown", "syncDown:contactsDown"])
        let contacts = try #require(plan.step(withID: "syncDown:contactsDown"))
        #expect(contacts.dependsOn == ["syncDown:accountsTree", "syncDown:accountsDown"])
        #expect(contacts.reasons.allSatisfy { $0.rule == .parentBeforeChildren })
        #expect(
            contacts.reasons.first?.detail == "soup 'accounts' is the parent of soup 'contacts' in 'accountsTree'"
        )
    }

    @Test func parentBeforeChildrenKeepsDirections() throws {
        // A parent sync down does not wait for a children sync up beyond the soup rule, and a
        // children sync up waits for the parent sync up only.
        let plan = try C.plan([
            C.up("contactsUp", soup: "contacts"),
            C.down("accountsDown", soup: "accounts"),
            C.parentChildrenUp("accountsUp", parent: "accounts", children: "contacts"),
        ])
        #expect(plan.ids == ["syncUp:accountsUp", "syncUp:contactsUp", "syncDown:accountsDown"])
        #expect(plan.step(withID: "syncUp:contactsUp")?.reasons.map(\.rule) == [.parentBeforeChildren])
        #expect(plan.step(withID: "syncDown:accountsDown")?.dependsOn == ["syncUp:accountsUp"])
    }

    @Test func dependsOnOrdersAcrossSoups() throws {
        let plan = try C.plan([
            C.down("contactsDown", soup: "contacts", dependsOn: ["accountsDown"]),
            C.down("accountsDown", soup: "accounts"),
        ])
        #expect(plan.ids == ["syncDown:accountsDown", "syncDown:contactsDown"])
        #expect(
            plan.step(withID: "syncDown:contactsDown")?.reasons == [
                PlanReason(
                    step: "syncDown:accountsDown",
                    rule: .dependsOn,
                    detail: "'contactsDown' lists 'accountsDown' in 'dependsOn'"
                )
            ]
        )
    }

    @Test func dependsOnIsTransitive() throws {
        let plan = try C.plan([
            C.down("c", soup: "s3", dependsOn: ["b"]), C.down("b", soup: "s2", dependsOn: ["a"]),
            C.down("a", soup: "s1"),
        ])
        #expect(plan.ids == ["syncDown:a", "syncDown:b", "syncDown:c"])
    }

    @Test func oneEdgeFromTwoRulesKeepsBothReasons() throws {
        let plan = try C.plan([C.up("u", soup: "s"), C.down("d", soup: "s", dependsOn: ["u"])])
        let down = try #require(plan.step(withID: "syncDown:d"))
        #expect(down.dependsOn == ["syncUp:u"])
        #expect(down.reasons.map(\.rule) == [.upBeforeDown, .dependsOn])
    }

    @Test func cleanGhostsFollowsItsSyncDownImmediately() throws {
        let plan = try C.plan([C.down("d", soup: "s", cleanGhosts: true), C.down("other", soup: "t")])
        #expect(plan.ids == ["syncDown:d", "cleanGhosts:d", "syncDown:other"])
        let clean = try #require(plan.step(withID: "cleanGhosts:d"))
        #expect(clean.kind == .cleanGhosts)
        #expect(clean.resync == nil)
        #expect(
            clean.reasons == [
                PlanReason(
                    step: "syncDown:d",
                    rule: .afterSyncDown,
                    detail: "ghosts are cleaned right after sync down 'd'"
                )
            ]
        )
    }

    @Test func dependentsOfASyncDownWaitForItsGhostCleaning() throws {
        let plan = try C.plan([
            C.down("accountsDown", soup: "accounts", cleanGhosts: true),
            C.down("contactsDown", soup: "contacts", dependsOn: ["accountsDown"]),
        ])
        #expect(plan.ids == ["syncDown:accountsDown", "cleanGhosts:accountsDown", "syncDown:contactsDown"])
        #expect(plan.step(withID: "syncDown:contactsDown")?.dependsOn == ["cleanGhosts:accountsDown"])
    }

    @Test func cleanGhostsOnASyncUpAddsNoStep() throws {
        let plan = try C.plan([C.up("u", soup: "s", cleanGhosts: true)])
        #expect(plan.ids == ["syncUp:u"])
    }

    @Test(arguments: [
        (SyncDownTarget.soql(SOQLSyncDownTarget(query: "SELECT Id FROM Account")), "soql", PlanStep.Resync.incremental),
        (.sosl(SOSLSyncDownTarget(query: "FIND {a}")), "sosl", .full),
        (.mru(MRUSyncDownTarget(sobjectType: "Account", fieldlist: ["Id"])), "mru", .full),
        (.metadata(MetadataSyncDownTarget(sobjectType: "Account")), "metadata", .full),
        (.custom(CustomSyncDownTarget(iOSImpl: "MyTarget", androidImpl: nil)), "custom", .pluginDefined),
    ])
    func syncDownStepsDescribeTheirTarget(target: SyncDownTarget, name: String, resync: PlanStep.Resync) throws {
        let plan = try C.plan([C.down("d", soup: "s", target: target)])
        let step = try #require(plan.steps.first)
        #expect(step.target == name)
        #expect(step.resync == resync)
    }

    @Test func syncUpStepsNameTheirKind() throws {
        let single = SyncDefinition(name: "one", type: .syncUp, soupName: "s", target: .up(SyncUpTarget(kind: .single)))
        let plan = try C.plan([single, C.parentChildrenUp("tree", parent: "a", children: "b")])
        #expect(plan.steps.map(\.target) == ["single", "parent_children"])
        #expect(plan.steps.map(\.resync) == [nil, nil])
        #expect(plan.steps[1].soups == ["a", "b"])
    }

    @Test func refreshTargetCountsItsOwnSoup() throws {
        let refresh = RefreshSyncDownTarget(sobjectType: "Account", fieldlist: ["Name"], soupName: "cache")
        let plan = try C.plan([
            C.down("refresh", soup: "accounts", target: .refresh(refresh)), C.up("cacheUp", soup: "cache"),
        ])
        #expect(plan.ids == ["syncUp:cacheUp", "syncDown:refresh"])
        #expect(plan.step(withID: "syncDown:refresh")?.soups == ["accounts", "cache"])
    }

    @Test func repeatedDependsOnEntriesAddOneEdge() throws {
        let plan = try C.plan([C.down("a", soup: "s1"), C.down("b", soup: "s2", dependsOn: ["a", "a"])])
        let step = try #require(plan.step(withID: "syncDown:b"))
        #expect(step.dependsOn == ["syncDown:a"])
        #expect(step.reasons.count == 1)
    }

    @Test func emptyConfigPlansNothing() throws {
        let plan = try C.plan([])
        #expect(plan.steps.isEmpty)
        #expect(plan.formatVersion == SyncPlan.currentFormatVersion)
    }
}
