import ArgumentParser
import Foundation

// Parses the command line and runs the chosen command. Usage errors exit with status 2 (the
// documented contract), not ArgumentParser's default 64; `CLIError`s print their message and exit
// with their own status.
do {
    var command = try SyncrunCommand.parseAsRoot()
    if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
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
