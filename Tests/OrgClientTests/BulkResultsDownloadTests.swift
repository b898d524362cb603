import Foundation
import Logging
import Testing

@testable import OrgClient

/// A Bulk API 2.0 query job's results read through `resultPages` several at a time, or by
/// `Sforce-Locator` where the org has no `resultPages`, on a transport that plays a job of
/// `pages` pages and counts the requests in flight at once.
private final class PagesServer: @unchecked Sendable {
    // Safe: every var is only touched while `lock` is held.
    private let lock = NSLock()
    let pages: Int
    let hasResultPages: Bool
    /// The results requests held until this many were in flight at once (at most `hold` each): the
    /// count then shows how many the client keeps going.
    let holdUntil: Int
    let hold: Duration
    private var inFlight = 0
    private var maxInFlight = 0
    private var targets: [String] = []

    init(pages: Int, hasResultPages: Bool, holdUntil: Int = 1, hold: Duration = .milliseconds(200)) {
        self.pages = pages
        self.hasResultPages = hasResultPages
        self.holdUntil = holdUntil
        self.hold = hold
    }

    var most: Int { lock.withLock { maxInFlight } }
    var requested: [String] { lock.withLock { targets } }

    static let base = "/services/data/v62.0/jobs/query/750000000000001AAA"

    func client(apiVersion: String = "62.0") throws -> RESTOrgClient {
        let configuration = RESTOrgClient.Configuration(
            endpoint: try OrgEndpoint(baseURL: "https://org.example.com", accessToken: "T", apiVersion: apiVersion)
        )
        return RESTOrgClient(configuration: configuration, logger: Logger(label: "test")) { _, request, _ in
            try await self.answer(request)
        }
    }

    private func answer(_ request: OutgoingRequest) async throws -> IncomingResponse {
        lock.withLock { targets.append(request.target) }
        if request.path.hasSuffix("/resultPages") {
            guard hasResultPages else {
                return IncomingResponse(
                    status: 404,
                    headers: [],
                    body: #"[{"errorCode":"NOT_FOUND","message":"The requested resource does not exist"}]"#
                )
            }
            let first = Self.parameter("locator", of: request).flatMap { Int($0) } ?? 0
            let listed = Array(first..<min(first + 5, pages))
            let urls = listed.map { #"{"resultUrl":"\#(Self.base)/results?locator=\#($0)&maxRecords=2"}"# }
            let done = first + 5 >= pages
            let next = done ? "null" : #""\#(Self.base)/resultPages?locator=\#(first + 5)&maxRecords=2""#
            let body = #"{"resultPages":[\#(urls.joined(separator: ","))],"nextRecordsUrl":\#(next),"done":\#(done)}"#
            return IncomingResponse(status: 200, headers: [], body: body)
        }
        let index = Self.parameter("locator", of: request).flatMap { Int($0) } ?? 0
        var most = lock.withLock { () -> Int in
            inFlight += 1
            maxInFlight = max(maxInFlight, inFlight)
            return maxInFlight
        }
        // Bounded, so a client that sends one at a time is slow here, not stuck.
        let deadline = ContinuousClock.now + hold
        while most < holdUntil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
            most = lock.withLock { maxInFlight }
        }
        // Later pages answer first, so arrival order differs from result order.
        try await Task.sleep(for: .milliseconds(Int64(3 * (pages - index))))
        lock.withLock { inFlight -= 1 }
        let next = index + 1 < pages ? String(index + 1) : "null"
        return IncomingResponse(
            status: 200,
            headers: [(name: "Sforce-Locator", value: next), (name: "Sforce-NumberOfRecords", value: "2")],
            body: "Id,Name\n\(index)a,Page \(index)\n\(index)b,Page \(index)\n"
        )
    }

    private static func parameter(_ name: String, of request: OutgoingRequest) -> String? {
        request.query?.split(separator: "&").first { $0.hasPrefix("\(name)=") }.map {
            String($0.dropFirst(name.count + 1))
        }
    }
}

struct BulkResultsDownloadTests {
    private static func read(_ download: BulkResultsDownload) async throws -> [String] {
        var csvs: [String] = []
        while let page = try await download.next() { csvs.append(page.csv) }
        return csvs
    }

    private static func expected(_ pages: Int) -> [String] {
        (0..<pages).map { "Id,Name\n\($0)a,Page \($0)\n\($0)b,Page \($0)\n" }
    }

    @Test func resultPagesDownloadUpToTheLimitAtOnceAndComeOutInOrder() async throws {
        let server = PagesServer(pages: 12, hasResultPages: true, holdUntil: 3, hold: .seconds(5))
        let download = BulkResultsDownload(
            org: try server.client(),
            jobID: "750000000000001AAA",
            maxRecords: 2,
            limit: 3
        )
        #expect(try await Self.read(download) == Self.expected(12))
        #expect(download.isParallel)
        #expect(server.most == 3)
        let lists = server.requested.filter { $0.contains("/resultPages") }
        #expect(
            lists == [
                "\(PagesServer.base)/resultPages?maxRecords=2",
                "\(PagesServer.base)/resultPages?locator=5&maxRecords=2",
                "\(PagesServer.base)/resultPages?locator=10&maxRecords=2",
            ]
        )
        #expect(server.requested.filter { $0.contains("/results?") }.count == 12)
    }

    @Test func anOrgWithoutResultPagesIsReadLocatorAfterLocator() async throws {
        let server = PagesServer(pages: 4, hasResultPages: false, holdUntil: 2)
        let download = BulkResultsDownload(
            org: try server.client(),
            jobID: "750000000000001AAA",
            maxRecords: 2,
            limit: 4
        )
        #expect(try await Self.read(download) == Self.expected(4))
        #expect(!download.isParallel)
        #expect(server.most == 1)
        #expect(
            server.requested == [
                "\(PagesServer.base)/resultPages?maxRecords=2",
                "\(PagesServer.base)/results?maxRecords=2",
                "\(PagesServer.base)/results?locator=1&maxRecords=2",
                "\(PagesServer.base)/results?locator=2&maxRecords=2",
                "\(PagesServer.base)/results?locator=3&maxRecords=2",
            ]
        )
    }

    @Test func beforeAPI58AResumedDownloadOrALimitOfOneNeverAskForResultPages() async throws {
        let old = PagesServer(pages: 3, hasResultPages: true)
        let before58 = BulkResultsDownload(
            org: try old.client(apiVersion: "57.0"),
            jobID: "750000000000001AAA",
            maxRecords: 2,
            limit: 4
        )
        #expect(try await Self.read(before58) == Self.expected(3))
        #expect(!old.requested.contains { $0.contains("/resultPages") })

        let resumed = PagesServer(pages: 3, hasResultPages: true)
        let fromLocator = BulkResultsDownload(
            org: try resumed.client(),
            jobID: "750000000000001AAA",
            maxRecords: 2,
            limit: 4,
            startingAt: "1"
        )
        #expect(try await Self.read(fromLocator) == Array(Self.expected(3).dropFirst()))
        #expect(!resumed.requested.contains { $0.contains("/resultPages") })

        let one = PagesServer(pages: 3, hasResultPages: true, holdUntil: 2)
        let single = BulkResultsDownload(org: try one.client(), jobID: "750000000000001AAA", maxRecords: 2, limit: 1)
        #expect(try await Self.read(single) == Self.expected(3))
        #expect(!one.requested.contains { $0.contains("/resultPages") })
        #expect(one.most == 1)
    }

    /// A `resultUrl` or next URL outside the job's own resource is refused before any request
    /// carries the token there.
    @Test func aResultURLOutsideTheJobIsRefused() async throws {
        let server = PagesServer(pages: 1, hasResultPages: true)
        let client = try server.client()
        for url in [
            "https://elsewhere.example.com\(PagesServer.base)/results?locator=0",
            "/services/data/v62.0/jobs/query/750000000000002AAA/results?locator=0",
            "\(PagesServer.base)/results/../../../sobjects/Account",
            "\(PagesServer.base)/resultsX?locator=0",
        ] {
            let error = await #expect(throws: OrgClientError.self) {
                try await client.queryJobResults("750000000000001AAA", resultURL: url)
            }
            #expect(error?.code == .invalidResponse)
        }
        let error = await #expect(throws: OrgClientError.self) {
            try await client.queryJobResultPages(
                "750000000000001AAA",
                next: "/services/data/v62.0/query/01g-2",
                maxRecords: nil
            )
        }
        #expect(error?.code == .invalidResponse)
        #expect(server.requested.isEmpty)
    }
}
