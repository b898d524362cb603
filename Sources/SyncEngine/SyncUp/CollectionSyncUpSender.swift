import OrgClient

/// Sends one batch of records with sObject Collections calls (sync-semantics §8.3): up to four
/// calls (create, upsert per type, update, delete) of at most 200 records, results matched by
/// position, and one re-create call for updates of records deleted on the server under
/// `OVERWRITE` (only those records are resent, §11 item 21).
///
/// The calls of one kind go out together, as many at once as the run's ``RequestWindow`` lets
/// (the window is shared with the other batches in flight, so a page's last calls overlap the
/// next page's first); records refused with `UNABLE_TO_LOCK_ROW` are resent after a backoff
/// (``RecordLockRetry``).
struct CollectionSyncUpSender: GroupedSyncUpSender {
    let org: any OrgClient
    let plan: SyncUpRequestPlan
    /// The most records per call (sObject Collections take 200); longer lists are split.
    var callSize = 200
    /// The run's requests in flight.
    var window = RequestWindow(limit: 1)
    /// How lock refusals are resent.
    var lockRetry = RecordLockRetry()

    /// Sends `records` (each to create, update or delete) and returns each one's outcome.
    ///
    /// - Throws: `OrgClientError` when a call fails as a whole (the run fails).
    func send(_ records: [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome] {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        var creates: [(Int64, SObjectRecord)] = []
        var upserts: [String: [(Int64, SObjectRecord)]] = [:]
        var updates: [(Int64, SObjectRecord)] = []
        var deletes: [(Int64, String)] = []
        for record in records {
            switch plan.request(for: record) {
            case .create(let type, let fields):
                creates.append((record.entryID, SObjectRecord(objectType: type, fields: fields)))
            case .upsert(let type, _, let fields):
                upserts[type, default: []].append((record.entryID, SObjectRecord(objectType: type, fields: fields)))
            case .update(let type, let id, let fields):
                updates.append((record.entryID, SObjectRecord(objectType: type, id: id, fields: fields)))
            case .delete(_, let id):
                deletes.append((record.entryID, id))
            case .invalid(let error):
                outcomes[record.entryID] = .failed([error])
            }
        }
        try await write(creates, into: &outcomes) { .create($0) }
        if let field = plan.externalIDField {
            for type in upserts.keys.sorted() {
                try await write(upserts[type] ?? [], into: &outcomes) {
                    .upsert(objectType: type, externalIDField: field, records: $0)
                }
            }
        }
        var recreate: [Int64] = []
        for (item, result) in try await call(updates, { .update($0) }) {
            if let result, result.isSuccess {
                outcomes[item.0] = .updated(id: item.1.id ?? result.id ?? "")
            } else if let result, SyncUpRequestPlan.isNotFound(result.errors) {
                recreate.append(item.0)
            } else {
                outcomes[item.0] = .failed(result?.errors ?? [])
            }
        }
        try await deleteAll(deletes, into: &outcomes)
        try await recreateDeleted(recreate, of: records, into: &outcomes)
        return outcomes
    }

    /// Runs the collection calls for `items`, `callSize` records each, as many at once as
    /// ``window`` lets; the results are matched by position (`nil` when the server returned fewer
    /// results than records). Records refused with `UNABLE_TO_LOCK_ROW` are resent alone.
    ///
    /// Calls of one batch are independent (each record appears in one call, and the batch's
    /// intents are recorded before it is sent), so the org works on one while the answer of the
    /// other is read. A call that fails fails the batch, as when they were sent one by one.
    private func call(
        _ items: [(Int64, SObjectRecord)],
        _ operation: @escaping @Sendable ([SObjectRecord]) -> CollectionOperation
    ) async throws -> [((Int64, SObjectRecord), CollectionResult?)] {
        try await calls(items) { [org] chunk in
            try await org.collection(operation(chunk.map(\.1)), allOrNone: false)
        }
    }

    /// Sends `items` in chunks of `callSize` through `send`, as many at once as ``window`` lets,
    /// resending lock refusals; each item with its result (matched by position).
    private func calls<Item: Sendable>(
        _ items: [Item],
        _ send: @escaping @Sendable ([Item]) async throws -> [CollectionResult]
    ) async throws -> [(Item, CollectionResult?)] {
        let size = max(callSize, 1)
        let chunks = stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
        var answers: [[CollectionResult?]] = Array(repeating: [], count: chunks.count)
        let lockRetry = lockRetry
        try await window.forEach(chunks) { chunk in
            try await lockRetry.send(chunk) {
                try await send($0).map { Optional($0) }
            } isLocked: {
                RecordLockRetry.isLockRefusal($0.errors)
            }
        } receive: { index, results in
            answers[index] = results
        }
        var matched: [(Item, CollectionResult?)] = []
        matched.reserveCapacity(items.count)
        for (chunk, results) in zip(chunks, answers) {
            for (index, item) in chunk.enumerated() {
                matched.append((item, index < results.count ? results[index] : nil))
            }
        }
        return matched
    }

    /// Creates or upserts `items`: success gives the new id, a refusal goes to `__last_error__`.
    private func write(
        _ items: [(Int64, SObjectRecord)],
        into outcomes: inout [Int64: SyncUpOutcome],
        _ operation: @escaping @Sendable ([SObjectRecord]) -> CollectionOperation
    ) async throws {
        for (item, result) in try await call(items, operation) {
            if let result, result.isSuccess, let id = result.id {
                outcomes[item.0] = .created(id: id)
            } else {
                outcomes[item.0] = .failed(result?.errors ?? [])
            }
        }
    }

    private func deleteAll(_ deletes: [(Int64, String)], into outcomes: inout [Int64: SyncUpOutcome]) async throws {
        let answered = try await calls(deletes) { [org] chunk in
            try await org.collection(.delete(ids: chunk.map(\.1)), allOrNone: false)
        }
        for (item, result) in answered {
            if let result, result.isSuccess || SyncUpRequestPlan.isNotFound(result.errors) {
                outcomes[item.0] = .deleted  // 404-like answers mean "already deleted" (§7.6)
            } else {
                outcomes[item.0] = .failed(result?.errors ?? [])
            }
        }
    }

    /// Updates answered "not found": re-created under `OVERWRITE`, left alone otherwise (§7.6).
    private func recreateDeleted(
        _ entryIDs: [Int64],
        of records: [SyncUpRecord],
        into outcomes: inout [Int64: SyncUpOutcome]
    ) async throws {
        guard !entryIDs.isEmpty else { return }
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.entryID, $0) })
        var creates: [(Int64, SObjectRecord)] = []
        for entryID in entryIDs {
            guard let record = byID[entryID] else { continue }
            guard plan.isOverwrite else {
                outcomes[entryID] = .conflict(
                    SyncUpConflict(
                        reason: .deletedOnServer,
                        serverModified: nil,
                        localModified: record.localModificationDate
                    )
                )
                continue
            }
            var copy = record
            copy.action = .create
            switch plan.request(for: copy) {
            case .create(let type, let fields), .upsert(let type, _, let fields):
                creates.append((entryID, SObjectRecord(objectType: type, fields: fields)))
            default:
                outcomes[entryID] = .failed([
                    SyncUpRequestPlan.localError("NOT_FOUND", "the record was deleted on the server")
                ])
            }
        }
        try await write(creates, into: &outcomes) { .create($0) }
    }
}
