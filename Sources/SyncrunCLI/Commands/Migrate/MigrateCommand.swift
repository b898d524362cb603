import ArgumentParser
import Foundation
import JSONCore
import Migration
import OrgAccess
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import SyncrunSession

/// `syncrun migrate`: moves the records the config describes from one org to another, with id
/// remapping. The work is the `Migration` library's; this parses flags, connects both orgs,
/// opens the staging store and renders the report.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move the records the config describes from one org to another, remapping ids.",
        discussion: """
            The config's soql sync downs say what to read from the --from org (several into one soup: their \
            union); the sync ups of the same soups say how to write to the --to org (createFieldlist, \
            updateFieldlist, externalIdFieldName, and the extension matchFields: one or more fields, \
            relationship paths such as Account.Name allowed). A soup without a sync up is read, not written. \
            Each record is matched by, in order: the id map of earlier runs, the external id (upsert), the \
            matchFields key (a key matching several target records fails the record); else it is created. \
            Reference fields between migrated objects are rewritten to target ids; objects are written \
            parents first; self-references and cycles in two passes (a required self-reference: parents \
            first). A record already equal in the target is left unchanged, so a second run writes nothing.

            The staging store (default .syncrun/migrate-SOURCEID-TARGETID.db under the config directory) \
            belongs to one (source, target) pair and holds the records read from the source. What was \
            written to the target (the id map, --id-map FILE exports it as CSV, and the creates sent but \
            not yet answered) is kept apart, in the pair's journal .syncrun/migrations/SOURCEID-TARGETID.db, \
            which syncrun never deletes. After a kill, run again with --resume: nothing is created twice, \
            nothing skipped; without --resume an unfinished migration is refused; deleting the staging \
            store is safe. An object without externalIdFieldName or matchFields is refused (exit 2, \
            nothing written) when the target holds records of it that the journal does not know and some \
            source record has no counterpart in the journal (they could be created twice), unless \
            --allow-duplicates is given. --dry-run reads both orgs (the source is read into the staging \
            store, which is not the target) and prints what would be created or updated, writing nothing \
            to the target.

            Files on disk: --to dir:PATH writes each migrated object as PATH/OBJECT.csv (RFC 4180, UTF-8; Id \
            holds the source id, lookups the source ids of the records they point at, masks applied, rows \
            ordered by Id) and the id map PATH/syncrun-id-map.csv; a file that would not change is not \
            written. --from dir:PATH reads such a set into the --to org, as a migration from an org does \
            (parents first, matching, journal, --resume, --dry-run), taking the records as they are: the \
            config's sync ups decide what is written.

            Output: progress on a terminal, JSON lines otherwise (or with --format json), then the \
            report. Exit status: 0 every record migrated; 1 some record failed (the rest is done) or a \
            run failed (continue with --resume), or config errors; 2 usage errors, an org that cannot be \
            resolved, a migration refused for safety (nothing written).
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(
        help: ArgumentHelp(
            "The source org (the ORG grammar of --org), or dir:PATH, a set of CSV files written by --to dir:.",
            valueName: "org"
        )
    )
    var from: String

    @Option(
        help: ArgumentHelp(
            "The target org (the ORG grammar of --org), or dir:PATH, a folder to write one CSV file per object to.",
            valueName: "org"
        )
    )
    var to: String

    @Option(help: ArgumentHelp("The access token of an http(s) --from org. Never printed.", valueName: "token"))
    var fromAccessToken: String?

    @Option(help: ArgumentHelp("The access token of an http(s) --to org. Never printed.", valueName: "token"))
    var toAccessToken: String?

    @Option(
        help: ArgumentHelp("The REST API version of both orgs (default: each org's own, else 62.0).", valueName: "NN.N")
    )
    var apiVersion: String?

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The staging store (default: .syncrun/migrate-SOURCEID-TARGETID.db under the config directory).",
            valueName: "file"
        )
    )
    var storePath: String?

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp("Migrate only the soup of this sync up (repeatable).", valueName: "name")
    )
    var only: [String] = []

    @Flag(help: "Read both orgs and print what would be created or updated; write nothing to the target.")
    var dryRun = false

    @Flag(help: "Continue a migration that was killed or stopped.") var resume = false

    @OptionGroup var requests: RequestOptions

    @Flag(help: "Refuse fields the target lacks or cannot write, instead of leaving them out with a warning.")
    var strict = false

    @Flag(
        help: """
            Create the records of an object without externalIdFieldName or matchFields even when the target \
            holds records of it that the journal does not know: records already there (or written by a run \
            whose journal was deleted) are created again. Risky on a production target.
            """
    )
    var allowDuplicates = false

    @Flag(
        help: """
            Delete in the target the records an earlier run of this pair created or matched (the journal's id map) \
            that the source no longer returns (deleted there, or outside the sync downs' queries now), children \
            before parents, once everything else is written. Never deletes a record no migration brought. With \
            --dry-run, lists them.
            """
    )
    var deleteMissing = false

    @Option(
        help: ArgumentHelp(
            "The secret the sync ups' masks (options.mask) are keyed with: the same secret masks the same way in any "
                + "org pair (default: one kept in the pair's journal). At least 16 bytes; never printed.",
            valueName: "file"
        )
    )
    var maskSecretFile: String?

    @Option(help: ArgumentHelp("Also write the id map (source id → target id) as CSV to FILE.", valueName: "file"))
    var idMap: String?

    @Option(help: ArgumentHelp("Also write the report as a JUnit XML report to FILE.", valueName: "file"))
    var junit: String?

    @Option(help: "Output format.") var format: OutputFormat = .text

    @Option(
        help: ArgumentHelp(
            "An HTTP proxy for both orgs, http://[USER:PASSWORD@]HOST:PORT (default: $HTTPS_PROXY / "
                + "$HTTP_PROXY; hosts in $NO_PROXY go direct). Credentials are never printed.",
            valueName: "url"
        )
    )
    var proxy: String?

    func validate() throws {
        if dryRun, resume { throw ValidationError("--dry-run and --resume cannot be combined") }
        for (flag, value) in [("--from", from), ("--to", to)] where value.hasPrefix("dir:") && value.count == 4 {
            throw ValidationError("\(flag) dir: needs a folder, e.g. \(flag) dir:data/accounts")
        }
        if from.hasPrefix("dir:"), to.hasPrefix("dir:") {
            throw ValidationError("--from and --to are both dir: sets; one of them must be an org")
        }
    }

    /// The `dir:` set `value` names, if it names one.
    static func directorySet(_ value: String) -> DirectorySet? {
        guard value.hasPrefix("dir:") else { return nil }
        return DirectorySet(path: String(value.dropFirst(4)))
    }

    func run() async throws {
        let startedAt = Date()
        let loaded = try config.load()
        for diagnostic in loaded.diagnostics { StandardStreams.writeError(DiagnosticText.plain(diagnostic) + "\n") }
        if loaded.hasErrors {
            throw ConfigOptions.configErrors(loaded)
        }
        guard let syncs = loaded.userSyncs else { throw CLIError.usage("the config has no syncs (usersyncs)") }
        let ups = syncs.syncs.filter { $0.type == .syncUp }.map(\.name)
        for name in only where !ups.contains(name) {
            throw CLIError.usage(
                "--only '\(JSONWriter.terminalSafe(name))' is not a sync up of the config"
                    + NameSuggestion.clause(for: name, among: ups)
                    + "; the sync ups are: \(ups.map(JSONWriter.terminalSafe).joined(separator: ", "))"
            )
        }
        let sources: MigrationSources
        do {
            sources = try MigrationSources(config: syncs, only: only)
        } catch let error as MigrationConfigError {
            throw CLIError.usage(error.message)
        }
        let project = try ProjectContext.load(configDirectory: config.configDirectory)
        let environment = ProcessInfo.processInfo.environment
        let resolver = project?.resolver(environment: environment) ?? OrgResolver(environment: environment)
        let (fromSet, toSet) = (Self.directorySet(from), Self.directorySet(to))
        let hints = [fromSet == nil ? from : "", toSet == nil ? to : ""].map {
            $0.isEmpty ? "" : OrgOptions.projectOrgHint(for: $0, project: project)
        }
        let hint: String = hints.first(where: { !$0.isEmpty }) ?? ""
        let (fromSide, toSide) = try await OrgAccessErrors.converting(hint: hint) {
            (
                try fromSet.map(MigrationSession.Side.directory)
                    ?? .org(resolver.resolve(from, flags: .init(accessToken: fromAccessToken, apiVersion: apiVersion))),
                try toSet.map(MigrationSession.Side.directory)
                    ?? .org(resolver.resolve(to, flags: .init(accessToken: toAccessToken, apiVersion: apiVersion)))
            )
        }
        let caFile = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        let connector = OrgConnector(
            environment: environment,
            trustedCertificatesFile: caFile,
            localOrgLauncher: LocalOrgServerLauncher(),
            proxy: try OrgOptions.proxySettings(flag: proxy, environment: environment),
            logger: CLILogging.logger
        )
        let options = MigrationSession.Options(
            configDirectory: config.configDirectory,
            storePath: storePath,
            resume: resume,
            dryRun: dryRun,
            logger: CLILogging.logger
        )
        let report = try await SessionErrors.converting(hint: hint) {
            do {
                return try await MigrationSession.with(
                    from: fromSide,
                    to: toSide,
                    connector: connector,
                    options: options,
                    notify: StandardStreams.notify
                ) { session in try await migrate(loaded, sources: sources, session: session) }
            } catch let error as MigrationError {
                throw CLIError(error.message, classifying: error)
            }
        }
        if let junit {
            let xml = report.junitXML(
                timestamp: startedAt,
                milliseconds: Int64(Date().timeIntervalSince(startedAt) * 1000)
            )
            do {
                try xml.write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError("cannot write the JUnit report to '\(junit)': \(error.localizedDescription)")
            }
        }
        if !report.isClean {
            let failed = report.objects.reduce(0) { $0 + $1.failed }
            throw CLIError(
                "\(Count.of(failed, "record")) \(dryRun ? "would fail" : "failed") and "
                    + "\(dryRun ? "would be" : failed == 1 ? "was" : "were") left out "
                    + "(the report lists them); fix them and run again"
            )
        }
    }

    /// Runs the checked session's migration while its events are rendered, then prints the
    /// report (and writes the id map).
    private func migrate(
        _ loaded: LoadedConfig,
        sources: MigrationSources,
        session: MigrationSession
    ) async throws -> MigrationReport {
        let renderer = SyncEventRenderer(format: format)
        let asJSON = renderer.asJSONLines
        let report: MigrationReport
        let maskSecret: Data?
        do {
            maskSecret = try maskSecretFile.map { try MigrationOptions.maskSecret(fromFile: $0) }
        } catch let error as MigrationError {
            throw CLIError.usage(error.message)
        }
        do {
            let stop = StopSignal()
            let stopper = SignalStopper(stop: stop)
            defer { withExtendedLifetime(stopper) {} }
            var options = MigrationOptions(
                dryRun: dryRun,
                resume: resume,
                strict: strict,
                allowDuplicates: allowDuplicates,
                maskSecret: maskSecret,
                deleteMissing: deleteMissing
            )
            options.maxConcurrentRequests = requests.maxRequests
            report = try await SyncEventStream.run(consume: { await renderer.render($0) }) { events in
                try await session.migrator.run(
                    sources,
                    storeConfig: loaded.userStore,
                    options: options,
                    stop: stop,
                    events: events
                ) { [dryRun] progress in
                    MigrateReportRenderer.renderProgress(progress, asJSON: asJSON, dryRun: dryRun)
                }
            }
        } catch let error as MigrationError {
            throw CLIError(error.message, classifying: error)
        } catch let error as OrgClientError {
            throw CLIError(
                "the migration stopped: \(error.message); what was written is recorded, run again with --resume"
            )
        } catch let error as SoupStoreError {
            throw CLIError(error.message)
        }
        MigrateReportRenderer(asJSON: asJSON).render(report)
        if let idMap {
            do {
                let count = try IDMapExport.write(MigrationBooks(journal: session.migrator.journal), toFile: idMap)
                if !asJSON { StandardStreams.writeError("id map: \(Count.of(count, "record")) written to \(idMap)\n") }
            } catch let error as MigrationError {
                throw CLIError(error.message)
            }
        }
        return report
    }
}

/// Prints the migration's progress and report: JSON lines, or text for a terminal.
struct MigrateReportRenderer {
    let asJSON: Bool

    /// One batch's progress. A dry run's phases are named as dry runs (`"phase":"dry-run-write"`,
    /// `dry-run-references`): nothing is written, and a reader of the events must not think so.
    static func renderProgress(_ progress: MigrationProgress, asJSON: Bool, dryRun: Bool = false) {
        let phase = (dryRun ? "dry-run-" : "") + progress.phase.rawValue
        if asJSON {
            let line = ProgressLine(
                sobject: progress.sobject,
                phase: phase,
                done: progress.done,
                total: progress.total
            )
            Self.writeLine(line)
        } else {
            StandardStreams.write(
                "\r\(progress.sobject) (\(phase)): \(progress.done)/\(progress.total)"
                    + (progress.done >= progress.total ? "\n" : "")
            )
        }
    }

    func render(_ report: MigrationReport) {
        if asJSON {
            Self.writeLine(ReportLine(report))
            return
        }
        var rows = [["object", "read", "created", "updated", "unchanged", "failed"]]
        if report.deletesMissing { rows[0].append("deleted") }
        for object in report.objects {
            rows.append(
                [
                    object.sobject + (object.isWritten ? "" : " (read only)"), String(object.read),
                    String(object.created), String(object.updated), String(object.unchanged), String(object.failed),
                ] + (report.deletesMissing ? [String(object.deleted)] : [])
            )
        }
        var text = "\n"
        if report.isDryRun { text += "DRY RUN: nothing was written to the target. Would write:\n" }
        text += PlanReportRenderer.table(rows)
        for object in report.objects {
            for failure in object.failures.prefix(20) {
                text += "\(object.sobject) \(failure.sourceID): \(failure.message)\n"
            }
            if object.failed > 20 { text += "\(object.sobject): … \(object.failed - 20) more (--format json)\n" }
            for planned in object.planned.prefix(10) {
                text +=
                    "  \(object.sobject) \(planned.action.rawValue) \(planned.sourceID)"
                    + (planned.targetID.map { " → \($0)" } ?? "") + "\n"
            }
            for deletion in object.deletions.prefix(20) {
                text +=
                    "  \(object.sobject) \(report.isDryRun ? "delete" : "deleted") \(deletion.targetID) "
                    + "(source \(deletion.sourceID) no longer returned)\n"
            }
            if object.deleted > 20 {
                text += "\(object.sobject): … \(object.deleted - 20) more deletions (--format json)\n"
            }
        }
        for warning in report.warnings { text += "warning: \(warning)\n" }
        if let directory = report.directory {
            let shown = JSONWriter.terminalSafe(directory)
            if report.isDryRun {
                text += "dir: set \(shown): nothing written (dry run)\n"
            } else if report.filesWritten.isEmpty {
                text += "dir: set \(shown): nothing written (every file holds these records already)\n"
            } else {
                text += "dir: set \(shown): wrote \(report.filesWritten.joined(separator: ", "))\n"
            }
        }
        let totals = report.objects.reduce(into: (0, 0, 0, 0)) {
            $0.0 += $1.created
            $0.1 += $1.updated
            $0.2 += $1.unchanged
            $0.3 += $1.failed
        }
        text +=
            "\(report.isClean ? "DONE" : "FAILED"): \(totals.0) created, \(totals.1) updated, "
            + "\(totals.2) unchanged, \(totals.3) failed\n"
        StandardStreams.write(text)
    }

    private static func writeLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(value) else { return }
        data.append(0x0A)
        StandardStreams.write(data)
    }

    private struct ProgressLine: Encodable {
        var event = "migrate"
        var sobject: String
        var phase: String
        var done: Int
        var total: Int
    }

    /// The report, exactly `{"objects": [...], "warnings": [...]}` (plus `"dryRun": true` for a dry run,
    /// and per object `"deleted"` and `"deletions": [{"sourceId", "targetId"}]` with `--delete-missing`;
    /// with `--to dir:`, `"files"`: the files written, and per object the rows that left the files as
    /// `"deleted"`/`"deletions"`; a dry run's objects list `"planned": [{"action", "sourceId", "targetId"}]`,
    /// the first records it would create or update).
    private struct ReportLine: Encodable {
        struct Object: Encodable {
            var sobject: String
            var read: Int
            var created: Int
            var updated: Int
            var unchanged: Int
            var failed: Int
            var failures: [Failure]
            /// `--delete-missing` only.
            var deleted: Int?
            var deletions: [Deletion]?
            /// A dry run only: the first records it would write (`MigrationReport.plannedListed`).
            var planned: [Planned]?
        }

        struct Planned: Encodable {
            var action: String
            var sourceId: String
            var targetId: String?
        }

        struct Deletion: Encodable {
            var sourceId: String
            var targetId: String
        }

        struct Failure: Encodable {
            var sourceId: String
            var message: String
        }

        var objects: [Object]
        var warnings: [String]
        var dryRun: Bool?
        /// `--to dir:` only: the files written (empty when nothing changed).
        var files: [String]?

        init(_ report: MigrationReport) {
            objects = report.objects.map { object in
                Object(
                    sobject: object.sobject,
                    read: object.read,
                    created: object.created,
                    updated: object.updated,
                    unchanged: object.unchanged,
                    failed: object.failed,
                    failures: object.failures.map { Failure(sourceId: $0.sourceID, message: $0.message) },
                    deleted: report.deletesMissing ? object.deleted : nil,
                    deletions: report.deletesMissing
                        ? object.deletions.map { Deletion(sourceId: $0.sourceID, targetId: $0.targetID) } : nil,
                    planned: report.isDryRun
                        ? object.planned.map {
                            Planned(action: $0.action.rawValue, sourceId: $0.sourceID, targetId: $0.targetID)
                        } : nil
                )
            }
            warnings = report.warnings
            dryRun = report.isDryRun ? true : nil
            files = report.directory == nil ? nil : report.filesWritten
        }
    }
}
