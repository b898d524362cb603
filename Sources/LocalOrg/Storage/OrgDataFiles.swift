import FileSchema
import Foundation

/// File-system preparation of a local org's data directory: the org holds records and its users'
/// data, so a new directory is private to its owner (0700) and the database is created 0600, as
/// the store is. SQLite gives the `-wal` and `-shm` files the database file's mode.
enum OrgDataFiles {
    /// Creates `directory` (0700) when missing and `directory/name` (0600) when missing; returns
    /// whether the database file was created.
    @discardableResult
    static func prepare(directory: URL, databaseName: String) throws -> Bool {
        do {
            return try PrivateFiles.createFile(atPath: directory.appendingPathComponent(databaseName).path)
        } catch let failure as PrivateFiles.Failure {
            throw OrgError.invalidInput("cannot create the local org database: \(failure)")
        }
    }
}
