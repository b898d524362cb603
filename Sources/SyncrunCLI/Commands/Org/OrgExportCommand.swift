import ArgumentParser
import Foundation
import JSONCore
import LocalOrg

/// `syncrun org export`: writes a local org's records as Salesforce CLI data-tree files with a plan.
struct OrgExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a local org's records as data-tree files and a plan.",
        discussion: """
            Writes {Type}s.json per object and {Types}-plan.json, with lookups between exported records as \
            '@{Type}Ref{n}'; 'syncrun org seed' (or 'sf data import tree --plan') loads them back.
            """
    )

    @Option(name: .long, help: "The local org's data directory.")
    var data: String

    @Option(name: .long, help: "The directory to write the files to (created if missing).")
    var output: String

    @Option(name: .customLong("object"), help: "An object to export (repeatable; default: every object with records).")
    var objects: [String] = []

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        let database = URL(fileURLWithPath: data).appendingPathComponent(OrgDatabase.fileName)
        if !FileManager.default.fileExists(atPath: database.path) {
            throw ValidationError("No local org in '\(data)': '\(database.path)' does not exist.")
        }
    }

    func run() async throws {
        let report = try LibraryErrors.converting(OrgError.self) {
            let database = try OrgDatabase(directory: URL(fileURLWithPath: data))
            // An object name typed wrong: a usage error with a suggestion, before anything is written.
            let names = database.schema.objects.map(\.name)
            for object in objects where database.schema.object(named: object) == nil {
                throw CLIError.usage(
                    "--object '\(JSONWriter.terminalSafe(object))' is not an object of the org in '\(data)'"
                        + NameSuggestion.clause(for: object, among: names)
                        + "; leave --object out to export every object with records"
                )
            }
            return try OrgExporter(database: database).export(objects: objects, to: URL(fileURLWithPath: output))
        }
        switch format {
        case .json:
            try StandardStreams.writeJSON(
                ExportSummary(
                    plan: report.planFile.path,
                    files: report.files.map(\.path),
                    objects: ObjectRecordCount.list(report.counts),
                    droppedReferences: report.droppedReferences
                )
            )
        case .text:
            var text = ObjectRecordCount.lines(report.counts)
            text += "wrote \(report.planFile.path)\n"
            if report.droppedReferences > 0 {
                text +=
                    "note: \(Count.of(report.droppedReferences, "lookup")) to records that were not exported "
                    + "\(report.droppedReferences == 1 ? "was" : "were") left out\n"
            }
            StandardStreams.write(text)
        }
    }
}

/// The JSON output of `syncrun org export --format json`.
private struct ExportSummary: Encodable {
    var plan: String
    var files: [String]
    var objects: [ObjectRecordCount]
    var droppedReferences: Int
}
