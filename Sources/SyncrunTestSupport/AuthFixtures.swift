import Foundation
import LocalOrg

/// Key material made with `openssl` for one test: a TLS certificate for 127.0.0.1 and an RSA key
/// pair for the JWT bearer grant.
public enum TestKeys {
    /// A self-signed CA certificate for `127.0.0.1` (subjectAltName IP) and its key, written to
    /// `directory` as `tls.crt` / `tls.key`; clients trust it with `--ca-file tls.crt`.
    public static func makeTLS(in directory: URL) throws -> (certificateFile: String, settings: TLSSettings) {
        let certificate = directory.appendingPathComponent("tls.crt")
        let key = directory.appendingPathComponent("tls.key")
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "1", "-keyout", key.path,
            "-out", certificate.path, "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-addext", "basicConstraints=critical,CA:TRUE",
        ])
        let settings = TLSSettings(
            certificateChainPEM: try String(contentsOf: certificate, encoding: .utf8),
            privateKeyPEM: try String(contentsOf: key, encoding: .utf8)
        )
        return (certificate.path, settings)
    }

    /// An RSA key (`jwt.key`, PEM) and the self-signed certificate a connected app would hold.
    public static func makeJWTKeyPair(in directory: URL) throws -> (keyFile: String, certificatePEM: String) {
        let certificate = directory.appendingPathComponent("jwt.crt")
        let key = directory.appendingPathComponent("jwt.key")
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "1", "-keyout", key.path,
            "-out", certificate.path, "-subj", "/CN=syncrun JWT test",
        ])
        return (key.path, try String(contentsOf: certificate, encoding: .utf8))
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try SyncrunProcess.spawn(process)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SyncrunProcess.LaunchError(
                description: "openssl \(arguments.first ?? "") failed; is openssl installed?"
            )
        }
    }
}

/// A clock a test moves by hand, for the local org's token expiry (`OrgDatabase.Configuration.now`).
///
/// `@unchecked Sendable` is sound: `offset` is only read or written while `lock` is held.
public final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    /// Creates a clock at the system time.
    public init() {}

    /// The current time: the system time plus every advance so far.
    public func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return Date().addingTimeInterval(offset)
    }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        offset += seconds
    }
}

/// The fake Salesforce CLI of `Tests/Fixtures/fake-sf` (a Python script printing the JSON shapes
/// real `sf` prints), and the environment that points it at a local org.
public struct FakeSalesforceCLI: Sendable {
    /// The script.
    public static var executable: URL { RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/fake-sf") }

    /// A directory where the script counts its calls and logs its arguments.
    public let stateDirectory: URL

    /// Creates the state directory under `directory`.
    public init(in directory: URL) throws {
        stateDirectory = directory.appendingPathComponent("fake-sf-state")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
    }

    /// The environment for `syncrun` (or the library) to run the fake as `sf` for alias `alias`.
    public func environment(
        mode: String = "current",
        alias: String = "dev",
        org: LocalOrgEndpoint,
        orgID: String,
        username: String = "admin@localorg.invalid",
        targetOrg: String? = nil
    ) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["SF_TARGET_ORG", "SFDX_AUTH_URL", "SF_ACCESS_TOKEN", "SSL_CERT_FILE"] {
            environment[name] = nil
        }
        environment["SYNCRUN_SF"] = Self.executable.path
        environment["FAKE_SF_MODE"] = mode
        environment["FAKE_SF_ALIAS"] = alias
        environment["FAKE_SF_USERNAME"] = username
        environment["FAKE_SF_INSTANCE_URL"] = org.baseURL.absoluteString
        environment["FAKE_SF_REFRESH_TOKEN"] = org.refreshToken
        environment["FAKE_SF_ORG_ID"] = orgID
        environment["FAKE_SF_STATE"] = stateDirectory.path
        environment["FAKE_SF_TARGET_ORG"] = targetOrg
        return environment
    }

    /// How many times the script answered `command` (`display`, `token`, `unknown`, `config`).
    public func calls(_ command: String) -> Int {
        let url = stateDirectory.appendingPathComponent("\(command).count")
        return (try? String(contentsOf: url, encoding: .utf8)).flatMap { Int($0) } ?? 0
    }
}
