import ArgumentParser
import Foundation
import JSONCore
import LocalOrg
import OrgClient
import SOQL

/// `syncrun org query`: runs SOQL against a local org's data directory, page by page, as the
/// REST API would answer it; for checking what a sync wrote.
struct OrgQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a SOQL query on a local org and print the records.",
        discussion: """
            Prints the records as a JSON array (--format json), or one JSON object per line \
            (--format jsonl), without the 'attributes' key unless --attributes is given. A 'SELECT COUNT() \
            FROM …' query prints {"totalSize": N} (one line in both formats). Pages are read \
            one at a time, so any result size prints in flat memory. Example: \
            syncrun org query --data examples/contacts/.syncrun/org "SELECT Id, Name, Phone FROM Account WHERE Name = 'Aster Biotech'"
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json
        case jsonl
    }

    @Option(help: ArgumentHelp("The local org's data directory.", valueName: "dir")) var data: String
    @Option(help: "Output format.") var format: Format = .json
    @Flag(help: "Keep each record's 'attributes' (type and URL).") var attributes = false
    @Flag(help: "Include deleted records (queryAll).") var all = false
    @Argument(help: "The SOQL query.") var soql: String

    func run() throws {
        let directory = URL(fileURLWithPath: data, isDirectory: true)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(OrgDatabase.fileName).path) else {
            throw CLIError("'\(data)' holds no local org; create one with 'syncrun org seed --data \(data) PLAN'")
        }
        let version = OrgEndpoint.defaultAPIVersion
        do {
            let database = try OrgDatabase(directory: directory)
            var page = try database.query(soql, includeDeleted: all, apiVersion: version)
            if (try? SOQLQuery.parse(soql))?.select.contains(.count) == true {
                // COUNT() has no records: the count is the answer (REST's totalSize).
                let body = JSONValue.object(["totalSize": .integer(Int64(page.totalSize))])
                StandardStreams.write(body.jsonText + "\n")
                return
            }
            var first = true
            if format == .json { StandardStreams.write("[") }
            while true {
                try write(page.recordsJSON, first: &first)
                guard !page.done, let locator = page.nextLocator else { break }
                page = try database.queryMore(locator: locator, apiVersion: version)
            }
            if format == .json { StandardStreams.write(first ? "]\n" : "\n]\n") }
        } catch let error as OrgError {
            throw CLIError("the query failed: \(error.message)")
        }
    }

    private func write(_ records: Data, first: inout Bool) throws {
        let parsed = records.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self))
            return Result { () throws(JSONSyntaxError) in try reader.readDocument() }
        }
        let value = try parsed.mapError { CLIError("the local org returned records that are not JSON: \($0)") }.get()
        guard case .array(let array) = value else { return }
        for case .object(var record) in array {
            if !attributes { record["attributes"] = nil }
            let line = JSONValue.object(record).jsonText
            switch format {
            case .json: StandardStreams.write((first ? "\n  " : ",\n  ") + line)
            case .jsonl: StandardStreams.write(line + "\n")
            }
            first = false
        }
    }
}
