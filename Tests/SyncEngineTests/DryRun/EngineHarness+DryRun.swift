import Foundation
import LocalOrg
import SoupStore
import SyncEngine
import Testing

/// What a dry run must leave unchanged: the store file's bytes (main file and WAL) and the org's
/// Account and Contact rows (deleted ones included), plus where the request log stood.
struct DryRunBaseline {
    let storeBytes: [Data]
    let orgRows: Data
    let loggedRequests: Int
}

extension EngineHarness {
    /// Records the store file's bytes, the org's Account and Contact rows and the request log's length.
    func dryRunBaseline() throws -> DryRunBaseline {
        DryRunBaseline(
            storeBytes: try storeBytes(),
            orgRows: try orgRows(),
            loggedRequests: try requestLog().count
        )
    }

    /// Checks that nothing was written since `baseline`: same store bytes, same Account rows, and
    /// only reads sent to the org (GET, or the collection retrieve `POST /composite/sobjects/<type>`
    /// the sync up conflict check reads with). Returns the requests sent since.
    @discardableResult
    func expectNothingWritten(since baseline: DryRunBaseline, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> [RequestLogEntry]
    {
        #expect(try storeBytes() == baseline.storeBytes, "the store file changed", sourceLocation: sourceLocation)
        #expect(try orgRows() == baseline.orgRows, "the org's records changed", sourceLocation: sourceLocation)
        let requests = Array(try requestLog().dropFirst(baseline.loggedRequests))
        for request in requests where !(request.method == "GET" || Self.isCollectionRetrieve(request)) {
            Issue.record("a dry run sent \(request.method) \(request.path)", sourceLocation: sourceLocation)
        }
        return requests
    }

    static func isCollectionRetrieve(_ request: RequestLogEntry) -> Bool {
        request.method == "POST"
            && request.path.range(of: #"/composite/sobjects/[A-Za-z_]+$"#, options: .regularExpression) != nil
    }

    private func storeBytes() throws -> [Data] {
        let path = store.path
        return try [path, path + "-wal"].map { file in
            FileManager.default.fileExists(atPath: file) ? try Data(contentsOf: URL(fileURLWithPath: file)) : Data()
        }
    }

    private func orgRows() throws -> Data {
        let accounts = try database.query(
            "SELECT Id, Name, Industry, AccountNumber, IsDeleted, LastModifiedDate, SystemModstamp FROM Account ORDER BY Id",
            includeDeleted: true,
            apiVersion: "62.0"
        ).recordsJSON
        let contacts = try database.query(
            "SELECT Id, LastName, AccountId, IsDeleted, LastModifiedDate, SystemModstamp FROM Contact ORDER BY Id",
            includeDeleted: true,
            apiVersion: "62.0"
        ).recordsJSON
        return accounts + contacts
    }

    /// Whether the store has `syncs_soup` or a soup named `soup`.
    func hasSoup(_ soup: String) throws -> Bool {
        try store.read { try $0.hasSoup(soup) }
    }
}
