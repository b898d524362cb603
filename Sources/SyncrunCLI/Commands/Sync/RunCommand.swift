import ArgumentParser
import Foundation
import OrgClient
import SyncConfig
import SyncEngine
import SyncPlan

/// `syncrun run`: registers the soups, creates the syncs and runs the whole plan step by step.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the whole plan: sync ups, then sync downs, resyncs and ghost cleaning, in dependency order.",
        discussion: """
            Registers the soups of the store config, creates the syncs of the syncs config, then runs the \
            plan ('syncrun plan' shows it). A step whose dependency did not end DONE is skipped; independent \
            steps still run. SIGINT / SIGTERM stop the current step between pages or batches (STOPPED); \
            'syncrun run --resume' continues with what the run did not finish. --dry-run does every read \
            (queries, dirty-record scan, conflict checks) and prints what would change on each side, writing \
            nothing. Output: progress on a terminal, JSON lines otherwise (or with --format json), then a \
            summary per step. Exit status: 0 only when every step ended DONE with no failed or conflicted \
            record; 1 otherwise (config errors too); 2 for usage errors and refusals (nothing runs).
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var org: OrgOptions
    @OptionGroup var requests: RequestOptions
    @Option(
        name: .customLong("only"),
        help: ArgumentHelp("Run only this sync and what it depends on (repeatable).", valueName: "name")
    )
    var only: [String] = []
    @Flag(help: "Continue the latest run: run only the steps it did not finish DONE.") var resume = false
    @Flag(help: "Do every read and print what would change on each side; write nothing.") var dryRun = false
    @Option(help: ArgumentHelp("Also write the summary as a JUnit XML report to FILE.", valueName: "file"))
    var junit: String?
    @Flag(help: "Sync downs ignore their watermarks: fetch everything, then store the new watermark.") var full = false
    @Flag(help: "Recreate stored definitions that differ from the config (resets their watermark).")
    var replace = false
    @Option(help: "Output format.") var format: OutputFormat = .text

    func validate() throws {
        if dryRun, resume { throw ValidationError("--dry-run and --resume cannot be combined") }
    }

    func run() async throws {
        let startedAt = Date()
        let session = SyncCommandSession(store: store, org: org, format: format, requests: requests.settings)
        let renderer = SyncEventRenderer(format: format)
        let (only, options) = (only, PlanRunOptions(full: full, replace: replace, resume: resume, dryRun: dryRun))
        let (config, report) = try await session.session(renderer: renderer, readOnly: dryRun, names: only) {
            config,
            engine,
            stop,
            events in
            let (plan, definitions) = try Self.plan(config, only: only)
            do {
                return try await engine.run(
                    plan,
                    definitions: definitions,
                    options: options,
                    stop: stop,
                    events: events
                )
            } catch let refused as PlanRunRefused {
                throw CLIError.usage(
                    refused.description + "\nfix the config, or pass --replace to recreate changed syncs"
                )
            }
        }
        PlanReportRenderer(asJSON: renderer.asJSONLines, isDryRun: dryRun).render(report)
        if let junit {
            do {
                try report.junitXML(timestamp: startedAt).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError("cannot write the JUnit report to '\(junit)': \(error.localizedDescription)")
            }
        }
        guard !report.isClean else { return }
        // Conflicts are said as conflicts, with the commands that resolve them; the rest by step.
        let summaries = report.steps.compactMap(\.summary)
        if let conflicts = ConflictAdvice.text(summaries, config: config) {
            StandardStreams.writeError(conflicts + "\n")
        }
        let attention = report.steps.filter { step in
            !step.isClean && !(step.status == .done && (step.summary?.failed ?? 0) == 0)
        }
        if !attention.isEmpty {
            let steps = attention.map { "\($0.step.id) (\($0.status.rawValue))" }
            let failedRecords = attention.reduce(0) { $0 + ($1.status == .done ? $1.summary?.failed ?? 0 : 0) }
            StandardStreams.writeError(
                "error: \(Count.of(attention.count, "step")) did not finish cleanly: " + steps.joined(separator: ", ")
                    + (failedRecords > 0
                        ? "; records that failed on the org stay marked local with the reason in '__last_error__'" : "")
                    + "\n"
            )
        }
        throw ExitStatus.failure.exitCode
    }

    /// The plan of the config (restricted to `only` and what they depend on), with the syncs by name.
    static func plan(_ config: LoadedConfig, only: [String]) throws -> (SyncPlan, [String: SyncDefinition]) {
        let plan = try SyncCommandSession.plan(of: config, only: only)
        var definitions: [String: SyncDefinition] = [:]
        for name in plan.syncNames {
            definitions[name] = try SyncCommandSession.definition(named: name, in: config)
        }
        return (plan, definitions)
    }
}

/// Prints a plan run's per-step summary: a table, or one JSON object.
struct PlanReportRenderer {
    let asJSON: Bool
    var isDryRun = false

    func render(_ report: PlanRunReport) {
        let status = Self.status(of: report)
        if asJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var line = PlanSummaryLine(report, status: status)
            if isDryRun { line.dryRun = true }
            guard var data = try? encoder.encode(line) else { return }
            data.append(0x0A)
            StandardStreams.write(data)
            return
        }
        if isDryRun {
            renderPreview(report, status: status)
            return
        }
        var rows = [
            [
                "step", "status", "created", "updated", "unchanged", "deleted", "conflicts", "failed", "skipped",
                "requests", "time",
            ]
        ]
        for step in report.steps {
            let row = PlanStepLine(step)
            func count(_ value: Int?) -> String { value.map(String.init) ?? "-" }
            rows.append([
                step.step.id, step.status.rawValue, count(row.created), count(row.updated), count(row.unchanged),
                count(row.deleted),
                count(row.conflicts), count(row.failed), count(row.skipped), count(row.requests),
                row.durationMs.map { String(format: "%.2fs", Double($0) / 1000) } ?? "-",
            ])
        }
        var text = "\n" + Self.table(rows)
        for step in report.steps where !step.isClean {
            if let message = step.message { text += "\(step.step.id): \(message)\n" }
            for issue in step.summary?.issues ?? [] { text += "  \(issue)\n" }
        }
        for note in report.notes { text += "note: \(note)\n" }
        text += "\(status): \(Count.of(report.steps.count, "step"))"
        let counts = Dictionary(grouping: report.steps, by: \.status).mapValues(\.count)
        text += PlanStepResult.Status.allCases.compactMap { status in
            counts[status].map { ", \($0) \(status.rawValue)" }
        }.joined()
        if let usage = report.latestAPIUsage {
            text += "; " + APIUsageLine(usage).text
        }
        StandardStreams.write(text + "\n")
    }

    /// The dry run's table: what each step would create / update / delete on the org and in the
    /// store, then the first affected records of each step.
    private func renderPreview(_ report: PlanRunReport, status: String) {
        func triple(_ changes: SyncPreview.Changes) -> String {
            "\(changes.created)/\(changes.updated)/\(changes.deleted)"
        }
        var rows = [["step", "status", "org c/u/d", "store c/u/d", "conflicts", "skipped", "fetched", "requests"]]
        for step in report.steps {
            guard let preview = step.preview else {
                rows.append([step.step.id, step.status.rawValue, "-", "-", "-", "-", "-", "-"])
                continue
            }
            rows.append([
                step.step.id, step.status.rawValue, triple(preview.org), triple(preview.local),
                String(preview.conflicts),
                String(preview.skippedLocallyChanged + preview.skipped + preview.keptForOtherSyncs),
                String(preview.fetched), String(preview.requests),
            ])
        }
        var text = "\nDRY RUN: nothing was written. Would change (created/updated/deleted):\n"
        text += Self.table(rows)
        for step in report.steps {
            if let message = step.message, step.status != .done { text += "\(step.step.id): \(message)\n" }
            if let decision = step.preview?.apiDecision { text += "\(step.step.id): would run through \(decision)\n" }
            if let preview = step.preview, preview.targetKind == "parent_children" {
                let children = preview.children
                text +=
                    "\(step.step.id): of which children: org \(triple(children.org)), store \(triple(children.local))"
                    + ", \(Count.of(children.conflicts, "conflict")), \(children.fetched) fetched"
                    + (preview.parentsProtectedByChildren > 0
                        ? "; \(Count.of(preview.parentsProtectedByChildren, "parent")) left for a changed child" : "")
                    + "\n"
            }
            guard let preview = step.preview, !preview.items.isEmpty else { continue }
            text += "\(step.step.id):\n"
            for item in preview.items.prefix(10) {
                text +=
                    "  \(item.side == .org ? "org  " : "store") \(item.action.rawValue) "
                    + "\(item.recordID ?? "(no id)")" + (item.entryID.map { " (entry \($0))" } ?? "")
                    + (item.isChild ? " child" : "") + "\n"
            }
            let more = preview.items.count > 10 || preview.itemsTruncated
            if more { text += "  … (--format json lists up to \(SyncPreview.itemLimit))\n" }
        }
        text +=
            "\(status == "DONE" ? "DRY RUN DONE" : "DRY RUN " + status): \(Count.of(report.steps.count, "step")) previewed\n"
        StandardStreams.write(text)
    }

    /// Rows as aligned columns: the first two left-aligned, the others right-aligned.
    static func table(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            text +=
                row.enumerated().map { column, cell in
                    column < 2
                        ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[column] - cell.count) + cell
                }.joined(separator: "  ") + "\n"
        }
        return text
    }

    /// `DONE` when every step is clean, else the first of `STOPPED`, `FAILED`, `ISSUES` that applies.
    static func status(of report: PlanRunReport) -> String {
        if report.isClean { return "DONE" }
        if report.steps.contains(where: { $0.status == .stopped || ($0.status == .notRun && !$0.isClean) }) {
            return "STOPPED"
        }
        if report.steps.contains(where: { $0.status == .failed || $0.status == .skipped }) { return "FAILED" }
        return "ISSUES"
    }
}

/// The final JSON object of `syncrun run`.
struct PlanSummaryLine: Encodable {
    var event = "summary"
    var status: String
    var dryRun: Bool?
    var steps: [PlanStepLine]
    /// The org's API usage after the last step that saw a `Sforce-Limit-Info` header.
    var apiUsage: APIUsageLine?
    /// What the run decided for the whole plan (`--resume` with nothing to continue); absent when none.
    var notes: [String]?

    init(_ report: PlanRunReport, status: String) {
        self.status = status
        steps = report.steps.map(PlanStepLine.init)
        apiUsage = report.latestAPIUsage.map(APIUsageLine.init)
        notes = report.notes.isEmpty ? nil : report.notes
    }
}

/// One step in the final JSON object.
struct PlanStepLine: Encodable {
    var step: String
    var kind: String
    var sync: String
    var status: String
    var created: Int?
    var updated: Int?
    var deleted: Int?
    var conflicts: Int?
    var failed: Int?
    var skipped: Int?
    var fetched: Int?
    var unchanged: Int?
    var requests: Int?
    var retries: Int?
    var durationMs: Int64?
    var message: String?
    var issues: [SyncUpIssueLine]?
    var preview: PreviewLine?

    init(_ result: PlanStepResult) {
        step = result.step.id
        kind = result.step.kind.rawValue
        sync = result.step.syncName
        status = result.status.rawValue
        message = result.message
        preview = result.preview.map(PreviewLine.init)
        guard let summary = result.summary else { return }
        created = summary.created
        updated = summary.updated
        deleted = summary.deleted + summary.deletedGhosts
        conflicts = summary.conflicts
        failed = summary.failed
        skipped = summary.skipped + summary.skippedLocallyChanged
        if summary.operation != .syncUp { fetched = summary.fetched }
        if summary.operation == .syncDown { unchanged = summary.unchanged }
        requests = summary.requests
        retries = summary.retries
        durationMs = summary.durationMilliseconds
        issues = summary.issues.isEmpty ? nil : summary.issues.map(SyncUpIssueLine.init)
    }
}

/// A dry run's preview of one step, in JSON.
struct PreviewLine: Encodable {
    struct Changes: Encodable {
        var created: Int
        var updated: Int
        var deleted: Int

        init(_ changes: SyncPreview.Changes) {
            created = changes.created
            updated = changes.updated
            deleted = changes.deleted
        }
    }

    struct Item: Encodable {
        var side: String
        var action: String
        var recordId: String?
        var entryId: Int64?
        /// `true` for a record of a parent_children target's children soup (entry ids are per soup).
        var child: Bool?
    }

    /// The counts of a step, and of a parent_children step's children's share (each part of the
    /// step's count of the same name).
    struct Counts: Encodable {
        var org: Changes
        var local: Changes
        var conflicts: Int
        var skippedLocallyChanged: Int
        var skipped: Int
        var keptForOtherSyncs: Int
        var failed: Int
        var fetched: Int

        init(_ counts: some PreviewCounts) {
            org = Changes(counts.org)
            local = Changes(counts.local)
            conflicts = counts.conflicts
            skippedLocallyChanged = counts.skippedLocallyChanged
            skipped = counts.skipped
            keptForOtherSyncs = counts.keptForOtherSyncs
            failed = counts.failed
            fetched = counts.fetched
        }
    }

    /// The step's counts, written at the top level of the object.
    var counts: Counts
    var selected: Int
    var pages: Int
    var requests: Int
    var incremental: Bool
    var items: [Item]
    var itemsTruncated: Bool
    /// soql sync down: the API the run would use, and why.
    var api: String?
    /// parent_children only: the children's share of the counts above.
    var children: Counts?
    /// parent_children sync down: parents left alone only because one of their stored children has
    /// local changes.
    var parentsProtectedByChildren: Int?

    private enum CodingKeys: String, CodingKey {
        case selected, pages, requests, incremental, items, itemsTruncated, api, children
        case parentsProtectedByChildren
    }

    func encode(to encoder: any Encoder) throws {
        try counts.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(selected, forKey: .selected)
        try container.encode(pages, forKey: .pages)
        try container.encode(requests, forKey: .requests)
        try container.encode(incremental, forKey: .incremental)
        try container.encode(items, forKey: .items)
        try container.encode(itemsTruncated, forKey: .itemsTruncated)
        try container.encodeIfPresent(api, forKey: .api)
        try container.encodeIfPresent(children, forKey: .children)
        try container.encodeIfPresent(parentsProtectedByChildren, forKey: .parentsProtectedByChildren)
    }

    init(_ preview: SyncPreview) {
        counts = Counts(preview)
        selected = preview.selected
        pages = preview.pages
        requests = preview.requests
        incremental = preview.isIncremental
        items = preview.items.map {
            Item(
                side: $0.side.rawValue,
                action: $0.action.rawValue,
                recordId: $0.recordID,
                entryId: $0.entryID,
                child: $0.isChild ? true : nil
            )
        }
        itemsTruncated = preview.itemsTruncated
        api = preview.apiDecision
        if preview.targetKind == "parent_children" {
            children = Counts(preview.children)
            parentsProtectedByChildren = preview.parentsProtectedByChildren
        }
    }
}

/// What a preview and its children's share both count (``PreviewLine/Counts``).
protocol PreviewCounts {
    var org: SyncPreview.Changes { get }
    var local: SyncPreview.Changes { get }
    var conflicts: Int { get }
    var skippedLocallyChanged: Int { get }
    var skipped: Int { get }
    var keptForOtherSyncs: Int { get }
    var failed: Int { get }
    var fetched: Int { get }
}

extension SyncPreview: PreviewCounts {}
extension SyncPreview.ChildCounts: PreviewCounts {}

extension PlanRunReport {
    /// The org's API usage after the last step that saw a `Sforce-Limit-Info` header.
    fileprivate var latestAPIUsage: APIUsage? {
        steps.last { $0.summary?.apiUsage != nil }?.summary?.apiUsage
    }
}
