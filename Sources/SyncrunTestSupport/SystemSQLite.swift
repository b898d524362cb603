import Foundation

/// The system `sqlite3` shell, for tests that look at a store the way another program would (a
/// plain connection of its own, as an app's).
public enum SystemSQLite {
    /// Runs `sql` with `/usr/bin/sqlite3` on the database at `path` and returns its output lines.
    ///
    /// - Throws: ``Failure`` when the shell exits with an error (its message included).
    public static func lines(_ path: String, _ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try SyncrunProcess.spawn(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(sql: sql, message: String(decoding: message, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The shell refused a statement.
    public struct Failure: Error, CustomStringConvertible {
        public var sql: String
        public var message: String
        public var description: String { "sqlite3 failed on '\(sql)': \(message)" }
    }
}
