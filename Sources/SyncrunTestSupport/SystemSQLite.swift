import Foundation

/// The system `sqlite3` shell, for tests that look at a store the way another program would (a
/// plain connection of its own, as an app's).
public enum SystemSQLite {
    /// Runs `sql` with `/usr/bin/sqlite3` on the database at `path` and returns its output lines.
    public static func lines(_ path: String, _ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
