import SyncConfig
import SyncPlan

/// Small builders for sync definitions, so each test states only what matters to it.
enum PlanTestConfigs {
    /// A SOQL sync down.
    static func down(
        _ name: String,
        soup: String,
        dependsOn: [String] = [],
        cleanGhosts: Bool = false
    ) -> SyncDefinition {
        SyncDefinition(
            name: name,
            type: .syncDown,
            soupName: soup,
            target: .down(.soql(SOQLSyncDownTarget(query: "SELECT Id, LastModifiedDate FROM Account"))),
            options: SyncOptions(cleanGhosts: cleanGhosts),
            dependsOn: dependsOn
        )
    }

    /// A sync down of any target, for the target-specific tests.
    static func down(_ name: String, soup: String, target: SyncDownTarget) -> SyncDefinition {
        SyncDefinition(name: name, type: .syncDown, soupName: soup, target: .down(target))
    }

    /// A collection sync up.
    static func up(
        _ name: String,
        soup: String,
        dependsOn: [String] = [],
        cleanGhosts: Bool = false
    ) -> SyncDefinition {
        SyncDefinition(
            name: name,
            type: .syncUp,
            soupName: soup,
            target: .up(SyncUpTarget()),
            options: SyncOptions(cleanGhosts: cleanGhosts),
            dependsOn: dependsOn
        )
    }

    /// A `parent_children` sync down from `parent` soup (Account) to `children` soup (Contact).
    static func parentChildrenDown(_ name: String, parent: String, children: String) -> SyncDefinition {
        let target = ParentChildrenSyncDownTarget(
            parent: ParentInfo(sobjectType: "Account", soupName: parent),
            parentFieldlist: ["Id", "Name"],
            children: childrenInfo(soup: children),
            childrenFieldlist: ["Id", "LastName"],
            relationshipType: .masterDetail
        )
        return down(name, soup: parent, target: .parentChildren(target))
    }

    /// A `parent_children` sync up from `parent` soup to `children` soup.
    static func parentChildrenUp(_ name: String, parent: String, children: String) -> SyncDefinition {
        let info = ParentChildrenSyncUpInfo(
            parent: ParentInfo(sobjectType: "Account", soupName: parent),
            children: childrenInfo(soup: children),
            relationshipType: .lookup
        )
        return SyncDefinition(
            name: name,
            type: .syncUp,
            soupName: parent,
            target: .up(SyncUpTarget(kind: .parentChildren, parentChildren: info))
        )
    }

    /// A briefcase sync down writing one soup per entry of `soups`.
    static func briefcase(_ name: String, soups: [String]) -> SyncDefinition {
        let infos = soups.map { BriefcaseObjectInfo(sobjectType: "Account", soupName: $0, fieldlist: ["Name"]) }
        return down(name, soup: "ignored", target: .briefcase(BriefcaseSyncDownTarget(infos: infos)))
    }

    /// Plans `syncs`.
    static func plan(_ syncs: [SyncDefinition]) throws -> SyncPlan {
        try SyncPlan(planning: SyncsConfig(syncs: syncs))
    }

    private static func childrenInfo(soup: String) -> ChildrenInfo {
        ChildrenInfo(
            sobjectType: "Contact",
            sobjectTypePlural: "Contacts",
            soupName: soup,
            parentIdFieldName: "AccountId"
        )
    }
}

extension SyncPlan {
    /// The step ids, in order.
    var ids: [String] { steps.map(\.id) }

    /// The position of the step with `id`, for "comes before" assertions.
    func position(of id: String) -> Int? {
        steps.firstIndex { $0.id == id }
    }
}
