import Foundation

/// A value shared between concurrent requests, guarded by a lock.
///
/// `@unchecked Sendable` is sound here: `value` is only read or written inside `withLock`, which
/// holds `lock` for the whole access, so no two threads touch it at once.
final class ProtectedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
