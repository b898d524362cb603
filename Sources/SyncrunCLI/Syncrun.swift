import ArgumentParser
import Foundation
import SyncEngine

/// The `syncrun` command tree as a library: the stock executable is `Syncrun.main()`, and a
/// user's own executable links this library and registers its custom targets (plug-ins written
/// in Swift, see `SyncEngine`'s `SyncDownTargetPlugin` and `SyncUpTargetPlugin`) before running
/// the same commands.
///
/// ```swift
/// import SyncEngine
/// import SyncrunCLI
///
/// var targets = CustomTargets()
/// targets.registerSyncUp(["MyCasesUpTarget", "com.example.MyCasesUpTarget"]) { _ in MyCasesUpTarget() }
/// await Syncrun.main(targets: targets)
/// ```
public enum Syncrun {
    /// Parses `arguments` (the process's own when `nil`), runs the chosen command with `targets`
    /// registered (configs may name them in `iOSImpl` / `androidImpl`), and exits.
    ///
    /// The exit status follows ``ExitStatus``'s one contract: usage errors exit 2 (not
    /// ArgumentParser's default 64); ``CLIError``s print their message and exit with their own status.
    public static func main(arguments: [String]? = nil, targets: CustomTargets = CustomTargets()) async -> Never {
        let status = await InstalledPlugins.$targets.withValue(targets) {
            await run(arguments: arguments)
        }
        exit(status)
    }

    /// Runs the command and returns its exit status (ArgumentParser's own exits, such as
    /// `--help`, exit from here).
    private static func run(arguments: [String]?) async -> Int32 {
        // Every file syncrun creates (stores, org data, exports, id maps, reports, logs) is private
        // to its owner whatever the caller's umask: files 0600, folders 0700 (SECURITY.md).
        umask(0o077)
        do {
            let (remaining, level) = try CLILogging.extractLevel(
                from: arguments ?? Array(CommandLine.arguments.dropFirst())
            )
            CLILogging.bootstrap(level: level)
            var command = try SyncrunCommand.parseAsRoot(remaining)
            if let asyncCommand = command as? any AsyncParsableCommand {
                try await runAsyncCommand(asyncCommand)
            } else {
                try command.run()
            }
            return ExitStatus.success.rawValue
        } catch {
            // The one place a command's outcome becomes the process status (``ExitStatus``).
            let status = ExitStatus.of(error)
            switch error {
            case let error as CLIError:
                StandardStreams.writeError("error: \(error.message)\n")
            case is ExitCode:
                break  // the command printed its own report of the problems
            default:
                guard status == .usage else { SyncrunCommand.exit(withError: error) }
                StandardStreams.writeError(SyncrunCommand.fullMessage(for: error) + "\n")
            }
            return status.rawValue
        }
    }

    /// Runs an async command through its `async` `run()`.
    ///
    /// Calling `run()` on an `AsyncParsableCommand` existential resolves to the synchronous
    /// `ParsableCommand.run()` requirement, whose default prints the help text; opening the
    /// existential in a generic function selects the async overload.
    private static func runAsyncCommand<Command: AsyncParsableCommand>(_ command: Command) async throws {
        var command = command
        try await command.run()
    }
}
