import Foundation

/// File-system preparation of a store file: private permissions, and refusal of files that are
/// not plain SQLite before SQLite gets a chance to misreport them.
enum StoreFile {
    /// The 16 bytes every plain SQLite file starts with.
    private static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    /// Creates `path` (mode 0600) and its parent directories (mode 0700) when missing; checks an
    /// existing non-empty file starts with the SQLite header.
    static func prepare(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        let manager = FileManager.default
        let directory = url.deletingLastPathComponent().path
        if !manager.fileExists(atPath: directory) {
            do {
                try manager.createDirectory(
                    atPath: directory,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw SoupStoreError.io(
                    "cannot create the store's directory: \(error.localizedDescription)",
                    path: path
                )
            }
        }
        if manager.fileExists(atPath: path) {
            try checkHeader(path)
            return
        }
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return try checkHeader(path) }
            throw SoupStoreError.io("cannot create the store file: \(String(cString: strerror(errno)))", path: path)
        }
        // The umask may have removed bits but never adds any; set the mode explicitly anyway.
        fchmod(descriptor, 0o600)
        close(descriptor)
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
