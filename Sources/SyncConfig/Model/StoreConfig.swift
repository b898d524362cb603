/// A store config (`userstore` / `globalstore`): the soups to register and their index specs.
///
/// Keys:
/// - `soups` (array of soup objects, required): see ``SoupDefinition``.
///
/// ```json
/// { "soups": [ { "soupName": "contacts",
///                "indexes": [ {"path": "Id", "type": "string"},
///                             {"path": "__local__", "type": "string"} ] } ] }
/// ```
public struct StoreConfig: Sendable, Hashable {
    /// The soups, in file order.
    public var soups: [SoupDefinition]

    /// Creates a store config.
    public init(soups: [SoupDefinition]) {
        self.soups = soups
    }

    /// The soup named `name` (soup names are case-sensitive).
    public func soup(named name: String) -> SoupDefinition? {
        soups.first { $0.name == name }
    }
}

/// One soup of a store config.
///
/// Keys:
/// - `soupName` (string, required): the soup's name, case-sensitive.
/// - `indexes` (array of index specs, required, at least one): see ``IndexDefinition``.
public struct SoupDefinition: Sendable, Hashable {
    /// The soup's name (`soupName`).
    public var name: String
    /// The index specs (`indexes`), in file order.
    public var indexes: [IndexDefinition]
    /// Where the soup is defined, when it was read from a file.
    public var location: SourceLocation?

    /// Creates a soup definition.
    public init(name: String, indexes: [IndexDefinition], location: SourceLocation? = nil) {
        self.name = name
        self.indexes = indexes
        self.location = location
    }

    /// The index spec on `path`, if any.
    public func index(onPath path: String) -> IndexDefinition? {
        indexes.first { $0.path == path }
    }
}

/// One index spec of a soup.
///
/// Keys:
/// - `path` (string, required): the JSON path indexed, e.g. `Id`, `__local__`, `Owner.Name`.
/// - `type` (string, required): one of ``IndexType``'s raw values.
public struct IndexDefinition: Sendable, Hashable {
    /// The indexed path (`path`).
    public var path: String
    /// The index type (`type`).
    public var type: IndexType

    /// Creates an index spec.
    public init(path: String, type: IndexType) {
        self.path = path
        self.type = type
    }
}

/// The type of a soup index, compared exactly (lower case) as SmartStore does.
public enum IndexType: String, Sendable, Hashable, CaseIterable {
    /// A text column.
    case string
    /// A 64-bit integer column.
    case integer
    /// A double column.
    case floating
    /// A text column also copied into the soup's full-text table.
    case fullText = "full_text"
    /// An expression index over the stored JSON; no column.
    case json1
}
