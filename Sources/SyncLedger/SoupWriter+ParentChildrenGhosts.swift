import GRDB
import SoupStore

/// The SQL of a parent-children ghost-cleaning pass that only reads, shared by the pass
/// (`addGhostScanChildIDs`, `finishChildGhostScan`) and its preview
/// (`SoupReader.childIDs(ofParentsPage:parentIDPath:childrenKey:childIDPath:)`,
/// `SoupReader.parentIDsWithDirtyChildren(among:childSoup:parentIDFieldOnChild:)`).
struct ParentChildrenGhostSQL {
    let parentIDPath: String
    let childrenKey: String
    let childIDPath: String

    /// Validates the paths.
    ///
    /// - Throws: `SoupStoreError.invalidPath`.
    init(parentIDPath: String, childrenKey: String, childIDPath: String) throws {
        try SoupPath.validate(parentIDPath)
        try SoupPath.validate(childIDPath)
        self.parentIDPath = parentIDPath
        self.childrenKey = childrenKey
        self.childIDPath = childIDPath
    }

    /// `:page`, `:childrenKey`, `:parentIDPath` and `:childIDPath` (JSON paths).
    func arguments(page: String) -> StatementArguments {
        [
            "page": page, "childrenKey": childrenKey, "parentIDPath": "$.\(parentIDPath)",
            "childIDPath": "$.\(childIDPath)",
        ]
    }

    private static let nested = """
        FROM json_each(:page, CASE json_type(:page) WHEN 'array' THEN '$' ELSE '$.records' END) p, \
        json_each(p.value) k
        """

    /// The ids (`id`) of the children nested in `:page` under the key matching `:childrenKey`
    /// case-insensitively, in page order.
    var childIDs: String {
        """
        SELECT CAST(json_extract(c.value, :childIDPath) AS TEXT) AS id \(Self.nested), \
        json_each(k.value, '$.records') c \
        WHERE p.type = 'object' AND lower(k.key) = lower(:childrenKey) AND k.type = 'object' \
        AND c.type = 'object' AND json_extract(c.value, :childIDPath) IS NOT NULL ORDER BY p.key, c.key
        """
    }

    /// The nested child sets of `page` the server paged, in page order.
    func continuations(_ db: Database, page: String) throws -> [ChildrenContinuation] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT CAST(json_extract(p.value, :parentIDPath) AS TEXT), json_extract(k.value, '$.nextRecordsUrl') \
                \(Self.nested) WHERE p.type = 'object' AND lower(k.key) = lower(:childrenKey) AND k.type = 'object' \
                AND json_extract(k.value, '$.nextRecordsUrl') IS NOT NULL \
                AND json_extract(p.value, :parentIDPath) IS NOT NULL ORDER BY p.key
                """,
            arguments: arguments(page: page)
        ).map { ChildrenContinuation(parentID: $0[0], nextRecordsURL: $0[1]) }
    }

    /// The parent ids (`pid`) that the children of `layout` with local changes point to.
    ///
    /// - Throws: `SoupStoreError.invalidPath`.
    static func dirtyChildParentIDs(in layout: SoupLayout, parentIDFieldOnChild: String) throws -> String {
        try SoupPath.validate(parentIDFieldOnChild)
        let dirty = ControlFields.predicate(ControlFields.local, is: true, in: layout)
        let parentID = "CAST(\(layout.expression(forPath: parentIDFieldOnChild)) AS TEXT)"
        return "SELECT \(parentID) AS pid FROM \(layout.tableName) WHERE \(dirty) AND \(parentID) IS NOT NULL"
    }
}

extension SoupWriter {
    /// Adds to a ghost-cleaning pass the ids of the children nested in a page of parents (under
    /// the key matching `childrenKey` case-insensitively), on every page (§11 item 19).
    ///
    /// - Returns: The nested child sets the server paged, to follow with `queryMore` and add with
    ///   `addGhostScanIDs(of:idPath:syncID:)`.
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite`).
    public func addGhostScanChildIDs(
        ofParentsPage page: String,
        parentIDPath: String,
        childrenKey: String,
        childIDPath: String,
        syncID: Int64
    ) throws -> [ChildrenContinuation] {
        let sql = try ParentChildrenGhostSQL(
            parentIDPath: parentIDPath,
            childrenKey: childrenKey,
            childIDPath: childIDPath
        )
        var arguments = sql.arguments(page: page)
        arguments += ["syncID": syncID]
        try db.execute(
            sql:
                "INSERT OR IGNORE INTO \(GhostScanTable.name) (sync_id, record_id) "
                + "SELECT :syncID, id FROM (\(sql.childIDs))",
            arguments: arguments
        )
        return try sql.continuations(db, page: page)
    }

    /// Ends the children's part of a parent-children ghost-cleaning pass (§6), before the
    /// parents' `finishGhostScan`: parents that a child with local changes points to (on
    /// `parentIDFieldOnChild`) are marked as seen, so they are kept; then the clean children this
    /// sync fetched that the pass did not see lose this sync, and are deleted when no other sync
    /// fetched them. The pass's ids are kept for the parents.
    ///
    /// - Returns: What was found and deleted among the children.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`, `.sqlite`).
    public func finishChildGhostScan(
        childSoup: String,
        childIDPath: String,
        parentIDFieldOnChild: String,
        syncID: Int64
    ) throws -> GhostCleaningResult {
        let layout = try layout(childSoup)
        try SoupPath.validate(childIDPath)
        try SoupPath.validate(parentIDFieldOnChild)
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO \(GhostScanTable.name) (sync_id, record_id) SELECT ?, pid FROM \
                (\(ParentChildrenGhostSQL.dirtyChildParentIDs(in: layout, parentIDFieldOnChild: parentIDFieldOnChild)))
                """,
            arguments: [syncID]
        )
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS syncrun_ghosts (eid INTEGER PRIMARY KEY, record_id TEXT)")
        defer { try? db.execute(sql: "DELETE FROM temp.syncrun_ghosts") }
        return try deleteUnseen(in: childSoup, layout: layout, idPath: childIDPath, syncID: syncID)
    }
}
