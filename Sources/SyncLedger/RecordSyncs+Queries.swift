import GRDB
import SoupStore

extension SoupWriter {
    /// Gives the records fetched by sync `oldID` to sync `newID` (a definition recreated with
    /// `--replace` keeps its records), and forgets `oldID`.
    public func transferRecordSyncs(from oldID: Int64, to newID: Int64) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO \(RecordSyncsTable.name) (soup_name, record_id, sync_id)
                SELECT soup_name, record_id, ? FROM \(RecordSyncsTable.name) WHERE sync_id = ?
                """,
            arguments: [newID, oldID]
        )
        try db.execute(sql: "DELETE FROM \(RecordSyncsTable.name) WHERE sync_id = ?", arguments: [oldID])
    }
}

extension SoupReader {
    /// How many records of `soup` sync `syncID` is remembered to have fetched.
    public func fetchedRecordCount(in soup: String, syncID: Int64) throws -> Int {
        guard try db.tableExists(RecordSyncsTable.name) else { return 0 }
        return try Int.fetchOne(
            db,
            sql: "SELECT count(*) FROM \(RecordSyncsTable.name) WHERE soup_name = ? AND sync_id = ?",
            arguments: [soup, syncID]
        ) ?? 0
    }
}
