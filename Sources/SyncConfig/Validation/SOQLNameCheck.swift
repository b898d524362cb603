import SOQL

/// The names a config gives that syncrun writes into the SOQL it builds (sobject types, id and
/// date fields, field lists): SOQL has no quoting for names, so a name that is not a name —
/// `Id FROM Contact WHERE …`, a quote, a comment — would change the query. Such names are errors.
enum SOQLNameCheck {
    /// Keys whose value must be an API name or a dotted path of API names (`Account.Owner.Name`).
    static let nameKeys: Set = [
        "sobjectType", "sobjectTypePlural", "idFieldName", "modificationDateFieldName", "parentIdFieldName",
        "externalIdFieldName",
    ]
    /// Keys whose elements must each be one select item as the SOQL parser reads a select list: a
    /// name or a path.
    static let fieldListKeys: Set = [
        "fieldlist", "createFieldlist", "updateFieldlist", "parentFieldlist", "childrenFieldlist",
        "childrenCreateFieldlist", "childrenUpdateFieldlist",
    ]

    /// Whether `name` is API names (a letter, then letters, digits and `_`) joined by single dots.
    static func isName(_ name: String) -> Bool {
        var atStart = true
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                atStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                if atStart { return false }
            case UInt8(ascii: "."):
                if atStart { return false }
                atStart = true
            default:
                return false
            }
        }
        return !atStart
    }

    /// Whether `field` is exactly one select item: a name, or what the SOQL parser reads as a
    /// single item of a select list and prints back unchanged.
    static func isSelectItem(_ field: String) -> Bool {
        if isName(field) { return true }
        guard let query = try? SOQLQuery.parse("SELECT \(field) FROM Account"), query.select.count == 1 else {
            return false
        }
        return query.text == "SELECT \(query.select[0].text) FROM Account"
    }
}
