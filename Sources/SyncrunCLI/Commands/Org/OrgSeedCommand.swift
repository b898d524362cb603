import ArgumentParser
import Foundation
import LocalOrg

/// `syncrun org seed`: loads Salesforce CLI data-tree files into a local org's data directory.
struct OrgSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Load data-tree record files or plan files into a local org.",
        discussion: """
            FILE is a plan file ([{"sobject", "files"}…], as written by 'sf data export tree --plan') or a \
            record file ({"records": […]}). '@ReferenceId' lookups are resolved across all files. Records may \
            set CreatedDate and LastModifiedDate. Everything is loaded in one transaction: on any error \
            nothing changes.
            """
    )

    @Option(name: .long, help: "The local org's data directory (created if missing).")
    var data: String

    @OptionGroup var newOrg: NewOrgOptions

    @Option(help: "Output format: text (one line per object) or json.")
    var format: OutputFormat = .text

    @Flag(help: "Seed only when the data directory holds no org yet, so a script can run this every time.")
    var ifNew = false

    @Argument(help: "Plan files or record files, loaded in order.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one plan or record file to load.") }
    }

    func run() async throws {
        let databaseFile = URL(fileURLWithPath: data).appendingPathComponent(OrgDatabase.fileName)
        if ifNew, FileManager.default.fileExists(atPath: databaseFile.path) {
            switch format {
            case .json: try StandardStreams.writeJSON(SeedSummary(total: 0, objects: [], skipped: true))
            case .text: StandardStreams.write("\(data) already holds an org; nothing seeded (--if-new)\n")
            }
            return
        }
        let report = try LibraryErrors.converting(OrgError.self) {
            let database = try newOrg.openDatabase(in: URL(fileURLWithPath: data))
            return try OrgSeeder(database: database).seed(files: files.map { URL(fileURLWithPath: $0) })
        }
        switch format {
        case .json:
            try StandardStreams.writeJSON(
                SeedSummary(
                    total: report.total,
                    objects: ObjectRecordCount.list(report.counts),
                    skipped: false
                )
            )
        case .text:
            var text = ObjectRecordCount.lines(report.counts)
            text += "seeded \(report.total) record\(report.total == 1 ? "" : "s") into \(data)\n"
            StandardStreams.write(text)
        }
    }
}

/// The JSON output of `syncrun org seed --format json`.
private struct SeedSummary: Encodable {
    var total: Int
    var objects: [ObjectRecordCount]
    /// True when `--if-new` found an existing org and seeded nothing.
    var skipped: Bool
}
