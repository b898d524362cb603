import Foundation

extension SalesforceCLI {
    /// What syncrun makes of one run of `sf` that printed `stdout` and `stderr` and exited with
    /// `status`, read as each command it runs: `org display`, `org auth show-access-token` and
    /// `config get target-org`. For fuzzing the reading of sf's output without a process.
    ///
    /// - Returns: one line per command: the org, the token's length or the error's message.
    package static func readings(stdout: Data, stderr: Data, status: Int32) -> [String] {
        let output = Output(status: status, stdout: stdout, stderr: stderr)
        let alias = "fuzz"
        guard status == 0 else {
            let arguments = ["org", "display", "-o", alias, "--json"]
            return [Self.failure(of: output, arguments: arguments, alias: alias).message]
        }
        var lines: [String] = []
        do {
            let org = try Self.display(from: output, alias: alias)
            lines.append("display: \(org.instanceURL) \(org.orgID ?? "-") \(org.apiVersion ?? "-")")
        } catch {
            lines.append("display: \(error)")
        }
        do {
            let token = try Self.accessToken(from: output, alias: alias)
            lines.append("token: \(token?.count ?? 0) characters")
        } catch {
            lines.append("token: \(error)")
        }
        lines.append("target-org: \(Self.targetOrg(from: output) ?? "-")")
        return lines
    }
}
