import Foundation
import Testing

@testable import SyncEngine

struct JUnitSuiteTests {
    @Test func theSuiteTimestampIsISO8601InWholeSecondsUTC() {
        let suite = JUnitSuite(
            name: "plan",
            timestamp: Date(timeIntervalSince1970: 1_709_658_251.75),
            cases: [JUnitSuite.TestCase(classname: "plan", name: "accounts", milliseconds: 1_500)]
        )
        #expect(suite.xml.contains(#"time="1.500" timestamp="2024-03-05T17:04:11Z">"#))
    }
}
