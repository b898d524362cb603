import SOQL

/// The SOQL parser: a query that parses is printed, parsed again, and put through the mutations a
/// sync applies to it.
enum SOQLTarget {
    static func run(_ bytes: [UInt8]) async {
        let text = String(decoding: bytes, as: UTF8.self)
        let query: SOQLQuery
        do {
            query = try SOQLQuery.parse(text)
        } catch {
            _ = String(describing: error)
            return
        }
        _ = try? SOQLQuery.parse(query.text)
        let mutated = query.ensuringFields(["Id", "LastModifiedDate"])
            .ensuringOrder(by: "LastModifiedDate")
            .addingModifiedFilter(field: "LastModifiedDate", after: 1_700_000_000_000)
            .idsOnly(idField: "Id")
        _ = try? SOQLQuery.parse(mutated.text)
    }
}
