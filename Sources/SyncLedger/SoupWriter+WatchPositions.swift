import Foundation
import GRDB
import JSONCore
import SoupStore

/// Where `syncrun watch` is in a sync's change events: the Pub/Sub topic and the replay id of the
/// last event whose changes are in the store, and when that was written. One row per watched sync
/// in `syncrun_watch_positions` (step `ledger-3-watch-positions`), written in the same transaction
/// as the records the events led to, so a restart resumes exactly after it (the `CUSTOM` preset).
public struct WatchPosition: Sendable, Hashable {
    /// The sync's id.
    public var syncID: Int64
    /// The topic, such as `/data/AccountChangeEvent`.
    public var topic: String
    /// The replay id: opaque bytes the org gave the event.
    public var replayID: [UInt8]
    /// When the store commit that recorded it was made, in ms since the epoch.
    public var appliedAt: Int64

    /// Creates a position.
    public init(syncID: Int64, topic: String, replayID: [UInt8], appliedAt: Int64) {
        self.syncID = syncID
        self.topic = topic
        self.replayID = replayID
        self.appliedAt = appliedAt
    }
}

/// What ``SoupWriter/removeWatchedRecords(_:returned:soup:idPath:syncID:)`` did.
public struct WatchRemoval: Sendable, Hashable {
    /// Records of the sync, clean, that the query no longer returns: no longer this sync's.
    public var released: Int
    /// Of those, the entries deleted (no other sync fetched them).
    public var deleted: Int

    /// Creates a result.
    public init(released: Int, deleted: Int) {
        self.released = released
        self.deleted = deleted
    }
}

enum WatchPositionsTable {
    static let name = "syncrun_watch_positions"

    static func positions(_ db: Database, syncID: Int64?) throws -> [WatchPosition] {
        guard try db.tableExists(name) else { return [] }
        let condition = syncID == nil ? "" : " WHERE sync_id = ?"
        return try Row.fetchAll(
            db,
            sql: "SELECT sync_id, topic, replay_id, applied_at FROM \(name)\(condition) ORDER BY sync_id",
            arguments: syncID.map { [$0] } ?? []
        ).map { row in
            let bytes = (row["replay_id"] as Data?).map { [UInt8]($0) } ?? []
            return WatchPosition(
                syncID: row["sync_id"],
                topic: row["topic"],
                replayID: bytes,
                appliedAt: row["applied_at"]
            )
        }
    }
}

extension SoupWriter {
    /// Records `position` as the sync's last applied event, replacing the one before. Call it in the
    /// transaction that writes the event's records.
    public func setWatchPosition(_ position: WatchPosition) throws {
        try db.execute(
            sql: """
                INSERT INTO \(WatchPositionsTable.name) (sync_id, topic, replay_id, applied_at) VALUES (?, ?, ?, ?) \
                ON CONFLICT (sync_id) DO UPDATE SET topic = excluded.topic, replay_id = excluded.replay_id, \
                applied_at = excluded.applied_at
                """,
            arguments: [position.syncID, position.topic, Data(position.replayID), position.appliedAt]
        )
    }

    /// Forgets sync `syncID`'s position (the org no longer holds its replay id): the next watch
    /// starts from the newest event after a resync.
    public func clearWatchPosition(syncID: Int64) throws {
        try db.execute(sql: "DELETE FROM \(WatchPositionsTable.name) WHERE sync_id = ?", arguments: [syncID])
    }

    /// Of the records `asked` about (the ids of a batch of change events), the clean ones sync
    /// `syncID` fetched that the query pages `returned` do not hold (deleted on the org, or no
    /// longer matching the sync's query) stop being this sync's, and are deleted when no other
    /// sync fetched them: ghost cleaning (`finishGhostScan`) restricted to the batch's ids. Records
    /// with local changes are never touched.
    ///
    /// - Parameters:
    ///   - asked: The ids the query was restricted to.
    ///   - returned: The query's pages, as the org sent them (`{"records": […]}`).
    ///   - soup: The sync's soup.
    ///   - idPath: The id field (`Id`).
    ///   - syncID: The sync.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`), database errors.
    public func removeWatchedRecords(
        _ asked: [String],
        returned: [String],
        soup: String,
        idPath: String,
        syncID: Int64
    ) throws -> WatchRemoval {
        guard !asked.isEmpty else { return WatchRemoval(released: 0, deleted: 0) }
        let layout = try layout(soup)
        try SoupPath.validate(idPath)
        let candidates = GhostCandidates(layout: layout, idPath: idPath)
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS syncrun_watch_returned (record_id TEXT PRIMARY KEY)")
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS syncrun_ghosts (eid INTEGER PRIMARY KEY, record_id TEXT)")
        defer {
            try? db.execute(sql: "DELETE FROM temp.syncrun_watch_returned")
            try? db.execute(sql: "DELETE FROM temp.syncrun_ghosts")
        }
        let jsonPath = "$.\"" + idPath + "\""
        for page in returned {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO temp.syncrun_watch_returned (record_id) \
                    SELECT json_extract(value, ?) FROM json_each(?, '$.records') WHERE json_extract(value, ?) IS NOT NULL
                    """,
                arguments: [jsonPath, page, jsonPath]
            )
        }
        try db.execute(sql: "DELETE FROM temp.syncrun_ghosts")
        try db.execute(
            sql: """
                INSERT INTO temp.syncrun_ghosts (eid, record_id)
                SELECT id, \(candidates.idColumn) FROM \(layout.tableName) WHERE \(candidates.condition) \
                AND \(candidates.idColumn) IN (SELECT value FROM json_each(?3)) \
                AND \(candidates.idColumn) NOT IN (SELECT record_id FROM temp.syncrun_watch_returned)
                """,
            arguments: [soup, syncID, Self.jsonArray(asked)]
        )
        let released = try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.syncrun_ghosts") ?? 0
        guard released > 0 else { return WatchRemoval(released: 0, deleted: 0) }
        try releaseGhostClaims(of: soup, syncID: syncID)
        let deleted = try deleteUnclaimedGhosts(of: soup)
        return WatchRemoval(released: released, deleted: deleted)
    }

    /// `ids` as a JSON array of strings for `json_each` (ids are checked Salesforce ids, but any
    /// text is escaped the JSON way).
    private static func jsonArray(_ ids: [String]) -> String {
        "[" + ids.map { JSONWriter.quoted($0) }.joined(separator: ",") + "]"
    }
}

extension SoupReader {
    /// The watch positions of every sync, or of sync `syncID`, by sync id.
    public func watchPositions(syncID: Int64? = nil) throws -> [WatchPosition] {
        try WatchPositionsTable.positions(db, syncID: syncID)
    }
}
