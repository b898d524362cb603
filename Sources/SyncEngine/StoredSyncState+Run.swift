import SoupStore

extension StoredSyncState {
    /// A run starts (sync down and sync up alike, §3.3): `RUNNING`, progress 0, `totalSize`
    /// unknown, error cleared, `startTime` now.
    mutating func start(now: Int64) {
        status = .running
        progress = 0
        totalSize = -1
        error = ""
        startTime = now
    }
}
