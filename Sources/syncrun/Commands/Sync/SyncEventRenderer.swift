import Foundation
import SyncEngine

/// Renders the engine's events: a progress bar on a terminal (text format), otherwise one JSON
/// object per line; then a final summary (object or line) over every step that ran.
struct SyncEventRenderer: Sendable {
    let asJSONLines: Bool

    init(format: SyncOutputFormat) {
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
                let mode = start.operation == .cleanGhosts ? "cleaning ghosts" : start.isIncremental ? "resync" : "full sync"
                StandardStreams.write("\(start.syncName) (\(start.targetKind), \(mode))\n")
            case .page(let page):
                StandardStreams.write("\r" + Self.bar(page, elapsed: Date().timeIntervalSince(startedAt)))
            case .warning(let syncName, let message):
                StandardStreams.write("\nwarning: \(syncName): \(message)\n")
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
            StandardStreams.write(
                "\(status): \(totals.syncs) step(s), \(totals.fetched) fetched, \(totals.saved) saved, "
                    + "\(totals.skippedLocallyChanged) skipped (local changes), \(totals.deletedGhosts) ghost(s) deleted, "
                    + "\(totals.pages) page(s), \(totals.requests) request(s), \(totals.retries) retr\(totals.retries == 1 ? "y" : "ies"), "
                    + String(format: "%.2f s", Double(totals.durationMs) / 1000) + "\n")
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
        let width = 30
        let total = page.totalSize > 0 ? page.totalSize : max(page.fetched, 1)
        let filled = min(width, page.fetched * width / max(total, 1))
        let rate = elapsed > 0 ? Double(page.fetched) / elapsed : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(page.fetched)/\(page.totalSize > 0 ? String(page.totalSize) : "?") records  "
            + String(format: "%.0f rec/s", rate)
    }

    static func line(_ summary: SyncRunSummary) -> String {
        var text = "\(summary.syncName): \(summary.status.rawValue)"
        switch summary.operation {
        case .syncDown:
            text += " - \(summary.fetched) fetched, \(summary.saved) saved, \(summary.skippedLocallyChanged) skipped "
                + "(local changes), \(summary.pages) page(s)"
        case .cleanGhosts:
            text += " - \(summary.deletedGhosts) ghost(s) deleted, \(summary.pages) id page(s)"
        }
        text += ", \(summary.requests) request(s), \(summary.retries) retr\(summary.retries == 1 ? "y" : "ies")"
        if let error = summary.error { text += "\n  \(error)" }
        return text
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
            skippedLocallyChanged = summary.skippedLocallyChanged
            deletedGhosts = summary.deletedGhosts
            pages = summary.pages
            requests = summary.requests
            retries = summary.retries
            durationMs = summary.durationMilliseconds
            maxTimeStamp = summary.maxTimeStamp
            error = summary.error
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
    }
}
