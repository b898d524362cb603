import OrgClient

/// Sends one parent tree with composite calls (`POST /composite`, `allOrNone` false;
/// sync-semantics §8.4, §11 item 20).
///
/// Order: the parent first (create, upsert or update), then each child, then the parent last when
/// it is deleted on the server. Children point at the parent through `parentIdFieldName`: the
/// composite reference `@{parent<entryId>.id}` when the parent is created in the same call, else
/// its server id. A tree with more subrequests than fit in one call (25) is split into successive
/// calls; the parent travels in the first, and the children of later calls carry the id the first
/// call returned. When the parent could not be created, the children not yet sent are not sent
/// (each gets a `PARENT_NOT_CREATED` error). When the parent is deleted, children bodies leave
/// the parent id field out (§8.4).
struct ParentChildrenSyncUpSender: Sendable {
    let org: any OrgClient
    let plan: ParentChildrenSyncUpPlan

    /// Subrequests per composite call.
    static let callSize = 25

    /// What happened to a tree.
    struct Result: Sendable {
        var parent: SyncUpOutcome?
        var children: [Int64: SyncUpOutcome] = [:]
        /// The parent's update found no record, or a child's parent no longer exists: under
        /// `OVERWRITE` the parent is re-created.
        var parentNotFound = false
        /// Children whose update found no record.
        var childrenNotFound: Set<Int64> = []
    }

    /// A record of the tree, in the order of the calls.
    enum Item: Sendable {
        case parent(SyncUpRecord)
        case child(SyncUpRecord)

        var record: SyncUpRecord {
            switch self {
            case .parent(let record), .child(let record): record
            }
        }

        var isChild: Bool {
            if case .child = self { true } else { false }
        }
    }

    /// One subrequest of a composite call, with the record and request it carries.
    struct Planned: Sendable {
        var item: Item
        var request: SyncUpRequestPlan.Request
        var reference: String
        var subrequest: CompositeSubrequest
    }

    /// Sends `tree`; `sendsParent` is false when the conflict check already decided the parent.
    ///
    /// - Throws: `OrgClientError` when a composite call fails as a whole (the run fails).
    func send(_ tree: ParentChildrenTree, sendsParent: Bool) async throws -> Result {
        var result = Result()
        let items = items(of: tree, sendsParent: sendsParent, result: &result)
        // A parent to create has a `local_` id (no server id), unless it was adopted after a lost
        // create (its server id is then stored and it is not sent again).
        var parentServerID = tree.parent.serverID
        for chunk in Self.calls(of: items) {
            let planned = call(chunk, of: tree, parentServerID: parentServerID, result: &result)
            guard !planned.isEmpty else { continue }
            let responses = try await org.composite(planned.map(\.subrequest), allOrNone: false)
            let byReference = Dictionary(responses.map { ($0.referenceID, $0) }) { first, _ in first }
            for sent in planned {
                let response = byReference[sent.reference]
                switch sent.item {
                case .parent(let record):
                    switch BatchSyncUpSender.outcome(of: response, request: sent.request, record: record) {
                    case .decided(let outcome):
                        result.parent = outcome
                        if case .created(let id) = outcome { parentServerID = id }
                    case .notFound:
                        result.parentNotFound = true
                        result.parent = Self.deletedOnServer(record)
                    }
                case .child(let record):
                    if let response, !response.isSuccess, response.statusCode != 404, !tree.isParentDeleted,
                        isParentMissing(response.errors)
                    {
                        result.parentNotFound = true
                        result.children[record.entryID] = .failed(response.errors)
                        continue
                    }
                    switch BatchSyncUpSender.outcome(of: response, request: sent.request, record: record) {
                    case .decided(let outcome):
                        result.children[record.entryID] = outcome
                    case .notFound:
                        result.childrenNotFound.insert(record.entryID)
                        result.children[record.entryID] = Self.deletedOnServer(record)
                    }
                }
            }
        }
        return result
    }

    /// The subrequests `send` would send for `tree` if every one succeeded, in order, and the
    /// outcomes it decides without sending (records removed locally, records refused before
    /// sending); what the dry run counts. A parent created in one call gives the children of later
    /// calls its id, as the server's answer would.
    func plannedRequests(_ tree: ParentChildrenTree, sendsParent: Bool) -> (requests: [Planned], result: Result) {
        var result = Result()
        let items = items(of: tree, sendsParent: sendsParent, result: &result)
        var parentServerID = tree.parent.serverID
        var requests: [Planned] = []
        for chunk in Self.calls(of: items) {
            let planned = call(chunk, of: tree, parentServerID: parentServerID, result: &result)
            requests += planned
            let createsParent = planned.contains { sent in
                guard case .parent = sent.item else { return false }
                switch sent.request {
                case .create, .upsert: return true
                default: return false
                }
            }
            // Stands for the id the server would return; it is never sent.
            if parentServerID == nil, createsParent { parentServerID = Self.parentReference(tree.parent) }
        }
        return (requests, result)
    }

    /// The records of `tree` in the order of the calls: the parent (create, upsert or update), the
    /// children, the parent last when it is deleted. Records removed locally get their outcome in
    /// `result` instead.
    private func items(of tree: ParentChildrenTree, sendsParent: Bool, result: inout Result) -> [Item] {
        var items: [Item] = []
        let parent = tree.parent
        if sendsParent {
            switch parent.action {
            case .create, .update: items.append(.parent(parent))
            case .removeLocally: result.parent = .removedLocally
            case .delete, .none: break
            }
        }
        for child in tree.children {
            if child.action == .removeLocally {
                result.children[child.entryID] = .removedLocally
            } else {
                items.append(.child(child))
            }
        }
        if sendsParent, parent.action == .delete { items.append(.parent(parent)) }
        return items
    }

    /// `items` cut into composite calls of at most ``callSize`` subrequests.
    private static func calls(of items: [Item]) -> [ArraySlice<Item>] {
        stride(from: 0, to: items.count, by: callSize).map { items[$0..<min($0 + callSize, items.count)] }
    }

    /// The subrequests of one call; records that cannot be sent get their outcome in `result`.
    private func call(
        _ chunk: ArraySlice<Item>,
        of tree: ParentChildrenTree,
        parentServerID: String?,
        result: inout Result
    ) -> [Planned] {
        let parent = tree.parent
        let parentInChunk = chunk.contains { if case .parent(let p) = $0, p.action == .create { true } else { false } }
        var planned: [Planned] = []
        for item in chunk {
            let request: SyncUpRequestPlan.Request
            switch item {
            case .parent(let record):
                request = plan.parent.request(for: record)
            case .child(let record):
                let parentID: String?
                if tree.isParentDeleted {
                    parentID = nil
                } else if parentInChunk {
                    parentID = "@{\(Self.parentReference(parent)).id}"
                } else if let parentServerID {
                    parentID = parentServerID
                } else {
                    result.children[record.entryID] = .failed([Self.parentNotCreated])
                    continue
                }
                request = childRequest(record, parentID: parentID, isParentDeleted: tree.isParentDeleted)
            }
            let record = item.record
            let reference = item.isChild ? "child\(record.entryID)" : Self.parentReference(record)
            if let subrequest = BatchSyncUpSender.subrequest(
                for: request,
                record: record,
                plan: item.isChild ? plan.children : plan.parent,
                referenceID: reference
            ) {
                planned.append(Planned(item: item, request: request, reference: reference, subrequest: subrequest))
            } else if item.isChild {
                result.children[record.entryID] = .failed([Self.error(for: request)])
            } else {
                result.parent = .failed([Self.error(for: request)])
            }
        }
        return planned
    }

    /// The request for a child: its own create / upsert / update / delete, with the parent id
    /// field set to `parentID`, or left out of the body when the parent is deleted.
    private func childRequest(
        _ child: SyncUpRecord,
        parentID: String?,
        isParentDeleted: Bool
    ) -> SyncUpRequestPlan.Request {
        let field = plan.parentIDField
        switch plan.children.request(for: child) {
        case .create(let type, var fields):
            fields[field] = isParentDeleted ? nil : parentID.map(OrgValue.string)
            return .create(type: type, fields: fields)
        case .upsert(let type, let externalID, var fields):
            fields[field] = isParentDeleted ? nil : parentID.map(OrgValue.string)
            return .upsert(type: type, externalID: externalID, fields: fields)
        case .update(let type, let id, var fields):
            fields[field] = isParentDeleted ? nil : parentID.map(OrgValue.string)
            return .update(type: type, id: id, fields: fields)
        case let other:
            return other
        }
    }

    /// Whether a child's errors say its parent does not exist (deleted on the server).
    private func isParentMissing(_ errors: [OrgErrorDetail]) -> Bool {
        errors.contains { error in
            error.errorCode == "ENTITY_IS_DELETED"
                || (error.errorCode == "INVALID_CROSS_REFERENCE_KEY" && error.fields.contains(plan.parentIDField))
        }
    }

    static func parentReference(_ parent: SyncUpRecord) -> String { "parent\(parent.entryID)" }

    static let parentNotCreated = SyncUpRequestPlan.localError(
        "PARENT_NOT_CREATED",
        "the parent record could not be created (see its '__last_error__'); this child is sent with it next run"
    )

    private static func error(for request: SyncUpRequestPlan.Request) -> OrgErrorDetail {
        if case .invalid(let error) = request { return error }
        return SyncUpRequestPlan.localError("MISSING_OBJECT_TYPE", "the record has no 'attributes.type'")
    }

    /// The outcome of an update of a record that no longer exists, until the re-run decides.
    static func deletedOnServer(_ record: SyncUpRecord) -> SyncUpOutcome {
        .conflict(
            SyncUpConflict(reason: .deletedOnServer, serverModified: nil, localModified: record.localModificationDate)
        )
    }
}
