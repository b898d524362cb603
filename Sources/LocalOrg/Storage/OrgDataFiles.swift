import Foundation

/// File-system preparation of a local org's data directory: the org holds records and its users'
/// data, so a new directory is private to its owner (0700) and the database is created 0600, as
/// the store is. SQLite gives the `-wal` and `-shm` files the database file's mode.
enum OrgDataFiles {
    /// Creates `directory` (0700) when missing and `directory/name` (0600) when missing.
    static func prepare(directory: URL, databaseName: String) throws {
        let manager = FileManager.default
        if !manager.fileExists(atPath: directory.path) {
            try manager.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
        let path = directory.appendingPathComponent(databaseName).path
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return }
            throw OrgError.invalidInput(
                "cannot create the local org database '\(path)': \(String(cString: strerror(errno)))"
            )
        }
        // The umask may have removed bits but never adds any; set the mode explicitly anyway.
        fchmod(descriptor, 0o600)
        close(descriptor)
    }
}
