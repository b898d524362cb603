/// One fuzz target: a parser that takes outside input, fed arbitrary bytes.
///
/// `run` must return for every input: thrown errors are caught inside (they are the expected answer
/// to bad input), while a trap, a hang or runaway memory is a finding. The libFuzzer harness
/// (`scripts/fuzz.sh`) and the replay suite (`FuzzReplayTests`, over `Fuzz/corpus/<name>/` and
/// `Fuzz/regressions/<name>/`) both call these functions.
package struct FuzzTarget: Sendable {
    /// The target's name, and its folder under `Fuzz/corpus/` and `Fuzz/regressions/`.
    package let name: String
    /// Feeds one input through the parser.
    package let run: @Sendable ([UInt8]) async -> Void

    /// Every target, in the order `scripts/fuzz.sh` runs them.
    package static let all: [FuzzTarget] = [
        FuzzTarget(name: "json-core", run: JSONCoreTarget.run),
        FuzzTarget(name: "config-json", run: ConfigTarget.runJSON),
        FuzzTarget(name: "config-yaml", run: ConfigTarget.runYAML),
        FuzzTarget(name: "project-file", run: ConfigTarget.runProjectFile),
        FuzzTarget(name: "soql", run: SOQLTarget.run),
        FuzzTarget(name: "smart-sql", run: SmartSQLTarget.run),
        FuzzTarget(name: "seed", run: SeedTarget.run),
        FuzzTarget(name: "org-responses", run: OrgResponseTarget.run),
        FuzzTarget(name: "oauth-identity", run: OrgResponseTarget.runOAuth),
        FuzzTarget(name: "sf-cli", run: SalesforceCLITarget.run),
        FuzzTarget(name: "local-org", run: LocalOrgTarget.run),
        FuzzTarget(name: "bulk-csv", run: BulkCSVTarget.run),
        FuzzTarget(name: "endpoint-response", run: EndpointResponseTarget.run),
        FuzzTarget(name: "oauth-token", run: OAuthTokenTarget.run),
        FuzzTarget(name: "bulk-xml", run: BulkXMLTarget.run),
        FuzzTarget(name: "avro", run: AvroTarget.run),
        FuzzTarget(name: "proxy-url", run: ProxyURLTarget.run),
        FuzzTarget(name: "dir-set", run: DirectorySetTarget.run),
    ]

    /// The target called `name`.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
