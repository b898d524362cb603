import Testing

@testable import OrgClient

struct APIUsageTests {
    @Test(arguments: [
        ("api-usage=18/15000", APIUsage(used: 18, max: 15000)),
        ("api-usage=25/5000, per-app-api-usage=17/250(appName=sample-app)", APIUsage(used: 25, max: 5000)),
        ("per-app-api-usage=17/250(appName=a),api-usage=1/2", APIUsage(used: 1, max: 2)),
    ])
    func parsesTheHeader(header: String, expected: APIUsage) {
        #expect(APIUsage(limitInfoHeader: header) == expected)
    }

    @Test(arguments: ["", "api-usage=", "api-usage=5", "api-usage=a/b", "per-app-api-usage=1/2(appName=x)"])
    func rejectsOtherValues(header: String) {
        #expect(APIUsage(limitInfoHeader: header) == nil)
    }

    @Test func remainingNeverGoesNegative() {
        #expect(APIUsage(used: 10, max: 15).remaining == 5)
        #expect(APIUsage(used: 20, max: 15).remaining == 0)
    }
}
