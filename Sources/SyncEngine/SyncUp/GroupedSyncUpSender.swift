import OrgClient

/// A sync up sender that packs records into calls of up to `callSize` records (collection,
/// batch), its calls sharing the run's `window` of requests in flight.
protocol GroupedSyncUpSender: Sendable {
    init(org: any OrgClient, plan: SyncUpRequestPlan, callSize: Int, window: RequestWindow, lockRetry: RecordLockRetry)

    /// Sends `records`; the outcome of each, by entry id.
    func send(_ records: [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome]
}
