import GRDB
import SoupStore

/// A record ghost cleaning would find no longer returned; see `SoupReader.ghostPreview`.
public struct GhostPreviewRecord: Sendable, Hashable {
    /// The record's id (the value at the id path).
    public var recordID: String
    /// Its entry.
    public var entryID: Int64
    /// Whether it would be kept because another sync that fetched it may still return it.
    public var isKeptForOtherSyncs: Bool
    /// Its `attributes.type`, when stored.
    public var objectType: String?

    /// Creates a ghost preview record.
    public init(recordID: String, entryID: Int64, isKeptForOtherSyncs: Bool, objectType: String? = nil) {
        self.recordID = recordID
        self.entryID = entryID
        self.isKeptForOtherSyncs = isKeptForOtherSyncs
        self.objectType = objectType
    }
}

extension SoupReader {
    /// The ids at `idPath` of the records of one server page (a query response or a JSON array
    /// of records), in page order, read by SQLite (the page is not parsed in Swift).
    ///
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite` for text that is not JSON).
    public func recordIDs(ofPage page: String, idPath: String) throws -> [String] {
        try SoupPath.validate(idPath)
        return try String.fetchAll(
            db,
            sql: """
                SELECT CAST(json_extract(value, ?4) AS TEXT) FROM json_each(?3, \(RecordSyncsTable.recordsPath))
                WHERE type = 'object' AND json_extract(value, ?4) IS NOT NULL ORDER BY key
                """,
            arguments: [nil as String?, nil as String?, page, "$.\(idPath)"]
        )
    }

    /// What `SoupWriter.finishGhostScan(soup:idPath:syncID:)` would do with the records among
    /// `ids` if the pass had not seen them, without writing: the ones that are ghost candidates of
    /// sync `syncID` (clean, and fetched by it), each marked deleted or kept for another sync
    /// that fetched it too, in entry-id order.
    ///
    /// Pass the ids in slices (a few hundred at a time); ids that are not candidates are ignored.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`, `.sqlite`).
    public func ghostPreview(in soup: String, idPath: String, syncID: Int64, ids: [String]) throws
        -> [GhostPreviewRecord]
    {
        let layout = try layout(soup)
        try SoupPath.validate(idPath)
        guard !ids.isEmpty else { return [] }
        let rows: [Row]
        if try db.tableExists(RecordSyncsTable.name) {
            let candidates = GhostCandidates(layout: layout, idPath: idPath)
            rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, \(candidates.idColumn), EXISTS (SELECT 1 FROM \(RecordSyncsTable.name) r \
                    WHERE r.soup_name = ?1 AND r.record_id = \(candidates.idColumn) AND r.sync_id != ?2), \
                    \(layout.textExpression(forPath: "attributes.type")) \
                    FROM \(layout.tableName) WHERE \(candidates.condition) \
                    AND \(candidates.idColumn) IN (SELECT value FROM json_each(?3)) ORDER BY id
                    """,
                arguments: [soup, syncID, JSONText.array(ids)]
            )
        } else {
            // Written before tracking: `__sync_id__` says which sync fetched a record.
            let idColumn = "CAST(\(layout.expression(forPath: idPath)) AS TEXT)"
            let clean = ControlFields.predicate(ControlFields.local, is: false, in: layout)
            rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, \(idColumn), 0, NULL FROM \(layout.tableName) WHERE \(clean) \
                    AND \(layout.expression(forPath: ControlFields.syncID)) = ? \
                    AND \(idColumn) IN (SELECT value FROM json_each(?)) ORDER BY id
                    """,
                arguments: [syncID, JSONText.array(ids)]
            )
        }
        return rows.map { row in
            GhostPreviewRecord(recordID: row[1], entryID: row[0], isKeptForOtherSyncs: row[2], objectType: row[3])
        }
    }
}

/// The children's ids nested in one page of a parent-children ids-only query; see
/// `SoupReader.childIDs(ofParentsPage:parentIDPath:childrenKey:childIDPath:)`.
public struct ParentChildrenIDPage: Sendable, Hashable {
    /// The ids of the nested children, in page order.
    public var childIDs: [String]
    /// Nested child sets the server paged, to follow with `queryMore`.
    public var moreChildren: [ChildrenContinuation]

    /// Creates a page of ids.
    public init(childIDs: [String], moreChildren: [ChildrenContinuation]) {
        self.childIDs = childIDs
        self.moreChildren = moreChildren
    }
}

extension SoupReader {
    /// The ids a parent-children ghost-cleaning pass takes from one page of parents with nested
    /// children (`SoupWriter.addGhostScanChildIDs(ofParentsPage:parentIDPath:childrenKey:childIDPath:syncID:)`,
    /// with the same SQL), without writing them anywhere. The parents' own ids are
    /// ``recordIDs(ofPage:idPath:)``.
    ///
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite`).
    public func childIDs(ofParentsPage page: String, parentIDPath: String, childrenKey: String, childIDPath: String)
        throws -> ParentChildrenIDPage
    {
        let sql = try ParentChildrenGhostSQL(
            parentIDPath: parentIDPath,
            childrenKey: childrenKey,
            childIDPath: childIDPath
        )
        return ParentChildrenIDPage(
            childIDs: try String.fetchAll(db, sql: sql.childIDs, arguments: sql.arguments(page: page)),
            moreChildren: try sql.continuations(db, page: page)
        )
    }

    /// Those of `ids` that a child of `childSoup` with local changes points to (on
    /// `parentIDFieldOnChild`): the parents
    /// `SoupWriter.finishChildGhostScan(childSoup:childIDPath:parentIDFieldOnChild:syncID:)`
    /// marks as seen, so the pass keeps them. A soup that is not registered yet has none.
    ///
    /// Pass the ids in slices (a few hundred at a time).
    ///
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite`).
    public func parentIDsWithDirtyChildren(among ids: [String], childSoup: String, parentIDFieldOnChild: String)
        throws -> Set<String>
    {
        guard !ids.isEmpty, let layout = try SoupLayout.load(db, soup: childSoup) else { return [] }
        let dirtyParents = try ParentChildrenGhostSQL.dirtyChildParentIDs(
            in: layout,
            parentIDFieldOnChild: parentIDFieldOnChild
        )
        return Set(
            try String.fetchAll(
                db,
                sql: "SELECT DISTINCT pid FROM (\(dirtyParents)) WHERE pid IN (SELECT value FROM json_each(?))",
                arguments: [JSONText.array(ids)]
            )
        )
    }
}
