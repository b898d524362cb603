extension SyncUpRunner {
    /// Decides, sends and writes one batch of a custom target: the plug-in's `isNewerThanServer`
    /// under `LEAVE_IF_CHANGED`, its writes, then its modification dates of what was written,
    /// written back with the sync state in one transaction.
    func processCustom(_ records: [SyncUpRecord], sender: CustomSyncUpSender, progress: inout SyncUpProgress)
        async throws
    {
        let decisions = try await sender.decide(records)
        let outcomes = try await sender.send(decisions)
        let dates = try await sender.writtenDates(decisions, outcomes: outcomes)
        let state = progress.batchWritten(records, outcomes: outcomes)
        let writeBack = SyncUpWriteBack(
            soupName: state.soupName,
            idFieldName: sender.plan.idFieldName,
            modificationDateFieldName: sender.plan.modificationDateFieldName
        )
        try await store.write { [outcomes] writer in
            try writeBack.apply(records, outcomes: outcomes, serverDates: dates, writer: writer)
            _ = try writer.updateSyncState(state)
        }
        events?.yield(.batch(progress.batchProgress))
    }
}
