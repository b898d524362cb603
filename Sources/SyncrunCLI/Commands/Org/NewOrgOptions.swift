import ArgumentParser
import Foundation
import LocalOrg

/// `--schema` and `--id-seed`: how `org seed` and `org serve` create a local org that does not
/// exist yet (an existing org keeps its schema additions and ids).
struct NewOrgOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A JSON schema file adding custom objects and fields.", valueName: "file"))
    var schema: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seed a new org's org ID and record IDs, for reproducible runs; an existing org keeps its IDs.",
            valueName: "n"
        )
    )
    var idSeed: UInt64?

    /// Opens (creating when missing) the local org in `directory`, with the schema file's additions.
    func openDatabase(in directory: URL) throws -> OrgDatabase {
        let orgSchema = try schema.map { try OrgSchema.standard.merging(contentsOf: URL(fileURLWithPath: $0)) }
        return try OrgDatabase(
            directory: directory,
            schema: orgSchema,
            configuration: OrgDatabase.Configuration(idSeed: idSeed)
        )
    }
}
