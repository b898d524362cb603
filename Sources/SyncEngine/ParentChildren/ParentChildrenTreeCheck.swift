import OrgClient

/// The `LEAVE_IF_CHANGED` check of a page of `parent_children` trees (sync-semantics §8.4, §11
/// item 2) and what it decides for each tree before anything is sent; shared by the run and its
/// dry run.
///
/// One collection retrieve per sObject type checks every parent and child to update or delete (a
/// read sent as `POST /composite/sobjects/<type>`); none under `OVERWRITE`. A tree with any
/// conflict is left alone: only its conflicting records get an outcome.
struct ParentChildrenTreeCheck: Sendable {
    let org: any OrgClient
    let plan: ParentChildrenSyncUpPlan

    /// The server versions of a page's parents and children, by entry id.
    struct Versions: Sendable {
        var parents: [Int64: SyncUpConflictChecker.ServerVersion] = [:]
        var children: [Int64: SyncUpConflictChecker.ServerVersion] = [:]
    }

    /// What the check decides for one tree.
    struct Decision: Sendable {
        /// Whether the tree is left alone because one of its records conflicts.
        var isLeftAlone = false
        /// The parent's outcome decided without sending it (a conflict, already deleted on the
        /// server, adopted after a lost create); `nil` when it is sent or has nothing to do.
        var parent: SyncUpOutcome?
        /// The children's outcomes decided without sending them, by entry id. When the tree is
        /// left alone, only the conflicts are kept (the other records stay dirty, untouched).
        var children: [Int64: SyncUpOutcome] = [:]
    }

    /// Looks up the server versions of `trees` (nothing under `OVERWRITE`).
    ///
    /// - Throws: `OrgClientError` when a retrieve fails as a whole.
    func serverVersions(of trees: [ParentChildrenTree]) async throws -> Versions {
        guard !plan.parent.isOverwrite else { return Versions() }
        return Versions(
            parents: try await SyncUpConflictChecker(
                org: org,
                modificationDateFieldName: plan.parentInfo.modificationDateFieldName
            ).serverVersions(of: trees.map(\.parent).filter { $0.entryID > 0 }),
            children: try await SyncUpConflictChecker(
                org: org,
                modificationDateFieldName: plan.childrenInfo.modificationDateFieldName
            ).serverVersions(of: trees.flatMap(\.children))
        )
    }

    /// Decides `tree` from the server versions and the records adopted after a lost create (the
    /// run's recovery; none for the dry run).
    static func decide(
        _ tree: ParentChildrenTree,
        versions: Versions,
        adoptedParents: [Int64: SyncUpOutcome] = [:],
        adoptedChildren: [Int64: SyncUpOutcome] = [:]
    ) -> Decision {
        let parentID = tree.parent.entryID
        let parent =
            tree.parent.action == .none
            ? nil
            : adoptedParents[parentID] ?? SyncUpConflictChecker.decide(tree.parent, server: versions.parents[parentID])
        var children: [Int64: SyncUpOutcome] = [:]
        for child in tree.children {
            if let decided = adoptedChildren[child.entryID]
                ?? SyncUpConflictChecker.decide(child, server: versions.children[child.entryID])
            {
                children[child.entryID] = decided
            }
        }
        guard ([parent].compactMap { $0 } + children.values).contains(where: \.isConflict) else {
            return Decision(parent: parent, children: children)
        }
        // The tree goes together or not at all (§8.4): only the conflicts are recorded.
        return Decision(
            isLeftAlone: true,
            parent: parent.flatMap { $0.isConflict ? $0 : nil },
            children: children.filter { $0.value.isConflict }
        )
    }
}

extension SyncUpOutcome {
    /// Whether this is a `LEAVE_IF_CHANGED` conflict.
    var isConflict: Bool {
        if case .conflict = self { true } else { false }
    }
}
