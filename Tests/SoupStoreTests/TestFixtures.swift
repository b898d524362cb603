import Foundation
import SoupStore
import SyncrunTestSupport

/// Soups and helpers shared by the store tests.
enum TestFixtures {
    /// MobileSyncExplorer's contacts soup (store.md §1.1).
    static let contacts = SoupSpec(
        name: "contacts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "FirstName", type: .fullText),
            IndexSpec(path: "LastName", type: .fullText), IndexSpec(path: "__local__", type: .string),
            IndexSpec(path: "__locally_created__", type: .string),
            IndexSpec(path: "__locally_updated__", type: .string),
            IndexSpec(path: "__locally_deleted__", type: .string),
        ]
    )

    /// An accounts soup with one index of each kind.
    static let accounts = SoupSpec(
        name: "accounts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "NumberOfEmployees", type: .integer),
            IndexSpec(path: "AnnualRevenue", type: .floating), IndexSpec(path: "Industry", type: .json1),
            IndexSpec(path: "Name", type: .fullText), IndexSpec(path: "__local__", type: .string),
        ]
    )

    /// A JSON array of `count` account records, ids `001…`, modification dates increasing.
    static func accountRecords(_ range: Range<Int>, extra: String = "") -> String {
        "[" + range.map { account($0, extra: extra) }.joined(separator: ",") + "]"
    }

    static func account(_ number: Int, extra: String = "") -> String {
        let id = String(format: "001%012d", number)
        let date = String(format: "2024-01-01T00:%02d:%02d.000+0000", (number / 60) % 60, number % 60)
        return """
            {"attributes":{"type":"Account","url":"/services/data/v60.0/sobjects/Account/\(id)"},\
            "Id":"\(id)","Name":"Account \(number)","NumberOfEmployees":\(number),"AnnualRevenue":\(Double(number) * 1.5),\
            "Industry":"Industry \(number % 5)","LastModifiedDate":"\(date)"\(extra)}
            """
    }

    /// A temporary store with `soups`.
    static func store(_ soups: [SoupSpec] = [accounts]) throws -> TemporaryStore {
        try TemporaryStore(soups: soups)
    }
}
