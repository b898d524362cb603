import GRDB
import SoupStore

/// The SQL that splits a page of parents with nested children (sync-semantics §9.4, §4.5), shared by
/// `SoupWriter.upsertChildren(ofParentsPage:options:)` and its read-only preview
/// `SoupReader.previewChildren(ofParentsPage:options:recordLimit:)`, so both decide the same way.
///
/// ``trees`` selects one row per parent of the page: `ord` (its position), `pid` (its id as text),
/// `raw` (the parent as the server sent it), `nested` (the key of its nested children, as the server
/// spelled it), and under `LEAVE_IF_CHANGED` `ownLocal` / `childLocal` (its stored entry / one of
/// its stored children, matched on `parentIDFieldOnChild`, has local changes). The run stores these
/// rows in a temporary table; the preview, which may not write, names them in a `WITH` clause. The
/// other statements read them from either, under the alias `t`.
///
/// Every statement takes the named arguments of ``arguments(page:)``.
struct ParentChildrenPageSQL {
    let options: ParentChildrenPageOptions
    /// The parents' soup; `nil` when it is not registered yet (nothing stored).
    let parents: SoupLayout?
    /// The children's soup; `nil` when it is not registered yet.
    let children: SoupLayout?

    /// Validates the options' paths.
    ///
    /// - Throws: `SoupStoreError.invalidPath`.
    init(options: ParentChildrenPageOptions, parents: SoupLayout?, children: SoupLayout?) throws {
        let datePaths = [options.parentModificationDatePath, options.childModificationDatePath].compactMap { $0 }
        for path in [options.parentIDPath, options.childIDPath, options.parentIDFieldOnChild] + datePaths {
            try SoupPath.validate(path)
        }
        self.options = options
        self.parents = parents
        self.children = children
    }

    /// `:page` the page, `:childrenKey`, `:parentIDPath` and `:childParentPath` (JSON paths of the
    /// parent's id and of the child's parent id field), `:childIDPath`.
    func arguments(page: String) -> StatementArguments {
        [
            "page": page, "childrenKey": options.childrenKey, "parentIDPath": "$.\(options.parentIDPath)",
            "childParentPath": "$.\(options.parentIDFieldOnChild)", "childIDPath": "$.\(options.childIDPath)",
        ]
    }

    /// The tree rows of `:page` (see the type's documentation).
    var trees: String {
        // The nested key as the server spelled it, found case-insensitively.
        let rows = """
            SELECT p.key AS ord, CAST(json_extract(p.value, :parentIDPath) AS TEXT) AS pid, p.value AS raw, \
            (SELECT k.key FROM json_each(p.value) k WHERE lower(k.key) = lower(:childrenKey) LIMIT 1) AS nested \
            FROM json_each(:page, CASE json_type(:page) WHEN 'array' THEN '$' ELSE '$.records' END) p \
            WHERE p.type = 'object'
            """
        return "SELECT ord, pid, raw, nested, \(ownLocal) AS ownLocal, \(childLocal) AS childLocal FROM (\(rows))"
    }

    private var ownLocal: String { hasLocalChanges(parents, path: options.parentIDPath) }
    private var childLocal: String { hasLocalChanges(children, path: options.parentIDFieldOnChild) }

    /// SQL true when an entry of `layout` whose value at `path` is the tree row's `pid` has local
    /// changes; `0` when trees are not protected or the soup is not registered.
    private func hasLocalChanges(_ layout: SoupLayout?, path: String) -> String {
        guard let layout, let protected = options.localEntries.protectedEntryCondition(in: layout) else { return "0" }
        return """
            EXISTS (SELECT 1 FROM \(layout.tableName) WHERE \
            \(layout.textExpression(forPath: path)) = pid AND \(protected))
            """
    }

    /// Where the other statements read the tree rows from, as `t`: the run's temporary table, or a
    /// `WITH` clause over ``trees`` for the preview.
    struct Source {
        /// Put before each statement (`WITH tree AS (…) `, or nothing).
        var prefix: String
        /// The relation holding the rows.
        var relation: String
        /// The statements' arguments.
        var arguments: StatementArguments
    }

    /// The rows stored in `table` (filled with ``trees``).
    func table(_ table: String, page: String) -> Source {
        Source(prefix: "", relation: table, arguments: arguments(page: page))
    }

    /// The rows computed by each statement from `page`, without writing anything. `MATERIALIZED`
    /// computes the protection checks once per statement, not once per nested child.
    func withClause(page: String) -> Source {
        Source(prefix: "WITH tree AS MATERIALIZED (\(trees)) ", relation: "tree", arguments: arguments(page: page))
    }

    /// Trees with no local change: their children are saved.
    static let open = "coalesce(t.ownLocal, 0) = 0 AND coalesce(t.childLocal, 0) = 0"
    /// Parents left out of the page handed to `upsertPage`: a stored child has local changes, the
    /// parent has none (a parent with changes of its own stays, for `upsertPage` to skip and count).
    static let protectedByChildren = "coalesce(t.childLocal, 0) = 1 AND coalesce(t.ownLocal, 0) = 0"

    /// `FROM` and `WHERE` of the nested children `c` of the tree rows `t` of `source`.
    static func nestedChildren(of source: Source) -> String {
        """
        \(source.relation) t, json_each(t.raw, '$."' || t.nested || '".records') c \
        WHERE t.nested IS NOT NULL AND c.type = 'object'
        """
    }

    /// A child as it is saved: `parentIDFieldOnChild` set to `parentID` when the server left it out.
    private static func savedChild(_ child: String, parentID: String) -> String {
        """
        json(CASE WHEN coalesce(json_type(\(child), :childParentPath), 'null') = 'null' \
        THEN json_set(\(child), :childParentPath, \(parentID)) ELSE \(child) END)
        """
    }

    /// The children of the open trees, as saved, in one JSON array.
    static func savedChildren(_ db: Database, _ source: Source) throws -> String {
        let sql =
            "SELECT json_group_array(\(savedChild("c.value", parentID: "t.pid"))) FROM "
            + "\(nestedChildren(of: source)) AND \(open)"
        return try String.fetchOne(db, sql: source.prefix + sql, arguments: source.arguments) ?? "[]"
    }

    /// How many children are not saved because their tree has local changes.
    static func skippedChildCount(_ db: Database, _ source: Source) throws -> Int {
        let sql = "SELECT count(*) FROM \(nestedChildren(of: source)) AND NOT (\(open))"
        return try Int.fetchOne(db, sql: source.prefix + sql, arguments: source.arguments) ?? 0
    }

    /// The parents protected by their children only, as `ord`, `sub` (0) and `rid` (the id).
    static func protectedParentRows(of source: Source) -> String {
        "SELECT t.ord, 0 AS sub, t.pid AS rid FROM \(source.relation) t WHERE \(protectedByChildren)"
    }

    /// The children not saved because their tree has local changes, as `ord`, `sub` (their
    /// position in the nested set) and `rid` (the id).
    static func skippedChildRows(of source: Source) -> String {
        """
        SELECT t.ord, c.key AS sub, CAST(json_extract(c.value, :childIDPath) AS TEXT) AS rid \
        FROM \(nestedChildren(of: source)) AND NOT (\(open))
        """
    }

    /// The nested child sets of the open trees that the server paged, in page order.
    static func continuations(_ db: Database, _ source: Source) throws -> [ChildrenContinuation] {
        let next = "json_extract(t.raw, '$.\"' || t.nested || '\".nextRecordsUrl')"
        let sql = """
            SELECT t.pid, \(next) FROM \(source.relation) t WHERE t.nested IS NOT NULL AND \(next) IS NOT NULL \
            AND \(open) ORDER BY t.ord
            """
        return try Row.fetchAll(db, sql: source.prefix + sql, arguments: source.arguments)
            .map { ChildrenContinuation(parentID: $0[0], nextRecordsURL: $0[1]) }
    }

    /// The parents to hand to `upsertPage`, nested children removed, as `{"records": […]}`.
    static func parentsPage(_ db: Database, _ source: Source) throws -> String {
        let sql = """
            SELECT json_object('records', json(coalesce(json_group_array(json(CASE WHEN t.nested IS NULL THEN t.raw \
            ELSE json_remove(t.raw, '$."' || t.nested || '"') END)), '[]'))) \
            FROM (SELECT * FROM \(source.relation) t WHERE NOT (\(protectedByChildren)) ORDER BY t.ord) t
            """
        return try String.fetchOne(db, sql: source.prefix + sql, arguments: source.arguments) ?? #"{"records":[]}"#
    }

    /// How many parents are protected by their children only.
    static func protectedParentCount(_ db: Database, _ source: Source) throws -> Int {
        let sql = "SELECT count(*) FROM \(source.relation) t WHERE \(protectedByChildren)"
        return try Int.fetchOne(db, sql: source.prefix + sql, arguments: source.arguments) ?? 0
    }

    /// `value` at the JSON path `path` when it is a string, else NULL.
    private static func text(_ value: String, at path: String) -> String {
        "CASE WHEN json_type(\(value), \(path)) = 'text' THEN json_extract(\(value), \(path)) END"
    }

    /// The modification dates of the parents and children of the open trees (what the page saves),
    /// read with the options' date paths; empty for a path the options leave out.
    func modificationDates(_ db: Database, _ source: Source) throws -> TreeModificationDates {
        var dates = TreeModificationDates()
        if let path = options.parentModificationDatePath {
            var arguments = source.arguments
            arguments += ["parentModPath": "$.\(path)"]
            let sql = """
                SELECT \(Self.text("t.raw", at: ":parentModPath")) FROM \(source.relation) t \
                WHERE \(Self.open) ORDER BY t.ord
                """
            dates.parents = try Row.fetchAll(db, sql: source.prefix + sql, arguments: arguments).map { row -> String? in
                row[0]
            }
        }
        if let path = options.childModificationDatePath {
            var arguments = source.arguments
            arguments += ["childModPath": "$.\(path)"]
            let sql = """
                SELECT t.ord, \(Self.text("c.value", at: ":childModPath")) FROM \(Self.nestedChildren(of: source)) \
                AND \(Self.open) ORDER BY t.ord, c.key
                """
            var tree: Int64?
            for row in try Row.fetchAll(db, sql: source.prefix + sql, arguments: arguments) {
                let ord: Int64 = row[0]
                if ord != tree {
                    dates.children.append([])
                    tree = ord
                }
                let date: String? = row[1]
                dates.children[dates.children.count - 1].append(date)
            }
        }
        return dates
    }

    /// The children's dates in one paged nested set (a `queryMore` response), in page order;
    /// empty when the options name no children's date field.
    ///
    /// - Throws: `SoupStoreError.invalidPath`, `.sqlite`.
    static func childModificationDates(
        _ db: Database,
        page: String,
        options: ParentChildrenPageOptions
    ) throws -> [String?] {
        guard let path = options.childModificationDatePath else { return [] }
        try SoupPath.validate(path)
        let sql = """
            SELECT \(text("c.value", at: ":childModPath")) \
            FROM json_each(:page, CASE json_type(:page) WHEN 'array' THEN '$' ELSE '$.records' END) c \
            WHERE c.type = 'object' ORDER BY c.key
            """
        let arguments: StatementArguments = ["page": page, "childModPath": "$.\(path)"]
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row -> String? in row[0] }
    }

    /// The children of one paged nested set (`page`, a `queryMore` response) as saved under
    /// `parentID`, in one JSON array.
    ///
    /// - Throws: `SoupStoreError.invalidPath`, `.sqlite`.
    static func savedChildren(
        _ db: Database,
        page: String,
        ofParent parentID: String,
        options: ParentChildrenPageOptions
    ) throws -> String {
        try SoupPath.validate(options.parentIDFieldOnChild)
        let sql = """
            SELECT json_group_array(\(savedChild("c.value", parentID: ":parentID"))) \
            FROM json_each(:page, CASE json_type(:page) WHEN 'array' THEN '$' ELSE '$.records' END) c \
            WHERE c.type = 'object'
            """
        let arguments: StatementArguments = [
            "page": page, "childParentPath": "$.\(options.parentIDFieldOnChild)", "parentID": parentID,
        ]
        return try String.fetchOne(db, sql: sql, arguments: arguments) ?? "[]"
    }
}
