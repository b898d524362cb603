import SoupStore
import Testing

@testable import SyncEngine

/// The sync state transitions of one run (§3.3, §4.1, §4.7), without I/O.
struct SyncDownProgressTests {
    private func state() -> StoredSyncState {
        StoredSyncState(
            id: 3,
            kind: .syncDown,
            name: "s",
            targetJSON: "{}",
            optionsJSON: "{}",
            soupName: "soup",
            status: .failed,
            progress: 40,
            totalSize: 9,
            maxTimeStamp: 500,
            error: "old"
        )
    }

    @Test func startResetsTheRunFields() {
        var progress = SyncDownProgress(state: state(), isSorted: true, baseline: 500)
        let started = progress.start(now: 1000)
        #expect(started.status == .running && started.progress == 0 && started.totalSize == -1)
        #expect(started.error == "" && started.startTime == 1000 && started.maxTimeStamp == 500)
    }

    @Test func sortedTargetsSaveTheWatermarkPerPageFromSavedRecordsOnly() {
        var progress = SyncDownProgress(state: state(), isSorted: true, baseline: 500)
        _ = progress.start(now: 1)
        let first = progress.pageWritten(totalSize: 10, fetched: 4, saved: 3, skipped: 1, latestSaved: 700)
        #expect(first.maxTimeStamp == 700 && first.progress == 40 && first.totalSize == 10)
        let second = progress.pageWritten(totalSize: 10, fetched: 6, saved: 6, skipped: 0, latestSaved: nil)
        #expect(second.maxTimeStamp == 700 && second.progress == 40)  // 10 of 10: progress moves only at the end
        let done = progress.finish(now: 9)
        #expect(done.status == .done && done.progress == 100 && done.endTime == 9 && done.maxTimeStamp == 700)
        #expect(progress.fetched == 10 && progress.saved == 9 && progress.skipped == 1 && progress.pages == 2)
    }

    @Test func unsortedTargetsKeepTheOldWatermarkUntilTheEnd() {
        var progress = SyncDownProgress(state: state(), isSorted: false, baseline: 500)
        _ = progress.start(now: 1)
        let page = progress.pageWritten(totalSize: 3, fetched: 1, saved: 1, skipped: 0, latestSaved: 900)
        #expect(page.maxTimeStamp == 500)
        let failed = progress.fail("boom", now: 5)
        #expect(failed.status == .failed && failed.error == "boom" && failed.maxTimeStamp == 500)
        #expect(failed.progress == 33 && failed.endTime == 5)
    }

    @Test func stopKeepsProgressAndAFullRunMayLowerTheWatermark() {
        var progress = SyncDownProgress(state: state(), isSorted: true, baseline: -1)
        _ = progress.start(now: 1)
        _ = progress.pageWritten(totalSize: 4, fetched: 2, saved: 2, skipped: 0, latestSaved: 300)
        let stopped = progress.stop(now: 2)
        #expect(stopped.status == .stopped && stopped.progress == 50 && stopped.maxTimeStamp == 300)
    }
}
