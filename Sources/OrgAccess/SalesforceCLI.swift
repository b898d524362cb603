import Foundation

/// Runs the Salesforce CLI (`sf`) to borrow an org's login: `sf org display -o NAME --json` for
/// the instance URL, username, org id and API version, and `sf org auth show-access-token -o NAME
/// --json` for the token.
///
/// Since sf 2.136.8 `org display` prints `"[REDACTED] Use 'sf org auth show-access-token' …"` in
/// place of the token; that text is never used as a token. An older CLI that lacks
/// `show-access-token` still prints the token in `org display`, which is then used. `sf` refreshes
/// the login itself before answering either command, so asking again is how a token is renewed.
///
/// The executable is `$SYNCRUN_SF` when set, else `sf` on `PATH`.
public struct SalesforceCLI: Sendable {
    /// What `sf org display` reports about an org.
    public struct OrgDisplay: Sendable, Hashable {
        /// The org id (`id`).
        public var orgID: String?
        /// The instance URL.
        public var instanceURL: String
        /// The username.
        public var username: String?
        /// The API version, e.g. `62.0`.
        public var apiVersion: String?
        /// The token when `sf` printed one (an older CLI); `nil` when redacted or absent.
        var accessToken: String?
    }

    /// The executable: a path, or a name looked up on `PATH`.
    public var executable: String
    /// The environment the process runs with.
    public var environment: [String: String]

    /// Creates a runner from the environment: `$SYNCRUN_SF`, else `sf`.
    public init(environment: [String: String]) {
        let named = environment["SYNCRUN_SF"].flatMap { $0.isEmpty ? nil : $0 }
        self.executable = named ?? "sf"
        self.environment = environment
    }

    /// `sf org display -o NAME --json`.
    ///
    /// - Throws: ``OrgAccessError``: unresolvable for an unknown alias or a missing `sf`, refused
    ///   when `sf` knows the org but cannot log in to it (an expired login).
    public func display(_ alias: String) async throws -> OrgDisplay {
        let output = try await run(["org", "display", "-o", alias, "--json"], alias: alias)
        return try Self.display(from: output, alias: alias)
    }

    /// The org of a successful `sf org display --json`.
    static func display(from output: Output, alias: String) throws -> OrgDisplay {
        let result = try decode(DisplayResult.self, from: output, alias: alias, command: "org display")
        guard let instanceURL = result.instanceUrl, !instanceURL.isEmpty else {
            throw OrgAccessError.salesforceCLIShape(alias, command: "org display", missing: "instanceUrl")
        }
        let token = result.accessToken.flatMap { Self.isUsableToken($0) ? $0 : nil }
        return OrgDisplay(
            orgID: result.id,
            instanceURL: instanceURL,
            username: result.username,
            apiVersion: result.apiVersion,
            accessToken: token
        )
    }

    /// A current access token: `sf org auth show-access-token -o NAME --json`, or the token of
    /// `display` when this `sf` is older than that command and printed it unredacted.
    ///
    /// - Throws: ``OrgAccessError`` as ``display(_:)`` does, or when no usable token is printed.
    public func accessToken(_ alias: String, display: OrgDisplay?) async throws -> String {
        let output: Output
        do {
            output = try await run(["org", "auth", "show-access-token", "-o", alias, "--json"], alias: alias)
        } catch let error as OrgAccessError where error.code == .unresolvable && error.isUnknownCommand {
            if let token = display?.accessToken { return token }
            if display == nil, let token = try await self.display(alias).accessToken { return token }
            throw OrgAccessError.salesforceCLIRedacted(alias)
        }
        if let token = try Self.accessToken(from: output, alias: alias) { return token }
        if let token = display?.accessToken { return token }
        throw OrgAccessError.salesforceCLIRedacted(alias)
    }

    /// The usable token of a successful `sf org auth show-access-token --json`, if it printed one.
    static func accessToken(from output: Output, alias: String) throws -> String? {
        let result = try decode(TokenResult.self, from: output, alias: alias, command: "org auth show-access-token")
        guard let token = result.accessToken, Self.isUsableToken(token) else { return nil }
        return token
    }

    /// `sf config get target-org --json`: sf's default org, if one is set.
    public func targetOrg() async -> String? {
        guard let output = try? await run(["config", "get", "target-org", "--json"], alias: "target-org") else {
            return nil
        }
        return Self.targetOrg(from: output)
    }

    /// The default org named by a successful `sf config get target-org --json`, if any.
    static func targetOrg(from output: Output) -> String? {
        guard let parsed = try? JSONDecoder().decode(Envelope<[ConfigEntry]>.self, from: output.stdout) else {
            return nil
        }
        return parsed.result?.first { $0.name == "target-org" && $0.value?.isEmpty == false }?.value
    }

    /// Whether a printed token can be sent: not empty and not sf's redaction notice.
    static func isUsableToken(_ token: String) -> Bool {
        let trimmed = token.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && !trimmed.hasPrefix("[REDACTED]") && !trimmed.contains(" ")
    }

    // MARK: - Running

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: Data
    }

    private struct Envelope<Result: Decodable>: Decodable {
        var status: Int?
        var result: Result?
        var name: String?
        var message: String?
    }

    private struct DisplayResult: Decodable {
        var id: String?
        var apiVersion: String?
        var accessToken: String?
        var instanceUrl: String?
        var username: String?
    }

    private struct TokenResult: Decodable {
        var accessToken: String?
    }

    private struct ConfigEntry: Decodable {
        var name: String?
        var value: String?
    }

    /// The `result` of a successful run; an error envelope becomes an ``OrgAccessError``.
    private static func decode<Result: Decodable>(
        _ type: Result.Type,
        from output: Output,
        alias: String,
        command: String
    ) throws -> Result {
        guard let envelope = try? JSONDecoder().decode(Envelope<Result>.self, from: output.stdout),
            let result = envelope.result
        else {
            throw OrgAccessError.salesforceCLIShape(alias, command: command, missing: "result")
        }
        return result
    }

    /// Runs `sf` with `arguments`; a non-zero exit becomes an error built from sf's JSON error
    /// (`name`, `message`), read from standard output or standard error.
    private func run(_ arguments: [String], alias: String) async throws -> Output {
        let output = try await launch(arguments)
        guard output.status != 0 else { return output }
        throw Self.failure(of: output, arguments: arguments, alias: alias)
    }

    /// The error a non-zero exit of `sf` stands for, from its JSON error (`name`, `message`) on
    /// standard output or standard error.
    static func failure(of output: Output, arguments: [String], alias: String) -> OrgAccessError {
        struct Failure: Decodable {
            var name: String?
            var message: String?
        }
        let failure =
            (try? JSONDecoder().decode(Failure.self, from: output.stdout))
            ?? (try? JSONDecoder().decode(Failure.self, from: output.stderr))
        let stderrText = String(decoding: output.stderr, as: UTF8.self)
        let isUnknownCommand =
            failure == nil
            && (output.status == 127 || stderrText.contains("is not a sf command")
                || stderrText.contains("not found"))
        return OrgAccessError.salesforceCLIFailed(
            alias,
            command: arguments.prefix(3).joined(separator: " "),
            name: failure?.name,
            message: failure?.message,
            status: output.status,
            isUnknownCommand: isUnknownCommand
        )
    }

    private func launch(_ arguments: [String]) async throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("syncrun-sf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        let process = Process()
        guard let executableURL = resolveExecutable() else { throw OrgAccessError.salesforceCLIMissing(executable) }
        process.executableURL = executableURL
        process.arguments = arguments
        var environment = self.environment
        environment["SF_JSON_TO_STDOUT"] = "true"
        environment["SF_DISABLE_TELEMETRY"] = "true"
        environment["SF_AUTOUPDATE_DISABLE"] = "true"
        process.environment = environment
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: OrgAccessError.salesforceCLIMissing(executable))
            }
        }
        return Output(
            status: status,
            stdout: (try? Data(contentsOf: outURL)) ?? Data(),
            stderr: (try? Data(contentsOf: errURL)) ?? Data()
        )
    }

    /// The executable's URL: a path as given, else the first match on `PATH`.
    private func resolveExecutable() -> URL? {
        if executable.contains("/") {
            return FileManager.default.isExecutableFile(atPath: executable) ? URL(fileURLWithPath: executable) : nil
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(executable)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
