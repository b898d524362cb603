import Foundation
import LocalOrg
import OrgClient
import SyncrunTestSupport
import Testing

/// The local org under concurrent writes (what a sync up with several requests in flight sends):
/// each write is one transaction on the database's single writer, which reads the record it
/// changes inside that transaction, so no write is lost.
struct LocalOrgConcurrentWriteTests {
    static let fields = [
        "AccountNumber", "Description", "Phone", "Website", "Site", "Fax", "BillingCity", "ShippingCity",
    ]

    @Test func concurrentPatchesOfDifferentFieldsOfOneRecordAreAllApplied() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                for round in 1...5 {
                    let id = try await client.create("Account", fields: ["Name": .string("Shared \(round)")])
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for field in Self.fields {
                            group.addTask {
                                try await client.update(
                                    "Account",
                                    id: id,
                                    fields: [field: .string("\(field) \(round)")],
                                    ifUnmodifiedSince: nil
                                )
                            }
                        }
                        try await group.waitForAll()
                    }
                    let record = try await client.retrieve("Account", id: id, fields: Self.fields).parse()
                    for field in Self.fields {
                        #expect(record[field] == .string("\(field) \(round)"), "round \(round): \(field) was lost")
                    }
                }
            }
        }
    }

    @Test func concurrentCollectionCreatesAreAllPresent() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let ids = try await withThrowingTaskGroup(of: [String].self) { group in
                    for call in 0..<8 {
                        group.addTask {
                            let records = (0..<50).map {
                                SObjectRecord(
                                    objectType: "Account",
                                    fields: ["Name": .string("Parallel \(call)-\($0)")]
                                )
                            }
                            let results = try await client.collection(.create(records), allOrNone: false)
                            return results.compactMap { $0.isSuccess ? $0.id : nil }
                        }
                    }
                    var ids: [String] = []
                    for try await batch in group { ids += batch }
                    return ids
                }
                #expect(ids.count == 400 && Set(ids).count == 400)
                let page = try await client.queryFirstPage(
                    "SELECT Name FROM Account WHERE Name LIKE 'Parallel %'",
                    options: QueryOptions()
                )
                #expect(page.totalSize == 400)
            }
        }
    }
}
