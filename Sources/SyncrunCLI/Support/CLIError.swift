/// An error the CLI reports as one line on standard error, followed by an exit status.
///
/// Library errors are converted to this at the command layer; the message already says what is
/// wrong, where, and what to do. The status is one of ``ExitStatus``'s contract.
struct CLIError: Error, CustomStringConvertible {
    /// The human-readable message, without the leading `error: `.
    var message: String
    /// The exit status (``ExitStatus``).
    var status: ExitStatus

    /// A failure (exit status 1): a config error, a failed step, a check that found problems.
    init(_ message: String, status: ExitStatus = .failure) {
        self.message = message
        self.status = status
    }

    /// A library error as a CLI error with the status ``ExitStatus/of(_:)`` gives it.
    init(_ message: String, classifying error: any Error) {
        self.init(message, status: ExitStatus.of(error))
    }

    /// A usage error or a refusal before anything ran (exit status 2).
    static func usage(_ message: String) -> CLIError {
        CLIError(message, status: .usage)
    }

    var description: String { message }
}
