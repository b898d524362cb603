import ArgumentParser
import Foundation
import JSONCore
import LocalOrg
import OrgCheck

/// `syncrun org schema`: org schema files.
struct OrgSchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Pull an org's shape into a schema file.",
        subcommands: [OrgSchemaPullCommand.self]
    )
}

/// `syncrun org schema pull`: the objects a config uses, as a local org schema file.
struct OrgSchemaPullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Write a schema file with the shape of the objects a config uses.",
        discussion: """
            Writes the objects the config uses (or --objects), the objects their reference fields point to (one \
            level), and User, Organization and RecordType; an object the user may not describe (404) among the last \
            two kinds is left out with a warning. The file is in the local org's exact-mode schema format: keys sorted, \
            no ids, no timestamps. 'local:DIR --schema FILE' then behaves like that org's shape, and \
            'org check --schema-file FILE' checks a config offline.
            """
    )

    @OptionGroup var org: OrgOptions

    @OptionGroup var config: ConfigOptions

    @Option(help: ArgumentHelp("Comma-separated sObjects to pull instead of the config's.", valueName: "A,B"))
    var objects: String?

    @Option(
        help: ArgumentHelp(
            "The schema file to write: YAML when it ends in .yaml or .yml, else JSON.",
            valueName: "file"
        )
    )
    var output: String

    func run() async throws {
        var names: [String]
        if let objects {
            names = objects.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        } else {
            let (loaded, _) = try OrgCheckRun.load(config)
            names = OrgChecker.objectNames(of: loaded)
        }
        let project = try ProjectContext.load(configDirectory: config.configDirectory)
        let shape = try await OrgShapeSource.shape(
            org: org,
            project: project,
            names: names,
            alsoIfVisible: ["User", "Organization", "RecordType"],
            typedNames: objects != nil,
            followReferences: true
        )
        let document = Data(shape.schemaFileDocument().jsonText().utf8)
        let schema: OrgSchema
        do {
            schema = try OrgSchema.standard.merging(json: document, source: "the pulled schema")
        } catch let error as OrgError {
            throw CLIError("the org's shape cannot be written as a schema file: \(error.message)")
        }
        var data = schema.schemaFileData()
        if Self.isYAML(output) {
            // A .yaml / .yml file gets YAML: the same document, block style.
            var text = String(decoding: data, as: UTF8.self)
            let document = text.withUTF8 { bytes -> JSONValue? in
                var reader = JSONReader(bytes: bytes)
                return try? reader.readDocument()
            }
            guard let document else { throw CLIError("the pulled schema is not valid JSON; nothing was written") }
            data = Data(try YAMLText.document(document).utf8)
        }
        do {
            try data.write(to: URL(fileURLWithPath: output))
        } catch {
            throw CLIError("cannot write '\(output)': \(error.localizedDescription)")
        }
        StandardStreams.writeError("wrote \(Count.of(shape.objects.count, "object")) to \(output)\n")
    }

    /// Whether `path` names a YAML file (`.yaml`, `.yml`; JSON otherwise).
    static func isYAML(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
    }
}
