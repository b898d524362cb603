import SyncPlan
import Testing

/// `SyncPlan.only(_:)`: the named syncs and everything they wait for.
struct SyncPlanOnlyTests {
    typealias C = PlanTestConfigs

    private func contactsPlan() throws -> SyncPlan {
        try C.plan([
            C.up("accountsUp", soup: "accounts"),
            C.down("accountsDown", soup: "accounts", cleanGhosts: true),
            C.up("contactsUp", soup: "contacts", dependsOn: ["accountsUp"]),
            C.down("contactsDown", soup: "contacts", dependsOn: ["accountsDown"]),
            C.down("unrelated", soup: "other"),
        ])
    }

    @Test func keepsTheClosureOfDependencies() throws {
        let plan = try contactsPlan().only(["contactsDown"])
        #expect(
            plan.ids == [
                "syncUp:accountsUp", "syncDown:accountsDown", "cleanGhosts:accountsDown", "syncUp:contactsUp",
                "syncDown:contactsDown",
            ]
        )
    }

    @Test func keepsOnlyWhatIsNeeded() throws {
        let full = try contactsPlan()
        let plan = try full.only(["contactsUp"])
        #expect(plan.ids == ["syncUp:accountsUp", "syncUp:contactsUp"])
        #expect(plan.step(withID: "syncUp:contactsUp") == full.step(withID: "syncUp:contactsUp"))
    }

    @Test func keepsTheCleanGhostsStepOfANamedSyncDown() throws {
        let plan = try contactsPlan().only(["accountsDown"])
        #expect(plan.ids == ["syncUp:accountsUp", "syncDown:accountsDown", "cleanGhosts:accountsDown"])
    }

    @Test func severalNamesInAnyOrderGiveTheSamePlan() throws {
        let full = try contactsPlan()
        let forward = try full.only(["unrelated", "contactsUp"])
        let backward = try full.only(["contactsUp", "unrelated", "contactsUp"])
        #expect(forward == backward)
        #expect(forward.ids == ["syncUp:accountsUp", "syncUp:contactsUp", "syncDown:unrelated"])
    }

    @Test func everyKeptDependencyIsInThePlan() throws {
        let full = try contactsPlan()
        for name in full.syncNames {
            let plan = try full.only([name])
            let ids = Set(plan.ids)
            #expect(plan.steps.allSatisfy { $0.dependsOn.allSatisfy(ids.contains) })
            #expect(plan.syncNames.contains(name))
        }
    }

    @Test func unknownNameIsAnErrorWithASuggestion() throws {
        let error = try #require(throws: PlanError.self) { try contactsPlan().only(["contactDown"]) }
        #expect(error.code == .unknownSync)
        #expect(error.message == "there is no sync named 'contactDown'; did you mean 'contactsDown'?")
    }

    @Test func unknownNameWithoutSuggestion() throws {
        let error = try #require(throws: PlanError.self) { try contactsPlan().only(["zzzzzzzzzzzzzz"]) }
        #expect(error.message == "there is no sync named 'zzzzzzzzzzzzzz'; use one of the names in the syncs config")
    }
}
