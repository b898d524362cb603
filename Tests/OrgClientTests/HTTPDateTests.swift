import Foundation
import Testing

@testable import OrgClient

struct HTTPDateTests {
    @Test(arguments: [
        (1_709_658_251.0, "Tue, 05 Mar 2024 17:04:11 GMT"),
        (0.0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (951_782_400.999, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (-1.0, "Wed, 31 Dec 1969 23:59:59 GMT"),
        (4_102_444_800.0, "Fri, 01 Jan 2100 00:00:00 GMT"),
    ])
    func formatsRFC1123(seconds: Double, expected: String) {
        #expect(HTTPDate(Date(timeIntervalSince1970: seconds)).text == expected)
    }
}

struct PrimingTimestampTests {
    @Test func thePrimingRecordsTimestampHasMillisecondsAndZ() {
        let date = Date(timeIntervalSince1970: 1_709_658_251.5)
        #expect(RESTOrgClient.primingTimestamp(date) == "2024-03-05T17:04:11.500Z")
    }
}
