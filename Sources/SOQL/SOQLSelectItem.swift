/// One entry of a select list.
public enum SOQLSelectItem: Sendable, Hashable {
    /// A field, possibly through parent relationships: `Account.Owner.Name`.
    case field(SOQLFieldPath)
    /// A parent-to-child sub-query, `(SELECT Id FROM Contacts)`; its ``SOQLQuery/object``
    /// is the child relationship name.
    case subquery(SOQLQuery)
    /// `COUNT()`: the query returns only a row count.
    case count

    /// The field path, when this item is a field.
    public var fieldPath: SOQLFieldPath? {
        if case .field(let path) = self { return path }
        return nil
    }
}
