/// A SmartStore query spec (store.md §5.1–§5.2): exact, range, like or full-text match on one
/// index path, or every entry, optionally ordered.
///
/// ```swift
/// let spec = QuerySpec(soup: "contacts", path: "LastName", predicate: .like("Sm%"), orderPath: "LastName")
/// try store.read { try $0.forEachEntry(matching: spec) { entry in … } }
/// ```
public struct QuerySpec: Sendable, Hashable {
    /// The condition on `path`.
    public enum Predicate: Sendable, Hashable {
        /// Every entry (no `WHERE`).
        case all
        /// `path = value`.
        case exact(String)
        /// `path >= begin AND path <= end`; either bound may be absent.
        case range(begin: String?, end: String?)
        /// `path LIKE pattern` (`%`, `_`; ASCII case-insensitive).
        case like(String)
        /// Full-text `MATCH` on the soup's FTS table, restricted to `path` when it is given.
        case match(String)
    }

    /// Sort direction.
    public enum Order: String, Sendable, Hashable {
        case ascending
        case descending
    }

    /// The soup queried.
    public var soup: String
    /// The index path the predicate applies to (optional for `.all` and `.match`).
    public var path: String?
    /// The condition.
    public var predicate: Predicate
    /// Optional path to sort by.
    public var orderPath: String?
    /// Sort direction (ascending by default).
    public var order: Order

    /// Creates a query spec.
    public init(
        soup: String,
        path: String? = nil,
        predicate: Predicate = .all,
        orderPath: String? = nil,
        order: Order = .ascending
    ) {
        self.soup = soup
        self.path = path
        self.predicate = predicate
        self.orderPath = orderPath
        self.order = order
    }

    /// The spec as Smart SQL with its bound values; selects id, created, lastModified, soup.
    func smartSQL(layout: SoupLayout) throws -> (sql: String, arguments: [SoupValue]) {
        let soup = "{\(self.soup)}"
        func ref(_ path: String) throws -> String {
            try SoupPath.validate(path)
            return "{\(self.soup):\(path)}"
        }
        var sql =
            "SELECT {\(self.soup):_soupEntryId}, {\(self.soup):_soupCreatedDate}, "
            + "{\(self.soup):_soupLastModifiedDate}, {\(self.soup):_soup} FROM \(soup)"
        var arguments: [SoupValue] = []
        switch predicate {
        case .all:
            break
        case .exact(let value):
            sql += " WHERE \(try ref(try requiredPath())) = ?"
            arguments = [.text(value)]
        case .like(let pattern):
            sql += " WHERE \(try ref(try requiredPath())) LIKE ?"
            arguments = [.text(pattern)]
        case .range(let begin, let end):
            let column = try ref(try requiredPath())
            var conditions: [String] = []
            if let begin {
                conditions.append("\(column) >= ?")
                arguments.append(.text(begin))
            }
            if let end {
                conditions.append("\(column) <= ?")
                arguments.append(.text(end))
            }
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        case .match(let key):
            guard layout.hasFullTextTable else {
                throw SoupStoreError.invalidQuery("soup '\(self.soup)' has no full_text index to match against")
            }
            sql += " WHERE {\(self.soup):_soupEntryId} IN (SELECT rowid FROM \(soup)_fts WHERE \(soup)_fts MATCH ?)"
            arguments = [.text(try matchExpression(key, layout: layout))]
        }
        if let orderPath {
            sql += " ORDER BY \(try ref(orderPath)) \(order == .ascending ? "ASC" : "DESC")"
        } else {
            sql += " ORDER BY {\(self.soup):_soupEntryId}"
        }
        return (sql, arguments)
    }

    private func requiredPath() throws -> String {
        guard let path else { throw SoupStoreError.invalidQuery("this query spec needs an index path") }
        return path
    }

    /// The FTS5 expression: each plain token gets the path's FTS column as filter (store.md §5.5).
    private func matchExpression(_ key: String, layout: SoupLayout) throws -> String {
        guard let path else { return key }
        try SoupPath.validate(path)
        guard let index = layout.index(forPath: path), index.type == .fullText else {
            throw SoupStoreError.invalidQuery("path '\(path)' of soup '\(soup)' is not a full_text index")
        }
        var out = ""
        var token = ""
        func flush() {
            guard !token.isEmpty else { return }
            let upper = token.uppercased()
            out += (upper == "AND" || upper == "OR" || upper == "NOT") ? token : "\(index.columnName):\(token)"
            token = ""
        }
        for character in key {
            if character == " " || character == "(" || character == ")" {
                flush()
                out.append(character)
            } else {
                token.append(character)
            }
        }
        flush()
        return out
    }
}
