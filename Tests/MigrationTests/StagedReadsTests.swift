import Testing

@testable import Migration

/// The read phase's bookkeeping that lets an object's writes start once its soups are read.
struct StagedReadsTests {
    struct ReadFailed: Error, Equatable {}

    actor Flag {
        var isSet = false
        func set() { isSet = true }
    }

    @Test(.timeLimit(.minutes(1))) func aWaitReturnsOnceEveryStepItNeedsIsRead() async throws {
        let reads = StagedReads(done: ["read:accountsDown"])
        // Already done: returns at once.
        try await reads.wait(for: ["read:accountsDown"])
        let released = Flag()
        let waiter = Task {
            try await reads.wait(for: ["read:accountsDown", "read:contactsDown"])
            await released.set()
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(await released.isSet == false, "the write started before its soup was read")
        let early = Task { try await reads.wait(for: ["read:contactsDown", "read:casesDown"]) }
        await reads.finished("read:contactsDown")
        try await waiter.value
        #expect(await released.isSet)
        // The second still needs casesDown; finishing every read releases it.
        await reads.finishedAll()
        try await early.value
    }

    @Test(.timeLimit(.minutes(1))) func aFailedReadIsThrownToEveryWriteWaitingAndToLaterWaits() async throws {
        let reads = StagedReads(done: [])
        let waiter = Task { try await reads.wait(for: ["read:contactsDown"]) }
        await reads.failed(ReadFailed())
        await #expect(throws: ReadFailed.self) { try await waiter.value }
        await #expect(throws: ReadFailed.self) { try await reads.wait(for: ["read:accountsDown"]) }
    }
}
