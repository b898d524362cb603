import Foundation

extension PlanRunReport {
    /// The report as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins)
    /// read: one `<testcase>` per plan step, `classname` the sync's name and `name` the step id.
    ///
    /// A step that failed or stopped, or ended `DONE` with failed or conflicted records, is a
    /// `<failure>` (type `FAILED`, `STOPPED` or `RECORD_ISSUES`) whose text lists the records; a
    /// skipped or not-run step is `<skipped>`. The step's totals go to `<system-out>`.
    ///
    /// - Parameters:
    ///   - suiteName: The `name` of the suite.
    ///   - timestamp: When the run started, for the suite's `timestamp` attribute.
    public func junitXML(suiteName: String = "syncrun run", timestamp: Date = Date()) -> String {
        let failures = steps.filter { $0.junitFailure != nil }.count
        let skipped = steps.filter { $0.status == .skipped || $0.status == .notRun }.count
        let seconds = Self.seconds(steps.reduce(0) { $0 + ($1.summary?.durationMilliseconds ?? 0) })
        let stamp = ISO8601DateFormatter().string(from: timestamp)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts =
            "tests=\"\(steps.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds)\""
        xml += "<testsuites name=\"\(Self.escaped(suiteName))\" \(counts)>\n"
        xml += "  <testsuite name=\"\(Self.escaped(suiteName))\" \(counts) timestamp=\"\(stamp)\">\n"
        for step in steps {
            let time = Self.seconds(step.summary?.durationMilliseconds ?? 0)
            xml +=
                "    <testcase classname=\"\(Self.escaped(step.step.syncName))\" "
                + "name=\"\(Self.escaped(step.step.id))\" time=\"\(time)\">\n"
            if let failure = step.junitFailure {
                xml +=
                    "      <failure type=\"\(failure.type)\" message=\"\(Self.escaped(failure.message))\">"
                    + Self.escaped(failure.detail) + "</failure>\n"
            } else if step.status == .skipped || step.status == .notRun {
                xml += "      <skipped message=\"\(Self.escaped(step.message ?? step.status.rawValue))\"/>\n"
            }
            if let summary = step.summary {
                xml += "      <system-out>\(Self.escaped(Self.totals(summary)))</system-out>\n"
            } else if let preview = step.preview {
                let text =
                    "dry run: org created=\(preview.org.created) updated=\(preview.org.updated) "
                    + "deleted=\(preview.org.deleted); store created=\(preview.local.created) "
                    + "updated=\(preview.local.updated) deleted=\(preview.local.deleted); "
                    + "conflicts=\(preview.conflicts) requests=\(preview.requests)"
                xml += "      <system-out>\(Self.escaped(text))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private static func totals(_ summary: SyncRunSummary) -> String {
        var parts = [
            "status=\(summary.status.rawValue)", "created=\(summary.created)", "updated=\(summary.updated)",
            "deleted=\(summary.deleted + summary.deletedGhosts)", "conflicts=\(summary.conflicts)",
            "failed=\(summary.failed)", "skipped=\(summary.skipped + summary.skippedLocallyChanged)",
            "requests=\(summary.requests)",
        ]
        if summary.operation != .syncUp { parts.append("fetched=\(summary.fetched)") }
        return parts.joined(separator: " ")
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

extension PlanStepResult {
    /// The JUnit failure this step stands for, if any.
    fileprivate var junitFailure: (type: String, message: String, detail: String)? {
        switch status {
        case .failed, .stopped:
            return (status.rawValue, message ?? status.rawValue, message ?? "")
        case .done:
            guard let summary, !summary.isClean else { return nil }
            let message = "\(summary.conflicts) record(s) conflicted and \(summary.failed) failed"
            let detail = summary.issues.map(\.description).joined(separator: "\n")
            return ("RECORD_ISSUES", message, detail)
        case .skipped, .notRun:
            return nil
        }
    }
}
