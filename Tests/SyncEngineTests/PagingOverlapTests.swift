import OrgClient
import SyncConfig
import SyncrunTestSupport
import Testing

@testable import SyncEngine

/// A `soql` sync down reads through `OrgClient.queryPages`: page N+1 is requested while page N
/// is written, and an error of page N+1 reaches the run only after page N was written.
struct PagingOverlapTests {
    private func fetcher() throws -> SOQLDownFetcher {
        var target = SOQLSyncDownTarget(query: "SELECT Id, LastModifiedDate FROM Account")
        target.api = .rest
        return try SOQLDownFetcher(syncName: "accounts", soupName: "accounts", target: target)
    }

    @Test func theNextPageIsRequestedBeforeThePageWriteFinishes() async throws {
        let org = ScriptedPagesClient([.page(records: 3), .page(records: 3), .page(records: 2)])
        try await TemporaryStore.with(soups: [EngineHarness.accountsSoup]) { store in
            var written = 0
            try await fetcher().fetch(since: 0, org: org, store: store) { page in
                #expect(page.totalSize == 30)
                written += 1
                // The page write ends once the next page was asked for: only a fetch ahead lets it.
                if written < 3 { _ = await org.waitFor("request \(written + 1)") }
                org.record("written \(written)")
                return true
            }
        }
        #expect(org.log == ["request 1", "request 2", "written 1", "request 3", "written 2", "written 3"])
        #expect(org.mostConcurrentRequests == 1)
    }

    @Test func anErrorOfThePageFetchedAheadIsReportedAfterTheWrittenPage() async throws {
        let failure = OrgClientError(code: .serverError, message: "page 2 failed")
        let org = ScriptedPagesClient([.page(records: 3), .failure(failure), .page(records: 2)])
        try await TemporaryStore.with(soups: [EngineHarness.accountsSoup]) { store in
            var written = 0
            let error = await #expect(throws: OrgClientError.self) {
                try await fetcher().fetch(since: 0, org: org, store: store) { _ in
                    written += 1
                    _ = await org.waitFor("request 2")
                    org.record("written \(written)")
                    return true
                }
            }
            #expect(error?.message == "page 2 failed")
            #expect(written == 1)
        }
        #expect(org.log == ["request 1", "request 2", "written 1"])
    }

    @Test func aStopAfterAPageCancelsThePageFetchedAhead() async throws {
        let org = ScriptedPagesClient([.page(records: 3), .hang, .page(records: 2)])
        try await TemporaryStore.with(soups: [EngineHarness.accountsSoup]) { store in
            try await fetcher().fetch(since: 0, org: org, store: store) { _ in
                _ = await org.waitFor("request 2")
                return false
            }
        }
        #expect(await org.waitFor("cancelled 2"))
        #expect(!org.log.contains("request 3"))
    }
}
