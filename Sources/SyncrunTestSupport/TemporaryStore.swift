import Foundation
import SoupStore
import SyncLedger

/// A soup store in its own temporary directory, for one test.
///
/// ```swift
/// let temporary = try TemporaryStore(soups: [SoupSpec(name: "accounts", indexes: [IndexSpec(path: "Id", type: .string)])])
/// defer { temporary.remove() }
/// try temporary.store.write { try $0.upsert(#"{"Id":"001"}"#, into: "accounts", byExternalIDPath: "Id") }
/// ```
public struct TemporaryStore: Sendable {
    /// The directory holding the store file.
    public let directory: TemporaryDirectory
    /// The open store.
    public let store: SoupStore

    /// The store file's path.
    public var path: String { store.path }

    /// Creates a store file `store.db` in a fresh temporary directory and registers `soups`.
    public init(soups: [SoupSpec] = [], prefix: String = "syncrun-store") throws {
        directory = try TemporaryDirectory(prefix: prefix)
        store = try SoupStore.ledger(path: directory.url.appendingPathComponent("store.db").path)
        if !soups.isEmpty { try store.registerSoups(soups) }
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: directory.url)
    }

    /// Runs `body` with a fresh store holding `soups`, then deletes it.
    public static func with<T>(
        soups: [SoupSpec] = [],
        _ body: (SoupStore) async throws -> T
    ) async throws -> T {
        let temporary = try TemporaryStore(soups: soups)
        defer { temporary.remove() }
        return try await body(temporary.store)
    }
}
