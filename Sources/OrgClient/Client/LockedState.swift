import Foundation

/// A value behind a lock, for state the client's concurrent requests share (counters, the
/// current token). `Mutex` would do, but it needs macOS 15 and the package supports macOS 14.
final class LockedState<Value: Sendable>: @unchecked Sendable {
    // Safe: `value` is only read or written while `lock` is held, in `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
