/// One object's record count, as `org seed` and `org export` report them: `{"object", "records"}`
/// in JSON, `Account: 3 records` in text.
struct ObjectRecordCount: Encodable {
    var object: String
    var records: Int

    /// The counts of a seed or export report, in its order.
    static func list(_ counts: [(object: String, count: Int)]) -> [ObjectRecordCount] {
        counts.map { ObjectRecordCount(object: $0.object, records: $0.count) }
    }

    /// One line per object, `Account: 3 records`.
    static func lines(_ counts: [(object: String, count: Int)]) -> String {
        counts.map { "\($0.object): \(Count.of($0.count, "record"))\n" }.joined()
    }
}
