import ArgumentParser
import Migration
import OrgAccess
import OrgClient
import SoupStore
import SyncEngine
import SyncrunSession

/// The one exit-status contract of every `syncrun` command, and the one function that applies it
/// (``code(for:)``): commands throw, they never pick a number.
///
/// - 0 success (warnings allowed);
/// - 1 a failure: a config error, a check that found problems, a step that failed or left records
///   failed or conflicted;
/// - 2 a usage error or a refusal before anything ran: bad flags, an org that cannot be resolved, a
///   store bound to another org, a migration refused for safety.
enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2

    /// The contract in words: the root command's `--help` prints exactly this, and README's
    /// "Exit status" table says the same in the same words (`ExitCodeContractTests` holds both).
    static let contract: [(status: ExitStatus, meaning: String)] = [
        (.success, "success (warnings allowed)"),
        (
            .failure,
            "a failure: a config error, a check that found problems (validate, org check, org diff), "
                + "a step that failed or stopped, or left records failed or conflicted"
        ),
        (
            .usage,
            "a usage error or a refusal before anything ran: bad flags or arguments, an unknown name, "
                + "an org that cannot be resolved, a store bound to another org, a sync whose stored definition "
                + "differs from the config (without --replace), a migration refused for safety"
        ),
    ]

    /// The contract as the lines of `syncrun --help`'s discussion.
    /// Every command builds it (the root command's configuration), so it is appended line by line:
    /// `joined(separator:)` cost a start-up its generic path's runtime checks (0.2 ms).
    static var helpText: String {
        var text = "Exit status (every command):"
        for entry in contract { text += "\n  \(entry.status.rawValue)  \(entry.meaning)" }
        return text
    }

    /// The status a command that ended by throwing `error` exits with: the one place the contract
    /// is applied. A ``CLIError`` carries the status its thrower chose from this contract; library
    /// errors are classified here (a refusal before anything ran is a usage error, the rest
    /// failures); ArgumentParser's parse and validation errors are usage errors, `--help` and
    /// `--version` success.
    static func of(_ error: any Error) -> ExitStatus {
        switch error {
        case let error as CLIError:
            return error.status
        case let error as ExitCode:
            return ExitStatus(rawValue: error.rawValue) ?? .failure
        case let error as OrgAccessError:
            return error.code == .unresolvable ? .usage : .failure
        case let error as OrgClientError:
            // A definition the client refuses before any request is a usage error; a server that
            // cannot be reached or a certificate that is not trusted is a failure.
            return error.code == .invalidConfiguration ? .usage : .failure
        case let error as SyncSessionError:
            return error.kind == .refused ? .usage : .failure
        case let error as MigrationError:
            return error.kind == .refused ? .usage : .failure
        case let error as SyncEngineError:
            let refusals: [SyncEngineError.Code] = [
                .unknownSync, .wrongType, .notSupported, .invalidTarget, .definitionChanged, .ghostCleaningRefused,
            ]
            return refusals.contains(error.code) ? .usage : .failure
        case is SoupStoreError:
            return .failure
        default:
            switch SyncrunCommand.exitCode(for: error) {
            case .success: return .success
            case .validationFailure: return .usage
            default: return .failure
            }
        }
    }

    /// `ExitCode(self)`: for a command that has printed its own report of the problems.
    var exitCode: ExitCode { ExitCode(rawValue) }
}
