import GRDB

extension SoupReader {
    /// The sync state with id `id`, or `nil` (also when `syncs_soup` does not exist).
    public func syncState(id: Int64) throws -> StoredSyncState? {
        try SyncStateSQL.fetch(db, .id, arguments: [id]).first
    }

    /// The sync state named `name`, or `nil`.
    public func syncState(named name: String) throws -> StoredSyncState? {
        try SyncStateSQL.fetch(db, .name, arguments: [name]).first
    }

    /// Every sync state, by id.
    public func syncStates() throws -> [StoredSyncState] {
        try SyncStateSQL.fetch(db, .all, arguments: [])
    }
}

extension SoupWriter {
    /// Registers `syncs_soup` with MobileSync's indexes when missing, or alters it to them.
    public func ensureSyncsSoup() throws {
        try registerSoup(StoredSyncState.soupSpec)
    }

    /// Creates a sync state with MobileSync's initial values (`NEW`, progress 0, totalSize -1,
    /// maxTimeStamp -1, times 0, error "") and returns it with its id.
    ///
    /// - Parameters:
    ///   - targetJSON: The target as a JSON object.
    ///   - optionsJSON: The options as a JSON object.
    ///   - extraJSON: Additional keys, as a JSON object, or `nil`.
    /// - Throws: `SoupStoreError` (`.duplicateSyncName`, `.invalidSyncState`).
    public func createSyncState(
        kind: StoredSyncState.Kind,
        name: String?,
        targetJSON: String,
        optionsJSON: String,
        soupName: String,
        extraJSON: String? = nil
    ) throws -> StoredSyncState {
        try ensureSyncsSoup()
        if let name, try reader.syncState(named: name) != nil { throw SoupStoreError.duplicateSyncName(name) }
        let draft = StoredSyncState(
            id: 0,
            kind: kind,
            name: name,
            targetJSON: targetJSON,
            optionsJSON: optionsJSON,
            soupName: soupName,
            extraJSON: extraJSON
        )
        let entry = try upsert(try SyncStateSQL.document(db, for: draft), into: StoredSyncState.soupName)
        guard let created = try reader.syncState(id: entry.entryID) else {
            throw SoupStoreError.unknownSyncState("with id \(entry.entryID)")
        }
        return created
    }

    /// Rewrites the whole state document of `state.id` and returns the stored state.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSyncState`, `.duplicateSyncName`, `.invalidSyncState`).
    @discardableResult
    public func updateSyncState(_ state: StoredSyncState) throws -> StoredSyncState {
        guard try reader.syncState(id: state.id) != nil else {
            throw SoupStoreError.unknownSyncState("with id \(state.id)")
        }
        if let name = state.name, let other = try reader.syncState(named: name), other.id != state.id {
            throw SoupStoreError.duplicateSyncName(name)
        }
        let document = try SyncStateSQL.document(db, for: state)
        // The entry exists: rewrite it in place (what `upsert` by `_soupEntryId` does, without its
        // batch machinery; this runs once per page of every sync down).
        let layout = try layout(StoredSyncState.soupName)
        let now = Self.now()
        let columns = layout.columns.map { ", \($0.columnName) = \(SoupProjection.sql(for: $0, document: "?1"))" }
        try db.execute(
            sql: """
                UPDATE \(layout.tableName) SET soup = ?1, lastModified = ?2\(columns.joined()) WHERE id = ?3
                """,
            arguments: [
                try String.fetchOne(
                    db,
                    sql: "SELECT json_set(?, '$._soupEntryId', ?, '$._soupLastModifiedDate', ?)",
                    arguments: [document, state.id, now]
                ),
                now, state.id,
            ]
        )
        try FullText.refresh(db, layout: layout, idsSQL: "SELECT ?", arguments: [state.id])
        guard let updated = try reader.syncState(id: state.id) else {
            throw SoupStoreError.unknownSyncState("with id \(state.id)")
        }
        return updated
    }

    /// Deletes the state with id `id` (records keep their `__sync_id__`). Returns whether it existed.
    @discardableResult
    public func deleteSyncState(id: Int64) throws -> Bool {
        guard try reader.hasSoup(StoredSyncState.soupName) else { return false }
        return try deleteEntries([id], from: StoredSyncState.soupName) > 0
    }
}

/// The SQL that writes and reads MobileSync's sync state document.
enum SyncStateSQL {
    /// The document for `state`, keys in MobileSync's order, extras after them; no store fields.
    static func document(_ db: Database, for state: StoredSyncState) throws -> String {
        for (key, json) in [("target", state.targetJSON), ("options", state.optionsJSON)] {
            guard
                try String.fetchOne(
                    db,
                    sql: "SELECT CASE WHEN json_valid(?1) THEN json_type(?1) END",
                    arguments: [json]
                ) == "object"
            else { throw SoupStoreError.invalidSyncState("'\(key)' must be a JSON object") }
        }
        var extras = "{}"
        if let extra = state.extraJSON {
            let keys = try String.fetchAll(
                db,
                sql: "SELECT key FROM json_each(CASE WHEN json_valid(?1) AND json_type(?1) = 'object' THEN ?1 END)",
                arguments: [extra]
            )
            guard
                try Bool.fetchOne(db, sql: "SELECT json_valid(?1) AND json_type(?1) = 'object'", arguments: [extra])
                    == true
            else { throw SoupStoreError.invalidSyncState("extra keys must be a JSON object") }
            if let clash = keys.first(where: { StoredSyncState.documentKeys.contains($0) || $0.hasPrefix("_soup") }) {
                throw SoupStoreError.invalidSyncState("extra key '\(clash)' is a key the store manages")
            }
            extras = extra
        }
        let document =
            try String.fetchOne(
                db,
                sql: """
                    SELECT json_patch(json_object('type', ?1, 'name', ?2, 'target', json(?3), 'options', json(?4), \
                    'soupName', ?5, 'status', ?6, 'progress', ?7, 'totalSize', ?8, 'maxTimeStamp', ?9, \
                    'startTime', ?10, 'endTime', ?11, 'error', ?12), json(?13))
                    """,
                arguments: [
                    state.kind.rawValue, state.name, state.targetJSON, state.optionsJSON, state.soupName,
                    state.status.rawValue, state.progress, state.totalSize, state.maxTimeStamp, state.startTime,
                    state.endTime, state.error, extras,
                ]
            ) ?? "{}"
        guard state.name == nil else { return document }
        return try String.fetchOne(db, sql: "SELECT json_remove(?, '$.name')", arguments: [document]) ?? document
    }

    /// Which sync states ``fetch(_:_:arguments:)`` reads: a closed set, so its cached statements are few.
    enum Condition: String {
        case id = "id = ?"
        case name = "json_extract(soup, '$.name') = ?"
        case all = "1"
    }

    static func fetch(_ db: Database, _ condition: Condition, arguments: StatementArguments) throws -> [StoredSyncState]
    {
        guard let layout = try SoupLayout.load(db, soup: StoredSyncState.soupName) else { return [] }
        let managed = (StoredSyncState.documentKeys + ["_soupEntryId", "_soupLastModifiedDate"])
            .map { "'$.\($0)'" }.joined(separator: ", ")
        let fields = StoredSyncState.documentKeys.map { "json_extract(soup, '$.\($0)')" }.joined(separator: ", ")
        // Cached (one statement per condition): a sync reads its state several times.
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id, lastModified, \(fields), json_remove(soup, \(managed)) FROM \(layout.tableName) \
                    WHERE \(condition.rawValue) ORDER BY id
                    """
            ),
            arguments: arguments
        )
        return try rows.map { row in
            let kindText: String = row[2] ?? ""
            let statusText: String = row[7] ?? ""
            guard let kind = StoredSyncState.Kind(rawValue: kindText),
                let status = StoredSyncState.Status(rawValue: statusText)
            else {
                throw SoupStoreError.invalidSyncState(
                    "sync \(row[0] as Int64) has type '\(kindText)' and status '\(statusText)'; expected "
                        + "syncDown/syncUp and NEW, STOPPED, RUNNING, DONE or FAILED"
                )
            }
            let extra: String? = row[14]
            return StoredSyncState(
                id: row[0],
                kind: kind,
                name: row[3],
                targetJSON: row[4] ?? "{}",
                optionsJSON: row[5] ?? "{}",
                soupName: row[6] ?? "",
                status: status,
                progress: row[8] ?? 0,
                totalSize: row[9] ?? -1,
                maxTimeStamp: row[10] ?? -1,
                startTime: row[11] ?? 0,
                endTime: row[12] ?? 0,
                error: row[13] ?? "",
                extraJSON: extra == "{}" ? nil : extra,
                lastModified: row[1] ?? 0
            )
        }
    }
}
