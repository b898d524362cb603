import JSONCore
import LiveSync

/// Prints a watch's events: a line each on a terminal, one JSON object per line otherwise (as
/// `run` prints its events: an `event` key naming the kind).
struct WatchRenderer: Sendable {
    let asJSONLines: Bool

    func render(_ event: WatchEvent) {
        if asJSONLines {
            StandardStreams.write(Self.json(event).jsonText() + "\n")
            return
        }
        switch event {
        case .started(let starts):
            for start in starts {
                let how =
                    switch start.mode {
                    case .cdc:
                        "change events of \(start.topic), "
                            + (start.resumesAfter.map { "resuming after replay id \($0)" }
                                ?? "from the newest event after a resync")
                    case .poll: start.reason ?? "resynced on an interval"
                    }
                StandardStreams.write(
                    "watching \(JSONWriter.terminalSafe(start.syncName)) (\(start.mode.rawValue)): \(how)\n"
                )
            }
        case .batch(let batch):
            var line =
                "\(JSONWriter.terminalSafe(batch.syncName)): \(Count.of(batch.events, "event")), "
                + "\(batch.written) written, \(batch.removed) removed"
            if batch.skippedLocallyChanged > 0 { line += ", \(batch.skippedLocallyChanged) left (local changes)" }
            StandardStreams.write(line + ", latency \(batch.latencyMilliseconds) ms\n")
        case .resynced(let syncName, let reason, let fetched, let saved, let deletedGhosts, let status):
            StandardStreams.write(
                "\(JSONWriter.terminalSafe(syncName)): resync (\(reason)): \(fetched) fetched, \(saved) saved, "
                    + "\(deletedGhosts) ghosts deleted, \(status)\n"
            )
        case .syncedUp(let syncName, let status, let sent):
            StandardStreams.write("\(JSONWriter.terminalSafe(syncName)): sync up: \(sent) sent, \(status)\n")
        case .warning(let syncName, let message):
            StandardStreams.writeError(
                "warning: " + (syncName.map { JSONWriter.terminalSafe($0) + ": " } ?? "")
                    + JSONWriter.terminalSafe(message) + "\n"
            )
        case .stopped:
            StandardStreams.write("stopped\n")
        }
    }

    static func json(_ event: WatchEvent) -> JSONValue {
        switch event {
        case .started(let starts):
            return .object([
                "event": .string("watchStarted"),
                "syncs": .array(
                    starts.map { start in
                        var members: JSONObject = [
                            "sync": .string(start.syncName), "syncId": .integer(start.syncID),
                            "mode": .string(start.mode.rawValue), "topic": .string(start.topic),
                        ]
                        if let reason = start.reason { members["reason"] = .string(reason) }
                        if let after = start.resumesAfter { members["resumesAfter"] = .string(after) }
                        return .object(members)
                    }
                ),
            ])
        case .batch(let batch):
            return .object([
                "event": .string("watchBatch"), "sync": .string(batch.syncName),
                "events": .integer(Int64(batch.events)),
                "recordIds": .integer(Int64(batch.recordIDs)), "written": .integer(Int64(batch.written)),
                "removed": .integer(Int64(batch.removed)),
                "skippedLocallyChanged": .integer(Int64(batch.skippedLocallyChanged)),
                "latencyMs": .integer(batch.latencyMilliseconds), "committedAt": .integer(batch.committedAt),
                "replayId": .string(batch.replayID),
            ])
        case .resynced(let syncName, let reason, let fetched, let saved, let deletedGhosts, let status):
            return .object([
                "event": .string("watchResync"), "sync": .string(syncName), "reason": .string(reason),
                "fetched": .integer(Int64(fetched)), "saved": .integer(Int64(saved)),
                "deletedGhosts": .integer(Int64(deletedGhosts)), "status": .string(status),
            ])
        case .syncedUp(let syncName, let status, let sent):
            return .object([
                "event": .string("watchSyncUp"), "sync": .string(syncName), "status": .string(status),
                "sent": .integer(Int64(sent)),
            ])
        case .warning(let syncName, let message):
            var members: JSONObject = ["event": .string("warning"), "message": .string(message)]
            if let syncName { members["sync"] = .string(syncName) }
            return .object(members)
        case .stopped:
            return .object(["event": .string("watchStopped")])
        }
    }
}
