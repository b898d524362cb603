import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement driven through SQLite's C API, for loops that run it once per record:
/// values are bound straight from byte buffers (no `String`, no `DatabaseValue` per value).
///
/// Text bound with ``bind(_:text:count:)`` is not copied: the bytes must stay valid until the
/// next ``step()`` and ``reset()``.
struct RawStatement {
    /// Keeps the `sqlite3_stmt` alive (GRDB finalizes it).
    private let statement: Statement
    private let db: Database
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
    }

    @inline(__always) func bind(_ index: Int32, text pointer: UnsafePointer<UInt8>, count: Int) {
        pointer.withMemoryRebound(to: CChar.self, capacity: count) { characters in
            _ = sqlite3_bind_text(handle, index, characters, Int32(count), nil)
        }
    }

    @inline(__always) func bind(_ index: Int32, text: StaticString) {
        bind(index, text: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @inline(__always) func bind(_ index: Int32, integer: Int64) {
        _ = sqlite3_bind_int64(handle, index, integer)
    }

    @inline(__always) func bind(_ index: Int32, real: Double) {
        _ = sqlite3_bind_double(handle, index, real)
    }

    @inline(__always) func bindNull(_ index: Int32) {
        _ = sqlite3_bind_null(handle, index)
    }

    /// Binds a string (copied by SQLite).
    func bind(_ index: Int32, string: String) {
        _ = sqlite3_bind_text(handle, index, string, -1, Self.transient)
    }

    /// Runs one step; `true` when a row is available.
    ///
    /// - Throws: `DatabaseError`.
    @discardableResult
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
            sqlite3_reset(handle)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: message,
                sql: String(cString: sqlite3_sql(handle))
            )
        }
    }

    /// Runs the statement to its end and resets it.
    func run() throws {
        defer { reset() }
        while try step() {}
    }

    func reset() {
        sqlite3_reset(handle)
    }

    func int64(column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func isNull(column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The storage class of a result column (`SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`…).
    func type(column: Int32) -> Int32 { sqlite3_column_type(handle, column) }

    func double(column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// Whether a TEXT result column holds exactly `count` bytes equal to `pointer`'s.
    func textEquals(column: Int32, _ pointer: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT else { return false }
        guard let text = sqlite3_column_text(handle, column) else { return count == 0 }
        let length = Int(sqlite3_column_bytes(handle, column))
        return length == count && memcmp(text, pointer, count) == 0
    }

    /// The bytes of a TEXT result column, valid until the statement steps or resets; `nil` for
    /// another storage class.
    func text(column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT, let text = sqlite3_column_text(handle, column) else {
            return nil
        }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
