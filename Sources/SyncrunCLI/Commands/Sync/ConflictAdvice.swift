import JSONCore
import SyncConfig
import SyncEngine

/// Conflicts said as conflicts (issue 31 item 5): how many, which records, and the commands that
/// resolve them, keeping the local version or taking the org's. Both routes use commands that
/// exist: the conflict check (`LEAVE_IF_CHANGED`) sends a local change only when its modification
/// date is not older than the org's, and a clean entry is overwritten by the next full sync down.
enum ConflictAdvice {
    /// How many records of `summaries` conflicted, and the lines that list them and their fixes;
    /// `nil` when none did.
    static func text(_ summaries: [SyncRunSummary], config: LoadedConfig) -> String? {
        let conflicted = summaries.filter { $0.conflicts > 0 }
        let total = conflicted.reduce(0) { $0 + $1.conflicts }
        guard total > 0 else { return nil }
        var lines = [
            "\(Count.of(total, "conflict")): changed on the org since the last sync down, so the local change was "
                + "not sent (mergeMode LEAVE_IF_CHANGED); left as it is on both sides"
        ]
        for summary in conflicted {
            guard let definition = config.userSyncs?.sync(named: summary.syncName) else { continue }
            let soup = JSONWriter.terminalSafe(definition.soupName)
            let field: String
            if case .up(let target) = definition.target {
                field = target.modificationDateFieldName
            } else {
                field = "LastModifiedDate"
            }
            for issue in summary.issues.prefix(10) {
                guard case .conflict(let conflict) = issue.kind else { continue }
                let id = issue.recordID.map(JSONWriter.terminalSafe)
                let record = id.map { "\($0) (entry \(issue.entryID))" } ?? "entry \(issue.entryID)"
                switch conflict.reason {
                case .deletedOnServer:
                    lines.append("  \(JSONWriter.terminalSafe(summary.syncName)): \(record) was deleted on the org")
                default:
                    let server = conflict.serverModified.map(JSONWriter.terminalSafe) ?? "?"
                    lines.append(
                        "  \(JSONWriter.terminalSafe(summary.syncName)): \(record) changed on the org at \(server)"
                    )
                    if let id {
                        lines.append(
                            "    keep the local version: syncrun store mark \(soup) --updated --where Id=\(id) "
                                + "--set \(JSONWriter.terminalSafe(field))=\(server), then syncrun run"
                        )
                    }
                }
                if let id {
                    lines.append(
                        "    take the org's version: echo '[{\"Id\":\"\(id)\"}]' | syncrun store import \(soup) - "
                            + "--external-id Id, then syncrun run --full"
                    )
                }
            }
            if summary.issues.count > 10 {
                lines.append(
                    "  … (--format json lists every record; 'syncrun store export \(soup) --format jsonl' shows each "
                        + "one's __last_error__)"
                )
            }
        }
        return lines.joined(separator: "\n")
    }
}
