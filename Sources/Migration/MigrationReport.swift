import Foundation
import SyncEngine

/// The outcome of a migration, per object, with the warnings; rendered as the JSON
/// `{"objects": [{"sobject", "read", "created", "updated", "unchanged", "failed", "failures":
/// [{"sourceId", "message"}]}], "warnings": [...]}`.
public struct MigrationReport: Sendable, Hashable {
    /// One object of the report.
    public struct Object: Sendable, Hashable {
        public var sobject: String
        /// Records in the staging soup (read from the source).
        public var read = 0
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        public var failed = 0
        /// The failed records, at most ``MigrationReport/failuresListed`` per object.
        public var failures: [MigrationFailure] = []
        /// `false` for a soup that is read but not written (no sync up).
        public var isWritten = true
        /// Dry run: the first records that would be created or updated.
        public var planned: [PlannedWrite] = []
        /// `--delete-missing`: records deleted in the target (a dry run: that would be).
        public var deleted = 0
        /// `--delete-missing`: the records deleted (a dry run: to delete), at most
        /// ``MigrationReport/failuresListed`` per object (the count is complete).
        public var deletions: [Deletion] = []

        public init(sobject: String) { self.sobject = sobject }

        mutating func add(_ outcome: BatchOutcome) {
            created += outcome.created
            updated += outcome.updated
            unchanged += outcome.unchanged
            failed += outcome.failures.count
            let room = MigrationReport.failuresListed - failures.count
            if room > 0 { failures += outcome.failures.prefix(room) }
        }
    }

    /// A write a dry run would send.
    public struct PlannedWrite: Sendable, Hashable {
        public enum Action: String, Sendable, Hashable {
            case create, update
        }

        public var action: Action
        public var sourceID: String
        public var targetID: String?
    }

    /// A target record `--delete-missing` deletes: its source record is no longer returned.
    public struct Deletion: Sendable, Hashable {
        public var sourceID: String
        public var targetID: String

        public init(sourceID: String, targetID: String) {
            self.sourceID = sourceID
            self.targetID = targetID
        }
    }

    /// The most failures listed per object (the counts are complete).
    public static let failuresListed = 1000
    /// The most planned writes a dry run lists per object.
    public static let plannedListed = 50

    public var objects: [Object] = []
    public var warnings: [String] = []
    public var isDryRun = false
    /// The run was asked to delete the records the source no longer returns (`--delete-missing`).
    public var deletesMissing = false
    /// `--to dir:`: the set's folder (`nil` for an org target).
    public var directory: String?
    /// `--to dir:`: the files this run wrote (a file whose bytes would not change is not written).
    public var filesWritten: [String] = []

    public init() {}

    /// Whether every record was migrated (exit status 0).
    public var isClean: Bool { objects.allSatisfy { $0.failed == 0 } }
}

/// Progress of the write phase, one per batch.
public struct MigrationProgress: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        /// First pass: create / update / match.
        case write
        /// Second pass: references written after their targets exist.
        case references
    }

    public var sobject: String
    public var phase: Phase
    /// Records decided so far in this phase of the object.
    public var done: Int
    /// Records in the object's soup.
    public var total: Int
}

extension MigrationReport {
    /// The report as JUnit XML (as `syncrun run --junit`): one `<testcase>` per object, a
    /// `<failure>` (type `RECORD_ISSUES`) listing its failed records, `<skipped>` for a soup read
    /// but not written; the counts in `<system-out>`.
    public func junitXML(timestamp: Date, milliseconds: Int64) -> String {
        let cases = objects.map { object in
            JUnitSuite.TestCase(
                classname: "migrate",
                name: object.sobject,
                milliseconds: 0,
                failure: object.failed == 0
                    ? nil
                    : JUnitSuite.TestCase.Failure(
                        type: "RECORD_ISSUES",
                        message: "\(object.failed) record(s) failed",
                        detail: object.failures.map { "\($0.sourceID): \($0.message)" }.joined(separator: "\n")
                    ),
                skipped: object.isWritten ? nil : "read but not written (no sync up)",
                systemOut: "read=\(object.read) created=\(object.created) updated=\(object.updated) "
                    + "unchanged=\(object.unchanged) failed=\(object.failed)"
                    + (deletesMissing ? " deleted=\(object.deleted)" : "")
            )
        }
        var suite = JUnitSuite(name: "syncrun migrate", timestamp: timestamp, cases: cases)
        if !suite.cases.isEmpty { suite.cases[0].milliseconds = milliseconds }
        return suite.xml
    }
}
