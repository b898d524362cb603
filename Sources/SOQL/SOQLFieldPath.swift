/// A field reference, possibly traversing parent relationships: `Account.Owner.Name`.
///
/// Names are kept as spelled; SOQL compares them case-insensitively, and so do
/// ``matches(_:)`` and the sync mutations.
///
/// ```swift
/// let path = SOQLFieldPath("Account.Owner.Name")
/// path.components   // ["Account", "Owner", "Name"]
/// ```
public struct SOQLFieldPath: Sendable, Hashable {
    /// The dot-separated names, outermost relationship first. Never empty.
    public var components: [String]

    private var storedRange: EqualityIgnored<SOQLSourceRange?>

    /// Where the path was read from, when it was parsed. Ignored by equality.
    public var sourceRange: SOQLSourceRange? {
        get { storedRange.value }
        set { storedRange.value = newValue }
    }

    /// Creates a path from its components.
    ///
    /// - Parameters:
    ///   - components: the names, outermost relationship first; must not be empty.
    ///   - sourceRange: where the path was read from, if anywhere.
    public init(components: [String], sourceRange: SOQLSourceRange? = nil) {
        precondition(!components.isEmpty, "a SOQL field path needs at least one name")
        self.components = components
        self.storedRange = EqualityIgnored(sourceRange)
    }

    /// Creates a path from dotted text, such as `Account.Owner.Name`.
    ///
    /// The text is split on dots and not otherwise checked; use ``SOQLQuery/parse(_:)`` to
    /// validate user input.
    public init(_ dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.init(components: parts.isEmpty ? [dotted] : parts)
    }

    /// The path as SOQL text: the components joined with dots.
    public var text: String { components.joined(separator: ".") }

    /// The last component: the field name itself.
    public var name: String { components[components.count - 1] }

    /// The path without a first component naming `object` (case-insensitive): SOQL lets a
    /// field be qualified with the name of the object queried, so `Account.Name` in
    /// `SELECT Account.Name FROM Account` is `Name`. A path of one component is kept.
    public func unqualified(by object: String) -> SOQLFieldPath {
        guard components.count > 1, components[0].lowercased() == object.lowercased() else { return self }
        return SOQLFieldPath(components: Array(components.dropFirst()), sourceRange: sourceRange)
    }

    /// Whether this path names `dotted` (for example `Id` or `Account.Name`), compared
    /// case-insensitively as SOQL does.
    public func matches(_ dotted: String) -> Bool {
        let other = SOQLFieldPath(dotted)
        guard other.components.count == components.count else { return false }
        return zip(components, other.components).allSatisfy { $0.lowercased() == $1.lowercased() }
    }
}

extension SOQLFieldPath: ExpressibleByStringLiteral {
    /// Creates a path from a dotted string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension SOQLFieldPath: CustomStringConvertible {
    /// The path as SOQL text.
    public var description: String { text }
}
