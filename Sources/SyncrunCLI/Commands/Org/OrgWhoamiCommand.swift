import ArgumentParser
import Foundation
import Logging
import OrgAccess
import OrgClient

/// `syncrun org whoami`: logs in to an org and tells who and where that is, the connection check a
/// user runs first.
struct OrgWhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Log in to an org and show its id, the user, the instance and the API usage.",
        discussion: """
            Exits 0 when connected, 1 when the org refuses the login (with the command that fixes it), 2 when \
            the org cannot be resolved. With --format json, one object with the keys orgId, userId, username, \
            instanceUrl, apiVersion, tokenSource (sf:NAME, jwt, sfdx-auth-url, client-credentials, access-token, \
            local) and apiUsage (used, max, remaining). Tokens are never printed.
            """
    )

    @OptionGroup var org: OrgOptions

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("The directory whose project file (syncrun.yaml) names orgs.", valueName: "dir")
    )
    var configDirectory: String = "."

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    mutating func run() async throws {
        let project = try ProjectContext.load(configDirectory: configDirectory)
        let logger = Logger(label: "syncrun", factory: { _ in SwiftLogNoOpLogHandler() })
        let answer = try await org.withConnection(project: project, logger: logger) { connection in
            do {
                return try await Self.ask(connection)
            } catch let error as OrgClientError {
                throw CLIError(error.message)
            }
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var data = try encoder.encode(answer)
            data.append(0x0A)
            StandardStreams.write(data)
        case .text:
            StandardStreams.write(
                """
                org id:       \(answer.orgId)
                user id:      \(answer.userId)
                username:     \(answer.username ?? "-")
                instance:     \(answer.instanceUrl)
                API version:  \(answer.apiVersion)
                token source: \(answer.tokenSource)
                API usage:    \(answer.apiUsage.map { "\($0.used) of \($0.max) (\($0.remaining) left)" } ?? "-")

                """
            )
        }
    }

    /// The JSON answer.
    struct Answer: Encodable {
        var orgId: String
        var userId: String
        var username: String?
        var instanceUrl: String
        var apiVersion: String
        var tokenSource: String
        var apiUsage: APIUsageLine?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(orgId, forKey: .orgId)
            try container.encode(userId, forKey: .userId)
            try container.encode(username, forKey: .username)
            try container.encode(instanceUrl, forKey: .instanceUrl)
            try container.encode(apiVersion, forKey: .apiVersion)
            try container.encode(tokenSource, forKey: .tokenSource)
            try container.encode(apiUsage, forKey: .apiUsage)
        }

        private enum Keys: String, CodingKey {
            case orgId, userId, username, instanceUrl, apiVersion, tokenSource, apiUsage
        }
    }

    private static func ask(_ connection: OrgConnection) async throws -> Answer {
        let info = try await connection.client.userInfo()
        let limits = try await connection.client.limits()
        let usage =
            if let daily = limits["DailyApiRequests"] {
                APIUsage(used: max(0, daily.max - daily.remaining), max: daily.max)
            } else {
                connection.client.statistics().apiUsage
            }
        return Answer(
            orgId: info.organizationID,
            userId: info.userID,
            username: info.username ?? connection.username,
            instanceUrl: connection.instanceURL,
            apiVersion: connection.apiVersion,
            tokenSource: connection.definition.source.label,
            apiUsage: usage.map(APIUsageLine.init)
        )
    }
}
