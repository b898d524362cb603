import ArgumentParser
import Foundation

// Parses the command line and runs the chosen command. Usage errors exit with status 2 (the
// documented contract), not ArgumentParser's default 64; `CLIError`s print their message and exit
// with their own status.

/// Runs an async command through its `async` `run()`.
///
/// Calling `run()` on an `AsyncParsableCommand` existential resolves to the synchronous
/// `ParsableCommand.run()` requirement, whose default prints the help text; opening the existential
/// in a generic function selects the async overload.
func runAsyncCommand<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}

do {
    var command = try SyncrunCommand.parseAsRoot()
    if let asyncCommand = command as? any AsyncParsableCommand {
        try await runAsyncCommand(asyncCommand)
    } else {
        try command.run()
    }
} catch let error as CLIError {
    StandardStreams.writeError("error: \(error.message)\n")
    exit(error.exitCode)
} catch {
    let code = SyncrunCommand.exitCode(for: error)
    if code == .validationFailure {
        StandardStreams.writeError(SyncrunCommand.fullMessage(for: error) + "\n")
        exit(CLIError.usageExitCode)
    }
    SyncrunCommand.exit(withError: error)
}
