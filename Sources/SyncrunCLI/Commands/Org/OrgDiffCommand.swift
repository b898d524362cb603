import ArgumentParser
import Foundation
import JSONCore
import OrgCheck
import SyncConfig

/// `syncrun org diff`: can this config move from org A to org B? What differs between the two
/// shapes for what the config uses, and the `org check` diagnostics it would get on B.
struct OrgDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two orgs (or schema files) for what a config uses, and report what breaks on the second.",
        discussion: """
            A is --org or --schema-file, B is --against-org or --against-schema-file. Prints the differences \
            (OBJECT[.FIELD]: property: A -> B) and the org check diagnostics of the config on B; --format json prints \
            {"differences": [{"object", "field", "property", "a", "b"}], "breaks": [diagnostics]}. Exit status: 0 when \
            nothing of the config breaks on B, 1 when something does, 2 usage error.
            """
    )

    @OptionGroup var org: OrgOptions

    @Option(name: .customLong("schema-file"), help: ArgumentHelp("A as a schema file.", valueName: "file"))
    var schemaFile: String?

    @Option(name: .customLong("against-org"), help: ArgumentHelp("B: an org (the --org grammar).", valueName: "org"))
    var againstOrg: String?

    @Option(name: .customLong("against-schema-file"), help: ArgumentHelp("B as a schema file.", valueName: "file"))
    var againstSchemaFile: String?

    @OptionGroup var config: ConfigOptions

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if (schemaFile != nil) == (org.org != nil) {
            throw ValidationError("give A as exactly one of --org or --schema-file")
        }
        if (againstSchemaFile != nil) == (againstOrg != nil) {
            throw ValidationError("give B as exactly one of --against-org or --against-schema-file")
        }
    }

    func run() async throws {
        let checked = try await OrgCheckRun.check(
            config: config,
            org: try againstOrg.map(Self.orgOptions),
            schemaFile: againstSchemaFile
        )
        let shapeA = try await OrgCheckRun.shape(
            org: schemaFile == nil ? org : nil,
            schemaFile: schemaFile,
            config: config,
            names: checked.objectNames
        )
        let differences = shapeA.differences(from: checked.shape, objects: checked.objectNames)
        switch format {
        case .json:
            let document = JSONValue.object([
                "differences": .array(differences.map(\.json)),
                "breaks": .array(checked.diagnostics.map(Self.json)),
            ])
            StandardStreams.write(document.jsonText(pretty: true) + "\n")
        case .text:
            var output: String = differences.map { difference in
                let place = difference.object + (difference.field.map { "." + $0 } ?? "")
                let change = difference.a.jsonText + " -> " + difference.b.jsonText
                return place + ": " + difference.property + ": " + change + "\n"
            }.joined()
            output += checked.diagnostics.map { DiagnosticText.line($0) + "\n" }.joined()
            let breaks = checked.diagnostics.count(where: \.isError)
            output +=
                "\(differences.count) difference\(differences.count == 1 ? "" : "s"), "
                + "\(breaks) break\(breaks == 1 ? "" : "s") on B\n"
            StandardStreams.write(output)
        }
        if checked.diagnostics.contains(where: \.isError) {
            throw ExitStatus.failure.exitCode
        }
    }

    private static func orgOptions(_ org: String) throws -> OrgOptions {
        do {
            return try OrgOptions.parse(["--org", org])
        } catch {
            throw CLIError.usage("--against-org '\(org)' is not an org: \(OrgOptions.message(for: error))")
        }
    }

    private static func json(_ diagnostic: Diagnostic) -> JSONValue {
        .object([
            "file": .string(diagnostic.file), "line": .integer(Int64(diagnostic.line)),
            "column": .integer(Int64(diagnostic.column)), "severity": .string(diagnostic.severity.rawValue),
            "path": .string(diagnostic.path), "message": .string(diagnostic.message),
            "code": .string(diagnostic.code.rawValue),
        ])
    }
}
