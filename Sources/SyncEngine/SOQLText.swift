import SOQL

/// Query texts the fetchers build, through the SOQL module's builders and printer (values are
/// quoted and escaped there, never spliced here).
enum SOQLText {
    /// Ids per `IN (…)` list.
    static let maximumIDsPerQuery = SOQLCondition.maximumIDsPerQuery

    /// `SELECT fields FROM type WHERE idField IN (ids) [AND mod >= t]`.
    static func select(
        fields: [String],
        from objectType: String,
        idField: String,
        in ids: [String],
        modifiedField: String? = nil,
        since milliseconds: Int64? = nil
    ) -> String {
        var conditions = [SOQLCondition.idIn(ids, field: idField)]
        if let modifiedField, let milliseconds {
            conditions.append(.modified(field: modifiedField, after: milliseconds, inclusive: true))
        }
        return SOQLQuery.select(fields: fields, from: objectType, where: SOQLCondition.all(conditions)).text
    }

    /// `fields` with `required` prepended when missing (compared case-insensitively; a field
    /// qualified with `object`'s name, `Account.Id` for `Account`, counts as the field itself).
    static func ensuring(_ required: [String], in fields: [String], object: String? = nil) -> [String] {
        let present = fields.map { field in
            (object.map { SOQLFieldPath(field).unqualified(by: $0) } ?? SOQLFieldPath(field)).text.lowercased()
        }
        let missing = required.filter { name in !present.contains(name.lowercased()) }
        var unique: [String] = []
        for name in missing where !unique.contains(name) { unique.append(name) }
        return unique + fields
    }
}
