import SOQL

/// Whether a sync's query can run as a Bulk API 2.0 job.
enum BulkCheck {
    /// Why Bulk cannot run `query`, or `nil` when it can (or the query does not parse, which the
    /// SOQL checks report).
    static func refusal(_ query: String) -> String? {
        guard let parsed = try? SOQLQuery.parse(query) else { return nil }
        return parsed.bulkUnsupportedFeature
    }
}
