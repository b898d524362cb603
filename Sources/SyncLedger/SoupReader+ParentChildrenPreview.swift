import GRDB
import SoupStore

/// What `SoupWriter.upsertChildren(ofParentsPage:options:)` would do with one page of parents,
/// decided without writing; see `SoupReader.previewChildren(ofParentsPage:options:recordLimit:)`.
public struct ParentChildrenPagePreview: Sendable, Hashable {
    /// The parents `upsertChildren` would hand on to `upsertPage` (its result's `parentsPage`).
    public var parentsPage: String
    /// The children it would save, as a JSON array (`parentIDFieldOnChild` set): what it would do
    /// with each is what `previewPage(_:in:options:recordLimit:)` says for the children's soup.
    public var childrenPage: String
    /// Parents left out of ``parentsPage`` because a stored child has local changes.
    public var protectedByChildren: Int
    /// Children not saved because their tree has local changes (children of open trees that are
    /// themselves locally changed are skipped by the upsert: see ``childrenPage``).
    public var childrenSkipped: Int
    /// The first protected parents (at most the limit asked for), in page order, action `.skip`.
    public var protectedParents: [PageRecordPreview]
    /// The first skipped children (at most the limit asked for), in page order, action `.skip`.
    public var skippedChildren: [PageRecordPreview]
    /// Nested child sets the server paged, to follow with `queryMore`.
    public var moreChildren: [ChildrenContinuation]

    /// Creates a page preview.
    public init(
        parentsPage: String,
        childrenPage: String,
        protectedByChildren: Int,
        childrenSkipped: Int,
        protectedParents: [PageRecordPreview],
        skippedChildren: [PageRecordPreview],
        moreChildren: [ChildrenContinuation]
    ) {
        self.parentsPage = parentsPage
        self.childrenPage = childrenPage
        self.protectedByChildren = protectedByChildren
        self.childrenSkipped = childrenSkipped
        self.protectedParents = protectedParents
        self.skippedChildren = skippedChildren
        self.moreChildren = moreChildren
    }
}

extension SoupReader {
    /// Splits a page of parents with nested children as `SoupWriter.upsertChildren(ofParentsPage:options:)`
    /// would, with the same SQL (``ParentChildrenPageSQL``), but without writing: the tree rows are
    /// computed by each `SELECT` instead of a temporary table, so it runs in a read transaction.
    ///
    /// A soup that is not registered yet is taken as empty (nothing stored, nothing protected).
    ///
    /// ```swift
    /// let split = try store.read { try $0.previewChildren(ofParentsPage: page, options: options) }
    /// let children = try store.read { reader in
    ///     try reader.previewPage(split.childrenPage, in: options.childSoup,
    ///                            options: PageUpsertOptions(externalIDPath: options.childIDPath))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - page: A query response whose records carry their children under `options.childrenKey`.
    ///   - options: As for `upsertChildren`; `syncID` does not matter here.
    ///   - recordLimit: How many protected parents and skipped children to list.
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite`).
    public func previewChildren(
        ofParentsPage page: String,
        options: ParentChildrenPageOptions,
        recordLimit: Int = 0
    ) throws -> ParentChildrenPagePreview {
        let parents = try SoupLayout.load(db, soup: options.parentSoup)
        let sql = try ParentChildrenPageSQL(
            options: options,
            parents: parents,
            children: try SoupLayout.load(db, soup: options.childSoup)
        )
        let source = sql.withClause(page: page)
        return ParentChildrenPagePreview(
            parentsPage: try ParentChildrenPageSQL.parentsPage(db, source),
            childrenPage: try ParentChildrenPageSQL.savedChildren(db, source),
            protectedByChildren: try ParentChildrenPageSQL.protectedParentCount(db, source),
            childrenSkipped: try ParentChildrenPageSQL.skippedChildCount(db, source),
            protectedParents: try skipped(
                ParentChildrenPageSQL.protectedParentRows(of: source),
                source,
                layout: parents,
                idPath: options.parentIDPath,
                limit: recordLimit
            ),
            skippedChildren: try skipped(
                ParentChildrenPageSQL.skippedChildRows(of: source),
                source,
                layout: sql.children,
                idPath: options.childIDPath,
                limit: recordLimit
            ),
            moreChildren: try ParentChildrenPageSQL.continuations(db, source)
        )
    }

    /// The children of one nested set the server paged (a `queryMore` response), as
    /// `SoupWriter.upsertChildren(_:ofParent:options:)` would save them under `parentID`, in one
    /// JSON array for `previewPage(_:in:options:recordLimit:)`.
    ///
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite`).
    public func childrenPage(_ page: String, ofParent parentID: String, options: ParentChildrenPageOptions) throws
        -> String
    {
        try ParentChildrenPageSQL.savedChildren(db, page: page, ofParent: parentID, options: options)
    }

    /// The first `limit` records of `rows` (`ord`, `sub`, `rid`: page order and record id) that
    /// have an id, as skipped, each with its stored entry in `layout` when there is one.
    private func skipped(
        _ rows: String,
        _ source: ParentChildrenPageSQL.Source,
        layout: SoupLayout?,
        idPath: String,
        limit: Int
    ) throws -> [PageRecordPreview] {
        guard limit > 0 else { return [] }
        let entry = layout.map {
            "(SELECT min(id) FROM \($0.tableName) WHERE CAST(\($0.expression(forPath: idPath)) AS TEXT) = x.rid)"
        }
        let sql = """
            SELECT x.rid, \(entry ?? "NULL") FROM (\(rows)) x WHERE x.rid IS NOT NULL \
            ORDER BY x.ord, x.sub LIMIT \(limit)
            """
        return try Row.fetchAll(db, sql: source.prefix + sql, arguments: source.arguments).map {
            PageRecordPreview(recordID: $0[0], entryID: $0[1], action: .skip)
        }
    }
}
