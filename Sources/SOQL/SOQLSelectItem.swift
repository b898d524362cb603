/// One entry of a select list.
public enum SOQLSelectItem: Sendable, Hashable {
    /// A field, possibly through parent relationships: `Account.Owner.Name`.
    case field(SOQLFieldPath)
    /// A parent-to-child sub-query, `(SELECT Id FROM Contacts)`; its ``SOQLQuery/object``
    /// is the child relationship name.
    case subquery(SOQLQuery)
    /// `COUNT()`: the query returns only a row count.
    case count
    /// `TYPEOF What WHEN Account THEN Name, Phone WHEN Opportunity THEN Amount ELSE Name END`: the
    /// fields of a polymorphic relationship's record, chosen by the record's object.
    case typeOf(SOQLTypeOf)

    /// The field path, when this item is a field.
    public var fieldPath: SOQLFieldPath? {
        if case .field(let path) = self { return path }
        return nil
    }
}

/// A `TYPEOF` select item: per object of a polymorphic relationship, the fields to select.
public struct SOQLTypeOf: Sendable, Hashable {
    /// One `WHEN Object THEN field, …` branch.
    public struct When: Sendable, Hashable {
        public var object: String
        public var fields: [SOQLFieldPath]

        public init(object: String, fields: [SOQLFieldPath]) {
            self.object = object
            self.fields = fields
        }
    }

    /// The polymorphic relationship (`What`, `Who`, `Owner`).
    public var relationship: String
    public var whens: [When]
    /// The `ELSE` fields (empty: no `ELSE`).
    public var otherwise: [SOQLFieldPath]

    public init(relationship: String, whens: [When], otherwise: [SOQLFieldPath] = []) {
        self.relationship = relationship
        self.whens = whens
        self.otherwise = otherwise
    }

    /// `TYPEOF What WHEN Account THEN Name ELSE Name END`.
    public var text: String {
        var text = "TYPEOF \(relationship)"
        for when in whens {
            text += " WHEN \(when.object) THEN " + when.fields.map(\.text).joined(separator: ", ")
        }
        if !otherwise.isEmpty { text += " ELSE " + otherwise.map(\.text).joined(separator: ", ") }
        return text + " END"
    }
}
