import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// A clock tests can read and move, shared with the database's configuration.
final class TestClock: @unchecked Sendable {
    // Guarded by `lock`; @unchecked because NSLock makes the access safe across threads.
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}

/// Shared fixtures for the data-layer tests.
enum OrgFixtures {
    /// 2024-03-05T17:04:11.000Z, a Tuesday.
    static let fixedNow = Date(timeIntervalSince1970: 1_709_658_251)
    static let apiVersion = "59.0"

    /// Opens an org in a fresh directory under `directory` with a fixed clock.
    static func makeOrg(
        in directory: URL,
        schema: OrgSchema? = nil,
        clock: TestClock = TestClock(fixedNow)
    ) throws -> OrgDatabase {
        try OrgDatabase(
            directory: directory,
            schema: schema,
            configuration: OrgDatabase.Configuration(now: { clock.now })
        )
    }

    /// Milliseconds since 1970 of a date.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Decodes JSON bytes.
    static func json(_ data: Data) throws -> OrgJSONValue { try OrgJSONValue.decode(data) }

    /// The `Id`s of a JSON array of records.
    static func ids(_ records: Data) throws -> [String] {
        try #require(try json(records).arrayValue).compactMap { $0.objectValue?["Id"]?.stringValue }
    }

    /// The values of `field` in a JSON array of records.
    static func values(_ field: String, in records: Data) throws -> [OrgJSONValue] {
        try #require(try json(records).arrayValue).map { $0.objectValue?[field] ?? .null }
    }

    /// Runs `body` and returns the `OrgError` it throws.
    static func error(_ body: () throws -> some Any) throws -> OrgError {
        do {
            _ = try body()
        } catch let error as OrgError {
            return error
        }
        Issue.record("expected an OrgError")
        throw OrgError(status: 0, code: .init("NONE"), message: "no error")
    }
}
