/// How to run a SOQL query.
public struct QueryOptions: Sendable, Hashable {
    /// The page size asked for with `Sforce-Query-Options: batchSize=N`; `nil` sends no header and
    /// lets the org choose (2,000 on Salesforce). Salesforce honours 200…2,000 and may return
    /// fewer rows; the value is sent as given. Default: `nil`.
    public var batchSize: Int?
    /// Whether to use `queryAll`, which also returns deleted and archived rows. Default: `false`.
    public var includesDeleted: Bool

    /// Creates query options.
    public init(batchSize: Int? = nil, includesDeleted: Bool = false) {
        self.batchSize = batchSize
        self.includesDeleted = includesDeleted
    }
}
