import SoupStore

/// Smart SQL translation, with two soups (`accounts`, `contacts`) of every index type.
enum SmartSQLTarget {
    private static let layouts: [String: SoupLayout] = [
        "accounts": SoupLayout(
            name: "accounts",
            tableID: 1,
            specs: [
                IndexSpec(path: "Id", type: .string),
                IndexSpec(path: "Name", type: .fullText),
                IndexSpec(path: "NumberOfEmployees", type: .integer),
                IndexSpec(path: "AnnualRevenue", type: .floating),
                IndexSpec(path: "Owner.Name", type: .json1),
            ]
        ),
        "contacts": SoupLayout(
            name: "contacts",
            tableID: 2,
            specs: [IndexSpec(path: "Id", type: .string), IndexSpec(path: "AccountId", type: .string)]
        ),
    ]

    static func run(_ bytes: [UInt8]) async {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? SmartSQL.translate(text) { layouts[$0] }
    }
}
