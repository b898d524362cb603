import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Issue 19 item 4, through the executable: two syncs feed the `accounts` soup. A record both
/// fetched is kept while either still returns it; once the server deletes it, the first cleaning
/// (of either sync) removes it, after asking the server about it by id.
@Suite(.serialized)
struct FidelitySharedGhostTests {
    static let syncs = """
        {"syncs": [
          {"syncName": "energy", "syncType": "syncDown", "soupName": "accounts",
           "target": {"type": "soql",
             "query": "SELECT Id, Name, Industry, LastModifiedDate FROM Account WHERE Industry = 'Energy'"},
           "options": {"mergeMode": "OVERWRITE", "cleanGhosts": true}},
          {"syncName": "lettered", "syncType": "syncDown", "soupName": "accounts",
           "target": {"type": "soql",
             "query": "SELECT Id, Name, Industry, LastModifiedDate FROM Account WHERE Name LIKE 'A%'"},
           "options": {"mergeMode": "OVERWRITE", "cleanGhosts": true}}
        ]}
        """

    /// Alpha and Apex: both syncs; Beta: energy only; Atlas: lettered only.
    static let data: [(file: String, object: String, text: String)] = [
        (
            "Account.json", "Account",
            """
            {"records": [
              {"attributes": {"type": "Account", "referenceId": "A1"}, "Name": "Alpha", "Industry": "Energy"},
              {"attributes": {"type": "Account", "referenceId": "A2"}, "Name": "Apex", "Industry": "Energy"},
              {"attributes": {"type": "Account", "referenceId": "A3"}, "Name": "Beta", "Industry": "Energy"},
              {"attributes": {"type": "Account", "referenceId": "A4"}, "Name": "Atlas", "Industry": "Retail"}
            ]}
            """
        )
    ]

    func storedNames(_ project: FidelityProject) throws -> [String] {
        try project.storeRecords("accounts").compactMap { $0["Name"] as? String }.sorted()
    }

    func id(of name: String, _ project: FidelityProject) throws -> String {
        let record = try #require(try project.orgRecords("SELECT Id FROM Account WHERE Name = '\(name)'").first)
        return try #require(record["Id"] as? String)
    }

    @Test func sharedRecordsStayWhileEitherSyncReturnsThemAndGoOnceTheServerDeletesThem() async throws {
        try await FidelityProject.with(syncs: Self.syncs, data: Self.data) { project in
            try project.runDone()
            #expect(try storedNames(project) == ["Alpha", "Apex", "Atlas", "Beta"])

            // Alpha leaves Energy but still matches 'lettered': both cleanings keep it.
            let alpha = try id(of: "Alpha", project)
            try project.withOrg { org in
                try org.write { try $0.update("Account", id: alpha, fields: ["Industry": .string("Retail")]) }
            }
            let kept = try project.runDone()
            #expect(try kept.count("deleted", of: "cleanGhosts:energy") == 0)
            #expect(try kept.count("deleted", of: "cleanGhosts:lettered") == 0)
            #expect(try storedNames(project) == ["Alpha", "Apex", "Atlas", "Beta"])

            // The server deletes Apex (both syncs) and Beta (energy only): cleaning 'energy' alone
            // removes both, asking the server about Apex by id.
            let (apex, beta) = (try id(of: "Apex", project), try id(of: "Beta", project))
            try project.withOrg { org in
                try org.write { writer in
                    try writer.delete("Account", id: apex)
                    try writer.delete("Account", id: beta)
                }
            }
            let log = project.directory.appendingPathComponent("requests.jsonl")
            let cleaned = try project.runDone(["--only", "energy", "--request-log", log.path])
            #expect(try cleaned.count("deleted", of: "cleanGhosts:energy") == 2)
            #expect(try storedNames(project) == ["Alpha", "Atlas"])
            let paths = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
                let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let path = (entry?["path"] as? String ?? "").replacingOccurrences(of: "+", with: " ")
                return path.removingPercentEncoding
            }
            // One request, ids only, about Apex (Alpha was given up by 'energy' on the last run; Beta
            // was fetched by 'energy' alone, so it needs no question).
            let checks = paths.filter { $0.contains("SELECT Id FROM Account WHERE Id IN (") }
            #expect(checks.count == 1, "\(paths)")
            #expect(checks.first?.contains(apex) == true && checks.first?.contains(beta) == false)

            // 'lettered' still returns Alpha and Atlas.
            let last = try project.runDone(["--only", "lettered"])
            #expect(try last.count("deleted", of: "cleanGhosts:lettered") == 0)
            #expect(try storedNames(project) == ["Alpha", "Atlas"])
        }
    }
}
