/// An error the CLI reports as one line on standard error, followed by an exit status.
///
/// Library errors are converted to this at the command layer; the message already says what is
/// wrong, where, and what to do.
struct CLIError: Error, CustomStringConvertible {
    /// Exit status for a failure (config errors, failed syncs).
    static let failureExitCode: Int32 = 1
    /// Exit status for usage errors (bad flags, missing files named on the command line).
    static let usageExitCode: Int32 = 2

    /// The human-readable message, without the leading `error: `.
    var message: String
    /// The process exit status.
    var exitCode: Int32

    init(_ message: String, exitCode: Int32 = CLIError.failureExitCode) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A usage error (exit status 2).
    static func usage(_ message: String) -> CLIError {
        CLIError(message, exitCode: usageExitCode)
    }

    var description: String { message }
}
