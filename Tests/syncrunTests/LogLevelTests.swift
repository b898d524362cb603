import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `--log-level` / `SYNCRUN_LOG_LEVEL`: library logs on standard error, one line per org request
/// at debug, never the token.
struct LogLevelTests {
    /// Runs `syncrun run` on a copy of the contacts example against a seeded local org served in
    /// this process over HTTP, with the token passed as a raw access token.
    private func runAgainstServedOrg(
        extraArguments: [String],
        environment: [String: String] = [:]
    ) async throws -> (result: SyncrunProcess.Result, token: String) {
        try await RunProject.with { project in
            try await LocalOrgFixture.with { org in
                _ = try OrgSeeder(database: org.database).seed(files: [URL(fileURLWithPath: project.seedPlan)])
                var processEnvironment = ProcessInfo.processInfo.environment
                processEnvironment["SYNCRUN_LOG_LEVEL"] = nil
                processEnvironment.merge(environment) { _, new in new }
                let result = try await SyncrunProcess.runOffThePool(
                    [
                        "run", "--config", project.config, "--org", org.baseURL.absoluteString,
                        "--access-token", org.accessToken, "--format", "json",
                    ] + extraArguments,
                    environment: processEnvironment
                )
                return (result, org.accessToken)
            }
        }
    }

    private func requestLines(in stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains("Org request") }
    }

    @Test func debugLogsOneLinePerRequestWithoutTheToken() async throws {
        let (result, token) = try await runAgainstServedOrg(extraArguments: ["--log-level", "debug"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = requestLines(in: result.stderr)
        // The example's plan: two sync downs, a query each at least.
        #expect(lines.count >= 2, "\(result.stderr)")
        #expect(lines.contains { $0.contains("sf.request.path=/services/data/v62.0/query ") }, "\(result.stderr)")
        for line in lines {
            #expect(line.contains("sf.request.method="))
            #expect(line.contains("sf.request.path=/services/data/"))
            #expect(line.contains("sf.response.status=200"))
            #expect(line.contains("sf.request.duration="))
            // The query string (SOQL, which can carry record values) is left out.
            #expect(!line.contains("?q="))
        }
        #expect(!token.isEmpty)
        #expect(!result.stderr.contains(token))
        #expect(!result.stdout.contains(token))
    }

    @Test func theEnvironmentVariableTurnsLogsOn() async throws {
        let (result, token) = try await runAgainstServedOrg(
            extraArguments: [],
            environment: ["SYNCRUN_LOG_LEVEL": "debug"]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!requestLines(in: result.stderr).isEmpty, "\(result.stderr)")
        #expect(!result.stderr.contains(token))
    }

    @Test func logsAreOffByDefault() async throws {
        let (result, _) = try await runAgainstServedOrg(extraArguments: [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(requestLines(in: result.stderr).isEmpty, "\(result.stderr)")
    }

    @Test func anUnknownLevelIsAUsageError() throws {
        let result = try SyncrunProcess.run(["validate", "--log-level", "loud", "--config", "."])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown log level 'loud'"), "\(result.stderr)")
    }
}
