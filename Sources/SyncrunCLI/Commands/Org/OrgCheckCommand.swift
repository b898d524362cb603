import ArgumentParser
import Foundation
import OrgCheck
import SyncConfig

/// `syncrun org check`: does this config work on that org? The config against the org's describe
/// (or a schema file), every problem at once, in `validate`'s format.
struct OrgCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a config against an org's describe (or a schema file) and report every problem.",
        discussion: """
            Prints one line per problem, FILE:LINE:COLUMN: error|warning: PATH: message [code], then a summary \
            (--format json: validate's array of {file, line, column, severity, path, message, code}). The codes \
            are listed in docs/diagnostics.md. Exit status: 0 clean or warnings only, 1 any error, 2 usage error.
            """
    )

    @OptionGroup var org: OrgOptions

    @Option(
        name: .customLong("schema-file"),
        help: ArgumentHelp("Check offline against this schema file (JSON or YAML) instead of --org.", valueName: "file")
    )
    var schemaFile: String?

    @OptionGroup var config: ConfigOptions

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if schemaFile != nil && org.org != nil {
            throw ValidationError("give either --org or --schema-file, not both")
        }
    }

    func run() async throws {
        let checked = try await OrgCheckRun.check(
            config: config,
            org: schemaFile == nil ? org : nil,
            schemaFile: schemaFile
        )
        try OrgCheckRun.print(checked.diagnostics, format: format, files: checked.files)
        if checked.diagnostics.contains(where: \.isError) {
            throw ExitStatus.failure.exitCode
        }
    }
}

/// What `org check` and `org diff` share: loading the config, the shape, and printing.
enum OrgCheckRun {
    struct Checked {
        var diagnostics: [Diagnostic]
        var files: [String]
        var shape: OrgShape
        var objectNames: [String]
    }

    /// Loads the config (refusing one with errors), the org's shape, and checks one against the other.
    static func check(config: ConfigOptions, org: OrgOptions?, schemaFile: String?) async throws -> Checked {
        let (loaded, maps) = try load(config)
        let names = OrgChecker.objectNames(of: loaded)
        let shape = try await shape(org: org, schemaFile: schemaFile, config: config, names: names)
        let diagnostics = OrgChecker(shape: shape).check(loaded, sourceMaps: maps)
        return Checked(diagnostics: diagnostics, files: loaded.files, shape: shape, objectNames: names)
    }

    static func shape(org: OrgOptions?, schemaFile: String?, config: ConfigOptions, names: [String]) async throws
        -> OrgShape
    {
        if let schemaFile { return try OrgShapeSource.shape(schemaFile: schemaFile) }
        guard let org else { throw CLIError.usage("give --org ORG or --schema-file FILE") }
        let project = try ProjectContext.load(configDirectory: config.configDirectory)
        return try await OrgShapeSource.shape(org: org, project: project, names: names, followReferences: false)
    }

    /// The config and each of its files' positions; a config with errors is refused (run `validate`).
    static func load(_ config: ConfigOptions) throws -> (LoadedConfig, [String: ConfigSourceMap]) {
        let files = try config.configFiles()
        let loaded = try config.load()
        if loaded.hasErrors {
            for diagnostic in loaded.diagnostics where diagnostic.isError {
                StandardStreams.writeError(DiagnosticText.line(diagnostic) + "\n")
            }
            throw CLIError("the config has errors; fix them first (see 'syncrun validate')")
        }
        var maps: [String: ConfigSourceMap] = [:]
        for url in [files.userStore, files.userSyncs, files.globalStore, files.globalSyncs].compactMap({ $0 }) {
            do {
                if let map = try ConfigSourceMap(url: url) { maps[map.file] = map }
            } catch let error as SyncConfigError {
                throw CLIError(error.message)
            }
        }
        return (loaded, maps)
    }

    static func print(_ diagnostics: [Diagnostic], format: OutputFormat, files: [String]) throws {
        switch format {
        case .json:
            try StandardStreams.writeJSON(diagnostics)
        case .text:
            var output = diagnostics.map { DiagnosticText.line($0) + "\n" }.joined()
            let errors = diagnostics.count(where: \.isError)
            let warnings = diagnostics.count - errors
            if diagnostics.isEmpty {
                output += "OK: the config matches the org\n"
            } else {
                var parts: [String] = []
                if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
                if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
                output += parts.joined(separator: ", ") + "\n"
            }
            StandardStreams.write(output)
        }
    }
}
