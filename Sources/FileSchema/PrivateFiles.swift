import Foundation

/// Files and folders syncrun creates are private to their owner: files 0600, folders 0700,
/// whatever the umask.
public enum PrivateFiles {
    /// A file-system failure, with the path and the system's reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The file or folder.
        public var path: String
        /// What failed, and why.
        public var reason: String

        public var description: String { "'\(path)': \(reason)" }
    }

    /// Creates `path` and its missing parents with mode 0700 (an existing folder is left as it is).
    public static func createDirectory(atPath path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw Failure(path: path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
    }

    /// Creates the empty file `path` with mode 0600 (its folder 0700 when missing); returns false
    /// when it already existed (left as it is).
    @discardableResult
    public static func createFile(atPath path: String) throws -> Bool {
        try createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw Failure(path: path, reason: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        // The umask may have removed bits but never adds any; set the mode explicitly anyway.
        fchmod(descriptor, 0o600)
        close(descriptor)
        return true
    }

    /// Removes the group's and others' permission bits from `path` when it has any; returns the
    /// mode it had then (`nil` when it was private already or does not exist).
    @discardableResult
    public static func tighten(_ path: String) throws -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 != 0 else { return nil }
        guard chmod(path, mode & 0o700) == 0 else {
            throw Failure(
                path: path,
                reason: "it is readable by other users (mode \(String(mode, radix: 8))) and cannot be made "
                    + "private: \(String(cString: strerror(errno))); run chmod 600 on it"
            )
        }
        return mode
    }
}
