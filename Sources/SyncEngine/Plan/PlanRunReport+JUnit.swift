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
        let cases = steps.map { step in
            var systemOut: String?
            if let summary = step.summary {
                systemOut = Self.totals(summary)
            } else if let preview = step.preview {
                systemOut =
                    "dry run: org created=\(preview.org.created) updated=\(preview.org.updated) "
                    + "deleted=\(preview.org.deleted); store created=\(preview.local.created) "
                    + "updated=\(preview.local.updated) deleted=\(preview.local.deleted); "
                    + "conflicts=\(preview.conflicts) requests=\(preview.requests)"
            }
            let isSkipped = step.status == .skipped || step.status == .notRun
            return JUnitSuite.TestCase(
                classname: step.step.syncName,
                name: step.step.id,
                milliseconds: step.summary?.durationMilliseconds ?? 0,
                failure: step.junitFailure.map {
                    JUnitSuite.TestCase.Failure(type: $0.type, message: $0.message, detail: $0.detail)
                },
                skipped: isSkipped ? (step.message ?? step.status.rawValue) : nil,
                systemOut: systemOut
            )
        }
        return JUnitSuite(name: suiteName, timestamp: timestamp, cases: cases).xml
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
