import Foundation
import SoupStore
import SyncLedger

/// Decides whether the holder of a sync lock is still alive.
///
/// A lock held by this process, or by a process on another host, is presumed alive. A lock held
/// by a process of this host that no longer exists (`kill(pid, 0)` fails with `ESRCH`) was left
/// by a run that was killed: its `RUNNING` state becomes `STOPPED` (§3.3, §10.2).
struct SyncLockPolicy: Sendable {
    let configuration: SyncEngineConfiguration

    func isAlive(_ lock: SyncLock) -> Bool {
        guard lock.hostName == configuration.hostName else { return true }
        if lock.processID == configuration.processID { return true }
        guard lock.processID > 0 else { return false }
        if kill(lock.processID, 0) == 0 { return true }
        return errno == EPERM
    }

    func makeLock(syncID: Int64, operation: SyncOperation) -> SyncLock {
        SyncLock(
            syncID: syncID,
            processID: configuration.processID,
            hostName: configuration.hostName,
            token: UUID().uuidString,
            operation: operation.rawValue,
            claimedAt: configuration.now()
        )
    }
}
