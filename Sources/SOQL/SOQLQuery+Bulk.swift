extension SOQLQuery {
    /// Why Bulk API 2.0 cannot run this query, or `nil` when it can (real-org.md §0.9, §3.1).
    ///
    /// Bulk query jobs refuse parent-to-child sub-queries, `COUNT()` and other aggregates,
    /// `GROUP BY` / `HAVING`, `OFFSET`, `TYPEOF` and `FIELDS()`; such queries stay on REST.
    /// Child-to-parent paths (`Account.Name`), `WHERE`, `ORDER BY` and `LIMIT` are fine.
    public var bulkUnsupportedFeature: String? {
        if select.contains(where: { if case .subquery = $0 { true } else { false } }) {
            return "a parent-to-child sub-query"
        }
        if select.contains(.count) { return "an aggregate function (COUNT())" }
        if select.contains(where: { if case .typeOf = $0 { true } else { false } }) { return "TYPEOF or FIELDS()" }
        if !groupBy.isEmpty || having != nil { return "GROUP BY" }
        if offset != nil { return "OFFSET" }
        if selectedFields.contains(where: { $0.components.contains { Self.isBulkRefusedName($0) } }) {
            return "TYPEOF or FIELDS()"
        }
        return nil
    }

    private static func isBulkRefusedName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("fields(") || lowered == "typeof"
    }
}
