import Foundation
import SOQL

/// A JUnit XML report, the format CI systems (GitHub Actions reporters, GitLab, Jenkins) read: one
/// suite of test cases. `syncrun run` writes one case per plan step, `syncrun migrate` one per
/// object.
public struct JUnitSuite: Sendable, Hashable {
    /// One `<testcase>`.
    public struct TestCase: Sendable, Hashable {
        /// A `<failure>`: its `type`, `message` and text.
        public struct Failure: Sendable, Hashable {
            public var type: String
            public var message: String
            public var detail: String

            public init(type: String, message: String, detail: String) {
                self.type = type
                self.message = message
                self.detail = detail
            }
        }

        public var classname: String
        public var name: String
        public var milliseconds: Int64
        public var failure: Failure?
        /// The message of a `<skipped>` element.
        public var skipped: String?
        /// The `<system-out>` text.
        public var systemOut: String?

        public init(
            classname: String,
            name: String,
            milliseconds: Int64 = 0,
            failure: Failure? = nil,
            skipped: String? = nil,
            systemOut: String? = nil
        ) {
            self.classname = classname
            self.name = name
            self.milliseconds = milliseconds
            self.failure = failure
            self.skipped = skipped
            self.systemOut = systemOut
        }
    }

    public var name: String
    public var timestamp: Date
    public var cases: [TestCase]

    public init(name: String, timestamp: Date, cases: [TestCase]) {
        self.name = name
        self.timestamp = timestamp
        self.cases = cases
    }

    /// The XML document.
    public var xml: String {
        let failures = cases.filter { $0.failure != nil }.count
        let skipped = cases.filter { $0.failure == nil && $0.skipped != nil }.count
        let seconds = Self.seconds(cases.reduce(0) { $0 + $1.milliseconds })
        let stamp = SalesforceDateTime.iso8601Seconds(
            milliseconds: Int64((timestamp.timeIntervalSince1970 * 1000).rounded(.down))
        )
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts =
            "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds)\""
        xml += "<testsuites name=\"\(Self.escaped(name))\" \(counts)>\n"
        xml += "  <testsuite name=\"\(Self.escaped(name))\" \(counts) timestamp=\"\(stamp)\">\n"
        for test in cases {
            xml +=
                "    <testcase classname=\"\(Self.escaped(test.classname))\" "
                + "name=\"\(Self.escaped(test.name))\" time=\"\(Self.seconds(test.milliseconds))\">\n"
            if let failure = test.failure {
                xml +=
                    "      <failure type=\"\(failure.type)\" message=\"\(Self.escaped(failure.message))\">"
                    + Self.escaped(failure.detail) + "</failure>\n"
            } else if let skipped = test.skipped {
                xml += "      <skipped message=\"\(Self.escaped(skipped))\"/>\n"
            }
            if let out = test.systemOut {
                xml += "      <system-out>\(Self.escaped(out))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private static func seconds(_ milliseconds: Int64) -> String {
        String(format: "%.3f", Double(milliseconds) / 1000)
    }

    /// `text` with the five XML special characters escaped and control characters (invalid in
    /// XML 1.0) replaced by U+FFFD.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                out.unicodeScalars.append(scalar.value < 0x20 ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}
