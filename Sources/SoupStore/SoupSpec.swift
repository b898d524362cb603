/// How an index spec stores and indexes the value at its path (store.md §1.2).
public enum SoupIndexType: String, Sendable, Hashable, CaseIterable, Codable {
    /// Text column `TABLE_N_i` with a B-tree index.
    case string
    /// 64-bit integer column with a B-tree index.
    case integer
    /// Double column with a B-tree index.
    case floating
    /// Text column, also copied into the soup's FTS5 table for `MATCH` queries.
    case fullText = "full_text"
    /// No column: an expression index on `json_extract(soup, '$.<path>')`.
    case json1

    /// The SQL type of the column this index type adds, or `nil` for `json1`.
    var columnSQLType: String? {
        switch self {
        case .string, .fullText: "TEXT"
        case .integer: "INTEGER"
        case .floating: "REAL"
        case .json1: nil
        }
    }

    /// The index type a store config names (`string`, `integer`, `floating`, `full_text`, `json1`;
    /// exact, lower case, as SmartStore compares it): the one conversion every command uses.
    ///
    /// - Parameters:
    ///   - name: The `type` of the index spec.
    ///   - soup: The soup it belongs to, for the message.
    /// - Throws: ``SoupStoreError`` with code ``SoupStoreError/Code/invalidSoupSpec`` when `name`
    ///   is none of them.
    public init(configName name: String, soup: String) throws {
        guard let type = SoupIndexType(rawValue: name) else {
            throw SoupStoreError.invalidSoupSpec(soup, "unsupported index type '\(name)'")
        }
        self = type
    }
}

/// One index of a soup: a dotted JSON path and how its value is indexed.
public struct IndexSpec: Sendable, Hashable, Codable {
    /// Dotted path into the entry's JSON document, for example `Id` or `attributes.type`.
    public var path: String
    /// How the value is stored and indexed.
    public var type: SoupIndexType

    /// Creates an index spec.
    public init(path: String, type: SoupIndexType) {
        self.path = path
        self.type = type
    }
}

/// A soup's name and index specs, as a `userstore.json` entry declares them.
///
/// ```swift
/// let contacts = SoupSpec(name: "contacts", indexes: [
///     IndexSpec(path: "Id", type: .string),
///     IndexSpec(path: "LastName", type: .fullText),
///     IndexSpec(path: "__local__", type: .string),
/// ])
/// ```
public struct SoupSpec: Sendable, Hashable {
    /// The soup's name (case-sensitive).
    public var name: String
    /// The index specs, in declaration order (the order decides column numbers).
    public var indexes: [IndexSpec]

    /// Creates a soup spec.
    public init(name: String, indexes: [IndexSpec]) {
        self.name = name
        self.indexes = indexes
    }

    /// Checks the rules SmartStore leaves to chance: a usable name, at least one index, plain
    /// dotted paths and no path indexed twice.
    ///
    /// - Throws: `SoupStoreError` with code `.invalidSoupSpec` or `.invalidPath`.
    public func validate() throws {
        guard SoupSpec.isValidName(name) else {
            throw SoupStoreError.invalidSoupSpec(
                name,
                "a soup name must be non-empty and must not contain '{', '}', ':' or quotes"
            )
        }
        guard !indexes.isEmpty else {
            throw SoupStoreError.invalidSoupSpec(name, "a soup needs at least one index spec")
        }
        var seen = Set<String>()
        for index in indexes {
            try SoupPath.validate(index.path)
            guard seen.insert(index.path).inserted else {
                throw SoupStoreError.invalidSoupSpec(
                    name,
                    "path '\(index.path)' is indexed twice; keep one index spec per path"
                )
            }
        }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(where: { "{}:'\"`".contains($0) || $0.isNewline })
    }
}
