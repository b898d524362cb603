import GRDB
import SoupStore

/// One step of the latest plan run, as recorded in `syncrun_plan_journal`, so that
/// `syncrun run --resume` knows which steps a stopped or killed run did not finish.
///
/// The table holds the steps of one run only: a new (non-resumed) run replaces them. The SDK's
/// `syncs_soup` is untouched; apps that open the store ignore the table.
public struct PlanJournalEntry: Sendable, Hashable {
    /// Where a step got to.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Not started yet (or the process died before it started).
        case pending = "PENDING"
        /// Started; a process that is gone left it like this when it was killed.
        case running = "RUNNING"
        /// Ended `DONE`.
        case done = "DONE"
        /// Ended `FAILED`, or could not start.
        case failed = "FAILED"
        /// Ended `STOPPED` (SIGINT / SIGTERM).
        case stopped = "STOPPED"
        /// Not run because a step it depends on did not end `DONE`.
        case skipped = "SKIPPED"
    }

    /// The plan step's id (`syncDown:accounts`…).
    public var stepID: String
    /// The step's position in the plan (0-based).
    public var position: Int
    /// Where it got to.
    public var status: Status
    /// When the entry was last written, in ms since the epoch.
    public var updatedAt: Int64

    /// Creates an entry.
    public init(stepID: String, position: Int, status: Status, updatedAt: Int64) {
        self.stepID = stepID
        self.position = position
        self.status = status
        self.updatedAt = updatedAt
    }
}

enum PlanJournalTable {
    static let name = "syncrun_plan_journal"

}

extension SoupReader {
    /// The steps of the latest plan run in plan order; empty when no run was recorded.
    public func planJournal() throws -> [PlanJournalEntry] {
        guard try db.tableExists(PlanJournalTable.name) else { return [] }
        return try Row.fetchAll(
            db,
            sql: "SELECT step_id, position, status, updated_at FROM \(PlanJournalTable.name) ORDER BY position"
        ).map { row in
            let text: String = row[2]
            return PlanJournalEntry(
                stepID: row[0],
                position: row[1],
                status: PlanJournalEntry.Status(rawValue: text) ?? .pending,
                updatedAt: row[3]
            )
        }
    }
}

extension SoupWriter {
    /// Starts a new journal: every step of `stepIDs` `PENDING`, in that order; the previous run's
    /// entries are dropped.
    public func startPlanJournal(stepIDs: [String], now: Int64) throws {
        try db.execute(sql: "DELETE FROM \(PlanJournalTable.name)")
        let statement = try db.cachedStatement(
            sql: "INSERT INTO \(PlanJournalTable.name) (step_id, position, status, updated_at) VALUES (?, ?, ?, ?)"
        )
        for (position, stepID) in stepIDs.enumerated() {
            try statement.execute(arguments: [stepID, position, PlanJournalEntry.Status.pending.rawValue, now])
        }
    }

    /// Records where step `stepID` got to. A step the journal lacks is appended.
    public func recordPlanStep(_ stepID: String, status: PlanJournalEntry.Status, now: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO \(PlanJournalTable.name) (step_id, position, status, updated_at) \
                VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1 FROM \(PlanJournalTable.name)), ?, ?) \
                ON CONFLICT(step_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at
                """,
            arguments: [stepID, status.rawValue, now]
        )
    }
}
