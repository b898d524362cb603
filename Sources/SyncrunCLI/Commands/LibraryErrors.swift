import LocalOrg
import SoupStore

/// A library error that carries a message a person reads (what is wrong, where, what to do).
protocol MessageCarryingError: Error {
    var message: String { get }
}

extension SoupStoreError: MessageCarryingError {}
extension OrgError: MessageCarryingError {}

/// Turns a library's errors into CLI errors (exit status 1) with the library's message.
enum LibraryErrors {
    /// Runs `body`; an error of type `Failure` becomes a ``CLIError`` with its message.
    static func converting<Failure: MessageCarryingError, T>(_: Failure.Type, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as Failure {
            throw CLIError(error.message)
        }
    }
}
