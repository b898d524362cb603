import OrgClient
import SoupStore
import SyncConfig
import SyncLedger

// Every message of the module, in one place.
extension SyncEngineError {
    static func unknownSync(_ name: String) -> SyncEngineError {
        SyncEngineError(
            code: .unknownSync,
            message: "no sync named '\(name)' in the syncs config; check the name with 'syncrun validate'",
            syncName: name
        )
    }

    static func unknownSync(id: Int64) -> SyncEngineError {
        SyncEngineError(
            code: .unknownSync,
            message: "no sync with id \(id) in the store; 'syncrun status' lists the syncs and their ids"
        )
    }

    static func notInConfig(id: Int64, name: String?) -> SyncEngineError {
        SyncEngineError(
            code: .unknownSync,
            message: "sync \(id)\(name.map { " ('\($0)')" } ?? "") is in the store but not in the syncs config; "
                + "add its definition to the config to run it",
            syncName: name
        )
    }

    static func wrongType(_ name: String, expected: String) -> SyncEngineError {
        SyncEngineError(
            code: .wrongType,
            message: "sync '\(name)' is not a \(expected); only sync down definitions can be run by this command",
            syncName: name
        )
    }

    static func notSupported(_ name: String, kind: String) -> SyncEngineError {
        SyncEngineError(
            code: .notSupported,
            message: "sync '\(name)': the '\(kind)' target is not supported yet by syncrun; "
                + "supported sync down targets: soql, sosl, mru, refresh, parent_children, briefcase, metadata, "
                + "layout, endpoint",
            syncName: name
        )
    }

    static func briefcaseRuleErrors(_ name: String, ruleIDs: [String]) -> SyncEngineError {
        SyncEngineError(
            code: .server,
            message: "sync '\(name)': the org could not process briefcase rule(s) "
                + ruleIDs.map { "'\($0)'" }.joined(separator: ", ")
                + ", so their records are missing from its answer; nothing was deleted and the watermark was not "
                + "advanced; fix the rules in the briefcase (Briefcase Builder) and run the sync again",
            syncName: name
        )
    }

    static func invalidQuery(_ name: String, _ problem: String) -> SyncEngineError {
        SyncEngineError(
            code: .invalidTarget,
            message: "sync '\(name)': the target's query cannot be used: \(problem)",
            syncName: name
        )
    }

    static func invalidTarget(_ name: String, _ problem: String) -> SyncEngineError {
        SyncEngineError(code: .invalidTarget, message: "sync '\(name)': \(problem)", syncName: name)
    }

    static func definitionChanged(_ name: String, keys: [String]) -> SyncEngineError {
        SyncEngineError(
            code: .definitionChanged,
            message: "sync '\(name)' is stored with a different definition than the config ("
                + keys.map { "'\($0)'" }.joined(separator: ", ")
                + " differ); run with --replace to recreate it from the config (this resets its watermark)",
            syncName: name
        )
    }

    static func alreadyRunning(_ name: String, lock: SyncLock) -> SyncEngineError {
        SyncEngineError(
            code: .alreadyRunning,
            message: "sync '\(name)' is already running (\(lock.operation), process \(lock.processID) on "
                + "'\(lock.hostName)'); wait for it to finish or stop that process",
            syncName: name
        )
    }

    static func ghostsWithLimit(_ name: String) -> SyncEngineError {
        SyncEngineError(
            code: .ghostCleaningRefused,
            message: "sync '\(name)': cannot clean ghosts of a query with LIMIT or OFFSET, because the ids it "
                + "returns now need not be the rows it fetched; remove LIMIT/OFFSET from the query to clean ghosts",
            syncName: name
        )
    }

    static func stopped(_ name: String) -> SyncEngineError {
        SyncEngineError(
            code: .stopped,
            message: "sync '\(name)' was stopped between pages; run it again to continue",
            syncName: name
        )
    }

    static func server(_ name: String, _ error: any Error & Sendable) -> SyncEngineError {
        let detail = (error as? OrgClientError).map(\.message) ?? "\(error)"
        return SyncEngineError(
            code: .server,
            message: "sync '\(name)': the org refused or failed a request: \(detail)",
            syncName: name,
            underlying: error
        )
    }

    static func store(_ name: String?, _ error: any Error & Sendable) -> SyncEngineError {
        let detail = (error as? SoupStoreError).map(\.message) ?? "\(error)"
        return SyncEngineError(
            code: .store,
            message: "\(name.map { "sync '\($0)': " } ?? "")the store failed: \(detail)",
            syncName: name,
            underlying: error
        )
    }

    /// Wraps any error as the module's error, keeping ours as they are.
    static func bulkJobFailed(_ name: String, jobID: String, state: String, message: String?) -> SyncEngineError {
        SyncEngineError(
            code: .server,
            message: "sync '\(name)': the Bulk API 2.0 query job \(jobID) ended \(state)"
                + (message.map { ": \($0)" } ?? "")
                + "; fix the cause and run again (set \"api\": \"rest\" on the target to avoid Bulk)",
            syncName: name
        )
    }

    /// A Bulk API 2.0 job that did not end within ``BulkJobPolling/deadline``.
    static func bulkJobDeadline(
        _ name: String,
        jobID: String,
        kind: String,
        state: String,
        deadline: Duration
    ) -> SyncEngineError {
        let seconds = deadline.components.seconds
        let within = seconds >= 1 ? "\(seconds) s" : "\(deadline)"
        return SyncEngineError(
            code: .server,
            message: "sync '\(name)': the Bulk API 2.0 \(kind) job \(jobID) did not end within \(within) "
                + "(its last state: \(state)); it may still be running on the org: look it up in Setup > Bulk Data "
                + "Load Jobs and abort it there if it is stuck, then run again; to wait longer raise "
                + "SyncEngineConfiguration.bulkJobPolling.deadline, or set \"api\": \"rest\" on the target to avoid Bulk",
            syncName: name
        )
    }

    static func bulkMissingColumn(_ name: String, column: String) -> SyncEngineError {
        SyncEngineError(
            code: .server,
            message: "sync '\(name)': the Bulk query results have no '\(column)' column; "
                + "run the sync with \"api\": \"rest\"",
            syncName: name
        )
    }

    static func bulkColumn(_ column: String, object: String) -> SyncEngineError {
        SyncEngineError(
            code: .server,
            message: "the Bulk results column '\(column)' names no relationship of '\(object)' in its describe; "
                + "run the sync with \"api\": \"rest\""
        )
    }

    static func wrapping(_ error: any Error, syncName: String?) -> SyncEngineError {
        switch error {
        case let error as SyncEngineError: return error
        case let error as OrgClientError: return .server(syncName ?? "?", error)
        case let error as SoupStoreError: return .store(syncName, error)
        case is CancellationError: return .stopped(syncName ?? "?")
        default:
            return SyncEngineError(
                code: .store,
                message: "\(syncName.map { "sync '\($0)': " } ?? "")\(error)",
                syncName: syncName
            )
        }
    }
}

extension SyncEngineError {
    /// A config names a custom target class that this executable has no plug-in for.
    static func missingPlugin(_ name: String, implName: String, direction: SyncType, other: Bool) -> SyncEngineError {
        let wanted = direction == .syncDown ? "sync down" : "sync up"
        let message =
            other
            ? "sync '\(name)': '\(implName)' is registered as a \(direction == .syncDown ? "sync up" : "sync down") "
                + "plug-in, but this sync is '\(direction.rawValue)'; register a \(wanted) plug-in under this name"
            : "sync '\(name)': no \(wanted) plug-in is registered for the custom target class '\(implName)' in this "
                + "executable; the stock 'syncrun' has none: run an executable that links the SyncrunCLI library and "
                + "registers '\(implName)' (README, \"Custom targets in Swift\")"
        return SyncEngineError(code: .notSupported, message: message, syncName: name)
    }
}
