import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// A small seeded org for query tests: four accounts with exact creation times and four contacts.
enum OrgQueryFixture {
    static let records = """
        {"records": [
          {"attributes": {"type": "Account", "referenceId": "A1"}, "Name": "Acme", "Industry": "Banking",
           "NumberOfEmployees": 100, "AnnualRevenue": 1000.5, "CreatedDate": "2024-03-05T10:00:00.000+0000"},
          {"attributes": {"type": "Account", "referenceId": "A2"}, "Name": "Blue Harbor", "Industry": "Retail",
           "NumberOfEmployees": 50, "CreatedDate": "2024-03-04T23:59:59.000+0000", "ParentId": "@A1"},
          {"attributes": {"type": "Account", "referenceId": "A3"}, "Name": "cedar grove",
           "NumberOfEmployees": 75, "AnnualRevenue": 2000, "CreatedDate": "2024-02-20T00:00:00.000+0000"},
          {"attributes": {"type": "Account", "referenceId": "A4"}, "Name": "Delta", "Industry": "Banking",
           "AnnualRevenue": 300, "CreatedDate": "2023-12-31T12:00:00.000+0000"},
          {"attributes": {"type": "Contact", "referenceId": "C1"}, "FirstName": "Jane", "LastName": "Doe",
           "Email": "jane@acme.example", "Birthdate": "1990-05-01", "AccountId": "@A1",
           "CreatedDate": "2024-03-01T00:00:00.000+0000"},
          {"attributes": {"type": "Contact", "referenceId": "C2"}, "FirstName": "John", "LastName": "Roe",
           "AccountId": "@A1", "CreatedDate": "2024-03-01T00:00:01.000+0000"},
          {"attributes": {"type": "Contact", "referenceId": "C3"}, "FirstName": "Ann", "LastName": "Poe",
           "AccountId": "@A2", "CreatedDate": "2024-03-01T00:00:02.000+0000"},
          {"attributes": {"type": "Contact", "referenceId": "C4"}, "FirstName": "Orphan", "LastName": "Zed",
           "CreatedDate": "2024-03-01T00:00:03.000+0000"}
        ]}
        """

    /// Opens an org in `directory` seeded with ``records``; returns it with the reference → ID map.
    static func make(in directory: URL) throws -> (OrgDatabase, [String: String]) {
        let org = try OrgFixtures.makeOrg(in: directory.appendingPathComponent("org"))
        let file = directory.appendingPathComponent("records.json")
        try Data(records.utf8).write(to: file)
        let report = try OrgSeeder(database: org).seed(files: [file])
        return (org, report.references)
    }

    /// The values of `field` of every record a query returns (first page).
    static func column(_ field: String, _ soql: String, org: OrgDatabase) throws -> [String] {
        let page = try org.query(soql, apiVersion: OrgFixtures.apiVersion)
        return try OrgFixtures.values(field, in: page.recordsJSON).map { $0.stringValue ?? "null" }
    }
}
