import GRDB

/// How `upsertChildren(ofParentsPage:options:)` splits a page of parents with nested children
/// (sync-semantics §9.4).
public struct ParentChildrenPageOptions: Sendable, Hashable {
    /// The parents' soup.
    public var parentSoup: String
    /// The parents' id field (`Id`).
    public var parentIDPath: String
    /// The key of the nested children in each parent (the relationship name, `Contacts`),
    /// matched case-insensitively.
    public var childrenKey: String
    /// The children's soup.
    public var childSoup: String
    /// The children's id field (`Id`).
    public var childIDPath: String
    /// The lookup field on a child holding its parent's id (`AccountId`); set from the parent
    /// when the server left it out.
    public var parentIDFieldOnChild: String
    /// Whether trees with local changes are left alone (`LEAVE_IF_CHANGED`).
    public var leavesChangedTrees: Bool
    /// The sync's id, written as `__sync_id__` and into the record-syncs table.
    public var syncID: Int64

    /// Creates options.
    public init(
        parentSoup: String,
        parentIDPath: String,
        childrenKey: String,
        childSoup: String,
        childIDPath: String,
        parentIDFieldOnChild: String,
        leavesChangedTrees: Bool,
        syncID: Int64
    ) {
        self.parentSoup = parentSoup
        self.parentIDPath = parentIDPath
        self.childrenKey = childrenKey
        self.childSoup = childSoup
        self.childIDPath = childIDPath
        self.parentIDFieldOnChild = parentIDFieldOnChild
        self.leavesChangedTrees = leavesChangedTrees
        self.syncID = syncID
    }
}

/// What `upsertChildren(ofParentsPage:options:)` did, and what is left to do.
public struct ParentChildrenPageResult: Sendable, Hashable {
    /// The parents to save, as `{"records": […]}`, nested children removed; parents protected
    /// only because one of their stored children has local changes are left out (parents with
    /// local changes of their own stay, for `upsertPage` to skip and count).
    public var parentsPage: String
    /// Parents left out because a stored child has local changes.
    public var protectedByChildren: Int
    /// Children stored.
    public var childrenSaved: Int
    /// Children skipped (their tree has local changes).
    public var childrenSkipped: Int
    /// Nested child sets the server paged: parent id and the `nextRecordsUrl` of the rest.
    public var moreChildren: [ChildrenContinuation]
}

/// The rest of one parent's nested children, to fetch with `queryMore`.
public struct ChildrenContinuation: Sendable, Hashable {
    /// The parent's id.
    public var parentID: String
    /// The nested result's `nextRecordsUrl`.
    public var nextRecordsURL: String
}

extension SoupWriter {
    /// Saves the nested children of a page of parents (a query response whose records carry
    /// `{"records": […]}` under `options.childrenKey`) into the child soup, the way sync down
    /// saves records (§4.6), and returns the parents to save with `upsertPage`.
    ///
    /// With `leavesChangedTrees`, a parent whose stored entry or any stored child (matched on
    /// `parentIDFieldOnChild`) has `__local__` set is protected: none of its children is written.
    /// Every child written is remembered in the record-syncs table. Nothing is parsed in Swift.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`, `.missingExternalID`, `.sqlite`).
    public func upsertChildren(ofParentsPage page: String, options: ParentChildrenPageOptions) throws
        -> ParentChildrenPageResult
    {
        for path in [options.parentIDPath, options.childIDPath, options.parentIDFieldOnChild] {
            try SoupPath.validate(path)
        }
        let parents = try layout(options.parentSoup)
        let children = try layout(options.childSoup)
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS syncrun_tree_page (ord INTEGER PRIMARY KEY, pid TEXT, raw TEXT, \
                nested TEXT, ownLocal INTEGER, childLocal INTEGER);
                DELETE FROM temp.syncrun_tree_page;
                """
        )
        defer { try? db.execute(sql: "DELETE FROM temp.syncrun_tree_page") }
        // The nested key as the server spelled it, found case-insensitively.
        let nestedKey = """
            (SELECT k.key FROM json_each(p.value) k WHERE lower(k.key) = lower(?2) LIMIT 1)
            """
        try db.execute(
            sql: """
                INSERT INTO temp.syncrun_tree_page (ord, pid, raw, nested)
                SELECT p.key, CAST(json_extract(p.value, ?3) AS TEXT), p.value, \(nestedKey)
                FROM json_each(?1, CASE json_type(?1) WHEN 'array' THEN '$' ELSE '$.records' END) p
                WHERE p.type = 'object'
                """,
            arguments: [page, options.childrenKey, "$.\(options.parentIDPath)"]
        )
        if options.leavesChangedTrees {
            let parentLocal = ControlFields.predicate(ControlFields.local, is: true, in: parents)
            let childLocal = ControlFields.predicate(ControlFields.local, is: true, in: children)
            try db.execute(
                sql: """
                    UPDATE temp.syncrun_tree_page SET \
                    ownLocal = EXISTS (SELECT 1 FROM \(parents.tableName) WHERE \
                    CAST(\(parents.expression(forPath: options.parentIDPath)) AS TEXT) = pid AND \(parentLocal)), \
                    childLocal = EXISTS (SELECT 1 FROM \(children.tableName) WHERE \
                    CAST(\(children.expression(forPath: options.parentIDFieldOnChild)) AS TEXT) = pid AND \(childLocal))
                    """
            )
        }
        let open = "coalesce(ownLocal, 0) = 0 AND coalesce(childLocal, 0) = 0"
        let childPath = "$.\(options.parentIDFieldOnChild)"
        let childrenArray =
            try String.fetchOne(
                db,
                sql: """
                    SELECT json_group_array(json(CASE WHEN coalesce(json_type(c.value, ?1), 'null') = 'null' \
                    THEN json_set(c.value, ?1, t.pid) ELSE c.value END)) \
                    FROM temp.syncrun_tree_page t, json_each(t.raw, '$."' || t.nested || '".records') c \
                    WHERE t.nested IS NOT NULL AND c.type = 'object' AND \(open)
                    """,
                arguments: [childPath]
            ) ?? "[]"
        let skippedChildren =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM temp.syncrun_tree_page t, json_each(t.raw, '$."' || t.nested || '".records') c \
                    WHERE t.nested IS NOT NULL AND c.type = 'object' AND NOT (\(open))
                    """
            ) ?? 0
        let saved = try saveChildren(childrenArray, layout: children, options: options)
        let continuations = try Row.fetchAll(
            db,
            sql: """
                SELECT pid, json_extract(raw, '$."' || nested || '".nextRecordsUrl') FROM temp.syncrun_tree_page \
                WHERE nested IS NOT NULL AND json_extract(raw, '$."' || nested || '".nextRecordsUrl') IS NOT NULL \
                AND \(open) ORDER BY ord
                """
        ).map { ChildrenContinuation(parentID: $0[0], nextRecordsURL: $0[1]) }
        let parentsPage =
            try String.fetchOne(
                db,
                sql: """
                    SELECT json_object('records', json(coalesce(json_group_array(json(CASE WHEN nested IS NULL THEN raw \
                    ELSE json_remove(raw, '$."' || nested || '"') END)), '[]'))) \
                    FROM (SELECT * FROM temp.syncrun_tree_page WHERE coalesce(childLocal, 0) = 0 \
                    OR coalesce(ownLocal, 0) = 1 ORDER BY ord)
                    """
            ) ?? #"{"records":[]}"#
        let protected =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM temp.syncrun_tree_page \
                    WHERE coalesce(childLocal, 0) = 1 AND coalesce(ownLocal, 0) = 0
                    """
            ) ?? 0
        return ParentChildrenPageResult(
            parentsPage: parentsPage,
            protectedByChildren: protected,
            childrenSaved: saved.saved,
            childrenSkipped: skippedChildren + saved.skipped,
            moreChildren: continuations
        )
    }

    /// Saves a page of one parent's children that the server paged (`queryMore` on a nested
    /// `nextRecordsUrl`): `parentIDFieldOnChild` set to `parentID` when missing, saved as sync
    /// down saves records, remembered in the record-syncs table.
    ///
    /// - Returns: The children saved and skipped.
    /// - Throws: `SoupStoreError`.
    public func upsertChildren(_ page: String, ofParent parentID: String, options: ParentChildrenPageOptions) throws
        -> PageUpsertResult
    {
        try SoupPath.validate(options.parentIDFieldOnChild)
        let children = try layout(options.childSoup)
        let array =
            try String.fetchOne(
                db,
                sql: """
                    SELECT json_group_array(json(CASE WHEN coalesce(json_type(c.value, ?2), 'null') = 'null' \
                    THEN json_set(c.value, ?2, ?3) ELSE c.value END)) \
                    FROM json_each(?1, CASE json_type(?1) WHEN 'array' THEN '$' ELSE '$.records' END) c \
                    WHERE c.type = 'object'
                    """,
                arguments: [page, "$.\(options.parentIDFieldOnChild)", parentID]
            ) ?? "[]"
        return try saveChildren(array, layout: children, options: options)
    }

    private func saveChildren(_ array: String, layout: SoupLayout, options: ParentChildrenPageOptions) throws
        -> PageUpsertResult
    {
        let upsert = BatchUpsert(
            key: .path(options.childIDPath),
            control: .serverRecord(syncID: options.syncID),
            leaveIfChanged: options.leavesChangedTrees,
            modificationDateField: nil
        )
        let result = try upsert.run(db, layout: layout, source: array, now: Self.now())
        try recordFetchedIDs(of: array, in: options.childSoup, idPath: options.childIDPath, syncID: options.syncID)
        return PageUpsertResult(
            inserted: result.inserted,
            updated: result.updated,
            skipped: result.skipped,
            maxModificationDate: .null
        )
    }
}
