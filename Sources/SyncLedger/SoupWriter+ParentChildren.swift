import GRDB
import SoupStore

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
    /// What happens to a tree whose parent or a child has local changes: ``LocalEntries/keep``
    /// leaves the whole tree alone (`LEAVE_IF_CHANGED`).
    public var localEntries: LocalEntries
    /// The sync's id, written as `__sync_id__` and into the record-syncs table.
    public var syncID: Int64
    /// The parents' modification date field, read into ``ParentChildrenPageResult/modificationDates``.
    public var parentModificationDatePath: String?
    /// The children's modification date field, read into ``ParentChildrenPageResult/modificationDates``.
    public var childModificationDatePath: String?

    /// Creates options.
    public init(
        parentSoup: String,
        parentIDPath: String,
        childrenKey: String,
        childSoup: String,
        childIDPath: String,
        parentIDFieldOnChild: String,
        localEntries: LocalEntries,
        syncID: Int64,
        parentModificationDatePath: String? = nil,
        childModificationDatePath: String? = nil
    ) {
        self.parentSoup = parentSoup
        self.parentIDPath = parentIDPath
        self.childrenKey = childrenKey
        self.childSoup = childSoup
        self.childIDPath = childIDPath
        self.parentIDFieldOnChild = parentIDFieldOnChild
        self.localEntries = localEntries
        self.syncID = syncID
        self.parentModificationDatePath = parentModificationDatePath
        self.childModificationDatePath = childModificationDatePath
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
    /// The modification dates of the records saved (trees left whole by `LEAVE_IF_CHANGED` are
    /// left out), when the options name the date fields.
    public var modificationDates = TreeModificationDates()
}

/// The modification dates of the parents and children a page of trees saved, as the server wrote
/// them, for the watermark: one entry per record, `nil` when the record lacks the field or its
/// value is not a string.
public struct TreeModificationDates: Sendable, Hashable {
    /// The parents' dates, in page order.
    public var parents: [String?]
    /// The children's dates, one array per parent with nested children, in page order.
    public var children: [[String?]]

    /// Creates dates.
    public init(parents: [String?] = [], children: [[String?]] = []) {
        self.parents = parents
        self.children = children
    }
}

/// The rest of one parent's nested children, to fetch with `queryMore`.
public struct ChildrenContinuation: Sendable, Hashable {
    /// The parent's id.
    public var parentID: String
    /// The nested result's `nextRecordsUrl`.
    public var nextRecordsURL: String

    /// Creates a continuation.
    public init(parentID: String, nextRecordsURL: String) {
        self.parentID = parentID
        self.nextRecordsURL = nextRecordsURL
    }
}

extension SoupWriter {
    /// Saves the nested children of a page of parents (a query response whose records carry
    /// `{"records": […]}` under `options.childrenKey`) into the child soup, the way sync down
    /// saves records (§4.6), and returns the parents to save with `upsertPage`.
    ///
    /// With ``LocalEntries/keep``, a parent whose stored entry or any stored child (matched on
    /// `parentIDFieldOnChild`) has `__local__` set is protected: none of its children is written.
    /// Every child written is remembered in the record-syncs table. Nothing is parsed in Swift.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`, `.missingExternalID`, `.sqlite`).
    public func upsertChildren(ofParentsPage page: String, options: ParentChildrenPageOptions) throws
        -> ParentChildrenPageResult
    {
        let parents = try layout(options.parentSoup)
        let children = try layout(options.childSoup)
        let sql = try ParentChildrenPageSQL(options: options, parents: parents, children: children)
        let table = "temp.syncrun_tree_page"
        let source = sql.table(table, page: page)
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS syncrun_tree_page (ord INTEGER PRIMARY KEY, pid TEXT, raw TEXT, \
                nested TEXT, ownLocal INTEGER, childLocal INTEGER);
                DELETE FROM \(table);
                """
        )
        defer { try? db.execute(sql: "DELETE FROM \(table)") }
        try db.execute(
            sql: "INSERT INTO \(table) (ord, pid, raw, nested, ownLocal, childLocal) \(sql.trees)",
            arguments: source.arguments
        )
        let childrenArray = try ParentChildrenPageSQL.savedChildren(db, source)
        let skippedChildren = try ParentChildrenPageSQL.skippedChildCount(db, source)
        let saved = try saveChildren(childrenArray, layout: children, options: options)
        let continuations = try ParentChildrenPageSQL.continuations(db, source)
        let parentsPage = try ParentChildrenPageSQL.parentsPage(db, source)
        let protected = try ParentChildrenPageSQL.protectedParentCount(db, source)
        return ParentChildrenPageResult(
            parentsPage: parentsPage,
            protectedByChildren: protected,
            childrenSaved: saved.saved,
            childrenSkipped: skippedChildren + saved.skipped,
            moreChildren: continuations,
            modificationDates: try sql.modificationDates(db, source)
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
        let children = try layout(options.childSoup)
        let array = try ParentChildrenPageSQL.savedChildren(db, page: page, ofParent: parentID, options: options)
        return try saveChildren(array, layout: children, options: options)
    }

    /// The children's modification dates (`options.childModificationDatePath`) in a page of one
    /// parent's children that the server paged, in page order; `nil` for a child without a string
    /// value. Empty when the options name no field.
    ///
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite`).
    public func childModificationDates(ofPage page: String, options: ParentChildrenPageOptions) throws -> [String?] {
        try ParentChildrenPageSQL.childModificationDates(db, page: page, options: options)
    }

    private func saveChildren(_ array: String, layout: SoupLayout, options: ParentChildrenPageOptions) throws
        -> PageUpsertResult
    {
        let upsert = BatchUpsert(
            key: .path(options.childIDPath),
            control: .serverRecord(syncID: options.syncID),
            localEntries: options.localEntries,
            modificationDateField: nil
        )
        let result = try upsert.run(db, layout: layout, source: array, now: Self.now())
        try recordFetchedIDs(of: array, in: options.childSoup, idPath: options.childIDPath, syncID: options.syncID)
        return PageUpsertResult(
            inserted: result.inserted,
            updated: result.updated,
            skipped: result.skipped,
            maxModificationDate: .null,
            unchanged: result.unchanged
        )
    }
}
