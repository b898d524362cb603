import LiveSync
import SyncConfig
import Testing

/// A batch's ids restricted into the sync's own query, and the topic of its object.
struct WatchQueryTests {
    private func sync(_ query: String) throws -> WatchedSync {
        try WatchedSync(WatchHarness.soql("s", query: query))
    }

    private let a = "001000000000001AAA"
    private let b = "001000000000002AAA"

    @Test func idsAreRequiredInFrontOfTheQuerysOwnCondition() throws {
        let queries = try sync("SELECT Name FROM Account WHERE Industry = 'Energy' OR Name LIKE 'A%'").queries(for: [
            a, b,
        ])
        #expect(
            queries == [
                "SELECT Id, LastModifiedDate, Name FROM Account WHERE Id IN ('\(a)', '\(b)') "
                    + "AND (Industry = 'Energy' OR Name LIKE 'A%')"
            ]
        )
    }

    @Test func aQueryWithoutWhereGetsOne() throws {
        #expect(
            try sync("SELECT Id, Name FROM Account").queries(for: [a])
                == ["SELECT LastModifiedDate, Id, Name FROM Account WHERE Id IN ('\(a)')"]
        )
    }

    @Test func orderByIsKeptAndLimitAndOffsetAreDropped() throws {
        let watched = try sync(
            "SELECT Name FROM Account WHERE Industry = 'Energy' ORDER BY Name DESC LIMIT 10 OFFSET 5"
        )
        #expect(watched.hasLimitOrOffset)
        #expect(
            watched.queries(for: [a])
                == [
                    "SELECT Id, LastModifiedDate, Name FROM Account WHERE Id IN ('\(a)') AND Industry = 'Energy' "
                        + "ORDER BY Name DESC"
                ]
        )
    }

    @Test func idsAreDeduplicatedAndChunked() throws {
        let ids = (0..<450).map { String(format: "001%012dAAA", $0) }
        let queries = try sync("SELECT Name FROM Account").queries(for: ids + ids.prefix(10))
        #expect(queries.count == 3)
        #expect(queries.map { $0.components(separatedBy: "'001").count - 1 } == [200, 200, 50])
    }

    @Test func topicsFollowThePublishedChannelNames() throws {
        #expect(try sync("SELECT Name FROM Account").topic == "/data/AccountChangeEvent")
        #expect(try sync("SELECT Name FROM Invoice__c").topic == "/data/Invoice__ChangeEvent")
    }

    @Test func onlySoqlSyncDownsAreWatchable() {
        let sosl = SyncDefinition(
            name: "s",
            type: .syncDown,
            soupName: "accounts",
            target: .down(.sosl(SOSLSyncDownTarget(query: "FIND {x}"))),
            options: SyncOptions()
        )
        #expect(throws: LiveSyncError.self) { try WatchedSync(sosl) }
    }
}
