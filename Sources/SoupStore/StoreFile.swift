import FileSchema
import Foundation
import Logging

/// File-system preparation of a store file: private permissions, and refusal of files that are
/// not plain SQLite before SQLite gets a chance to misreport them.
enum StoreFile {
    /// The 16 bytes every plain SQLite file starts with.
    private static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    /// Creates `path` (mode 0600) and its parent directories (mode 0700) when missing; checks an
    /// existing non-empty file starts with the SQLite header, and makes it private (0600) when
    /// others or its group could read or write it, with a notice in `logger`.
    /// - Returns: The files made private.
    @discardableResult
    static func prepare(_ path: String, logger: Logger? = nil) throws -> [String] {
        do {
            if try PrivateFiles.createFile(atPath: path) { return [] }
        } catch let failure as PrivateFiles.Failure {
            throw SoupStoreError.io(failure.reason, path: failure.path)
        }
        try checkHeader(path)
        return try tighten(path, logger: logger)
    }

    /// Removes the group's and others' bits from an existing store file (and its `-wal`/`-shm`).
    private static func tighten(_ path: String, logger: Logger?) throws -> [String] {
        var tightened: [String] = []
        for file in [path, path + "-wal", path + "-shm"] {
            let mode: mode_t?
            do {
                mode = try PrivateFiles.tighten(file)
            } catch let failure as PrivateFiles.Failure {
                throw SoupStoreError.io(failure.reason, path: failure.path)
            }
            guard let mode else { continue }
            tightened.append(file)
            logger?.notice(
                "made the store file private: it was readable by other users",
                metadata: ["path": "\(file)", "was": "\(String(mode, radix: 8))"]
            )
        }
        return tightened
    }

    private static func checkHeader(_ path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SoupStoreError.io("cannot read the store file; check its permissions", path: path)
        }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: sqliteHeader.count)) ?? Data()
        if prefix.isEmpty { return }
        guard Array(prefix) == sqliteHeader else { throw SoupStoreError.encryptedStore(path) }
    }
}
