import Foundation
import JSONCore
import OrgClient
import SyncEngine

/// Renders the engine's events: a progress bar on a terminal (text format), otherwise one JSON
/// object per line; then a final summary (object or line) over every step that ran.
struct SyncEventRenderer: Sendable {
    let asJSONLines: Bool

    init(format: OutputFormat) {
        asJSONLines = format == .json || !StandardStreams.isOutputTerminal
    }

    /// Consumes `events` until the stream finishes.
    func render(_ events: AsyncStream<SyncEvent>) async {
        var startedAt = Date()
        for await event in events {
            if asJSONLines {
                writeLine(SyncEventLine(event))
                continue
            }
            switch event {
            case .started(let start):
                startedAt = Date()
                let mode =
                    switch start.operation {
                    case .cleanGhosts: "cleaning ghosts"
                    case .syncUp: "sync up"
                    case .syncDown: start.isIncremental ? "resync" : "full sync"
                    }
                StandardStreams.write("\(JSONWriter.terminalSafe(start.syncName)) (\(start.targetKind), \(mode))\n")
            case .page(let page):
                StandardStreams.writeProgress(Self.bar(page, elapsed: Date().timeIntervalSince(startedAt)))
            case .batch(let batch):
                StandardStreams.writeProgress(Self.bar(batch, elapsed: Date().timeIntervalSince(startedAt)))
            case .warning(let syncName, let message):
                StandardStreams.write(
                    "\nwarning: \(JSONWriter.terminalSafe(syncName)): \(JSONWriter.terminalSafe(message))\n"
                )
            case .finished(let summary):
                StandardStreams.write("\n" + Self.line(summary) + "\n")
            }
        }
    }

    /// Writes the summary over all steps.
    func renderTotals(_ summaries: [SyncRunSummary], status: String) {
        let totals = SyncTotalsLine(summaries, status: status)
        if asJSONLines {
            writeLine(totals)
        } else {
            let up =
                summaries.contains { $0.operation == .syncUp }
                ? "\(totals.created) created, \(totals.updated) updated, \(totals.deleted) deleted, "
                    + "\(Count.of(totals.conflicts, "conflict")), \(totals.failed) failed on the org; " : ""
            StandardStreams.write(
                "\(status): \(Count.of(totals.syncs, "step")), " + up
                    + "\(totals.fetched) fetched, \(totals.saved) saved, "
                    + "\(totals.skippedLocallyChanged) skipped (local changes), "
                    + "\(Count.of(totals.deletedGhosts, "ghost")) deleted, \(Count.of(totals.pages, "page")), "
                    + "\(Count.of(totals.requests, "request")), \(Count.of(totals.retries, "retry", "retries")), "
                    + String(format: "%.2f s", Double(totals.durationMs) / 1000)
                    + (totals.apiUsage.map { ", " + $0.text } ?? "") + "\n"
            )
        }
    }

    private func writeLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(value) else { return }
        data.append(0x0A)
        StandardStreams.write(data)
    }

    static func bar(_ page: SyncPageProgress, elapsed: TimeInterval) -> String {
        bar(done: page.fetched, total: page.totalSize, elapsed: elapsed)
    }

    static func bar(_ batch: SyncUpBatchProgress, elapsed: TimeInterval) -> String {
        bar(done: batch.processed, total: batch.totalSize, elapsed: elapsed)
    }

    static func bar(done: Int, total: Int, elapsed: TimeInterval) -> String {
        let width = 30
        let scale = total > 0 ? total : max(done, 1)
        let filled = min(width, done * width / max(scale, 1))
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(done)/\(total > 0 ? String(total) : "?") records  "
            + String(format: "%.0f rec/s", rate)
    }

    static func line(_ summary: SyncRunSummary) -> String {
        var text = "\(JSONWriter.terminalSafe(summary.syncName)): \(summary.status.rawValue)"
        switch summary.operation {
        case .syncDown:
            text +=
                " - \(summary.fetched) fetched, \(summary.saved) saved, \(summary.unchanged) unchanged, "
                + "\(summary.skippedLocallyChanged) skipped (local changes), \(Count.of(summary.pages, "page"))"
        case .cleanGhosts:
            text +=
                " - \(Count.of(summary.deletedGhosts, "ghost")) deleted, \(Count.of(summary.pages, "id page"))"
        case .syncUp:
            text +=
                " - \(summary.created) created, \(summary.updated) updated, \(summary.deleted) deleted, "
                + "\(Count.of(summary.conflicts, "conflict")), \(summary.failed) failed, \(summary.skipped) skipped"
        }
        text += ", \(Count.of(summary.requests, "request")), \(Count.of(summary.retries, "retry", "retries"))"
        if let usage = summary.apiUsage { text += ", " + APIUsageLine(usage).text }
        if let error = summary.error { text += "\n  " + JSONWriter.terminalSafe("\(error)") }
        for issue in summary.issues { text += "\n  " + JSONWriter.terminalSafe("\(issue)") }
        return text
    }
}

/// One conflicted or failed sync up record, in JSON.
struct SyncUpIssueLine: Encodable {
    var entryId: Int64
    var recordId: String?
    var kind: String
    var errorCodes: [String]?
    var serverModified: String?
    var localModified: String?

    init(_ issue: SyncUpIssue) {
        entryId = issue.entryID
        recordId = issue.recordID
        switch issue.kind {
        case .conflict(let conflict):
            kind = "conflict"
            serverModified = conflict.serverModified
            localModified = conflict.localModified
        case .failed(let codes):
            kind = "failed"
            errorCodes = codes
        }
    }
}

/// One event as a JSON line.
struct SyncEventLine: Encodable {
    var event: String
    var sync: String
    var syncId: Int64?
    var operation: String?
    var target: String?
    var incremental: Bool?
    var page: Int?
    var fetched: Int?
    var saved: Int?
    var unchanged: Int?
    var skippedLocallyChanged: Int?
    var deletedGhosts: Int?
    var pages: Int?
    var requests: Int?
    var retries: Int?
    var durationMs: Int64?
    var totalSize: Int?
    var progress: Int?
    var maxTimeStamp: Int64?
    var status: String?
    var message: String?
    var error: String?
    var batch: Int?
    var processed: Int?
    var created: Int?
    var updated: Int?
    var deleted: Int?
    var conflicts: Int?
    var failed: Int?
    var skipped: Int?
    var issues: [SyncUpIssueLine]?
    var apiUsage: APIUsageLine?

    init(_ event: SyncEvent) {
        switch event {
        case .started(let start):
            self.init(event: "started", sync: start.syncName)
            syncId = start.syncID
            operation = start.operation.rawValue
            target = start.targetKind
            incremental = start.isIncremental
            maxTimeStamp = start.maxTimeStamp
        case .page(let progress):
            self.init(event: "page", sync: progress.syncName)
            page = progress.page
            fetched = progress.fetched
            saved = progress.saved
            skippedLocallyChanged = progress.skipped
            totalSize = progress.totalSize
            self.progress = progress.progress
        case .batch(let progress):
            self.init(event: "batch", sync: progress.syncName)
            batch = progress.batch
            processed = progress.processed
            totalSize = progress.totalSize
            created = progress.created
            updated = progress.updated
            deleted = progress.deleted
            conflicts = progress.conflicts
            failed = progress.failed
        case .warning(let syncName, let text):
            self.init(event: "warning", sync: syncName)
            message = text
        case .finished(let summary):
            self.init(event: "finished", sync: summary.syncName)
            syncId = summary.syncID
            operation = summary.operation.rawValue
            status = summary.status.rawValue
            fetched = summary.fetched
            saved = summary.saved
            unchanged = summary.operation == .syncDown ? summary.unchanged : nil
            skippedLocallyChanged = summary.skippedLocallyChanged
            deletedGhosts = summary.deletedGhosts
            pages = summary.pages
            requests = summary.requests
            retries = summary.retries
            durationMs = summary.durationMilliseconds
            maxTimeStamp = summary.maxTimeStamp
            error = summary.error
            apiUsage = summary.apiUsage.map(APIUsageLine.init)
            if summary.operation == .syncUp {
                (fetched, saved, unchanged, skippedLocallyChanged, deletedGhosts, pages, maxTimeStamp) = (
                    nil, nil, nil, nil, nil, nil, nil
                )
                created = summary.created
                updated = summary.updated
                deleted = summary.deleted
                conflicts = summary.conflicts
                failed = summary.failed
                skipped = summary.skipped
                issues = summary.issues.map(SyncUpIssueLine.init)
            }
        }
    }

    private init(event: String, sync: String) {
        self.event = event
        self.sync = sync
    }
}

/// The final summary object.
struct SyncTotalsLine: Encodable {
    var event = "summary"
    var status: String
    var syncs: Int
    var fetched: Int
    var saved: Int
    var skippedLocallyChanged: Int
    var deletedGhosts: Int
    var pages: Int
    var requests: Int
    var retries: Int
    var durationMs: Int64
    var created: Int
    var updated: Int
    var deleted: Int
    var conflicts: Int
    var failed: Int
    /// The org's API usage after the last step that saw a `Sforce-Limit-Info` header.
    var apiUsage: APIUsageLine?

    init(_ summaries: [SyncRunSummary], status: String) {
        self.status = status
        syncs = summaries.count
        fetched = summaries.reduce(0) { $0 + $1.fetched }
        saved = summaries.reduce(0) { $0 + $1.saved }
        skippedLocallyChanged = summaries.reduce(0) { $0 + $1.skippedLocallyChanged }
        deletedGhosts = summaries.reduce(0) { $0 + $1.deletedGhosts }
        pages = summaries.reduce(0) { $0 + $1.pages }
        requests = summaries.reduce(0) { $0 + $1.requests }
        retries = summaries.reduce(0) { $0 + $1.retries }
        durationMs = summaries.reduce(0) { $0 + $1.durationMilliseconds }
        created = summaries.reduce(0) { $0 + $1.created }
        updated = summaries.reduce(0) { $0 + $1.updated }
        deleted = summaries.reduce(0) { $0 + $1.deleted }
        conflicts = summaries.reduce(0) { $0 + $1.conflicts }
        failed = summaries.reduce(0) { $0 + $1.failed }
        apiUsage = summaries.last { $0.apiUsage != nil }?.apiUsage.map(APIUsageLine.init)
    }
}

/// The org's daily API usage (`Sforce-Limit-Info: api-usage=USED/MAX`), as printed.
struct APIUsageLine: Encodable {
    var used: Int
    var max: Int
    var remaining: Int

    init(_ usage: APIUsage) {
        used = usage.used
        max = usage.max
        remaining = usage.remaining
    }

    /// `API usage 12/15000 (14988 left)`.
    var text: String { "API usage \(used)/\(max) (\(remaining) left)" }
}
