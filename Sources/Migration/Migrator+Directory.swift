import Foundation
import JSONCore
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger

/// `migrate --from dir:PATH` and `--to dir:PATH`: a ``DirectorySet`` as the source or the target.
extension Migrator {
    /// `--from dir:`: the staging soup of each written object becomes what its file holds (the
    /// set holds what a migration read, already filtered by the sync downs' queries: it is taken
    /// as it is). Every file is read and checked before the first soup changes. Journaled as the
    /// sync downs' `read:` steps.
    ///
    /// - Throws: ``MigrationError`` (refused) for a missing file, malformed CSV (`file:line`), a file
    ///   without the id column.
    func loadSet(
        objects: [MigrationObject],
        syncDowns: [SyncDefinition],
        targetTypes: [String: [String: String]],
        options: MigrationOptions
    ) throws {
        guard let sourceSet else { return }
        var tables: [(object: MigrationObject, table: DirectorySet.Table)] = []
        for object in objects where object.isWritten {
            let table = try sourceSet.read(object.sobject, syncUp: object.syncUp)
            guard table.header.contains(where: { $0.lowercased() == object.idField.lowercased() }) else {
                throw MigrationError(
                    .refused,
                    "\(table.file):1: no '\(object.idField)' column (each row's id in the set, which the id map "
                        + "and the set's lookups use); nothing was written"
                )
            }
            tables.append((object, table))
        }
        for definition in syncDowns { try journal("read:\(definition.name)", .running, options) }
        for (object, table) in tables {
            let types = targetTypes[object.sobject.lowercased()] ?? [:]
            try store.writeNow { writer in
                try writer.clearSoup(object.soup)
                for rows in table.rows.chunked(500) {
                    var json = "["
                    for (position, row) in rows.enumerated() {
                        if position > 0 { json += "," }
                        let record = DirectorySet.record(header: table.header, values: row.values, fieldTypes: types)
                        OrgValue.object(record).write(to: &json)
                    }
                    json += "]"
                    _ = try writer.upsert(entries: json, into: object.soup, byExternalIDPath: object.idField)
                }
            }
        }
        for definition in syncDowns { try journal("read:\(definition.name)", .done, options) }
    }

    /// One object of a `--to dir:` export: its columns and masks.
    struct ExportedObject {
        var object: MigrationObject
        /// `Id` (the id field), the fields the sync up writes, the relationship paths of its keys.
        var columns: [String]
        var masker: FieldMasker
    }

    /// `--to dir:`: reads the source through the sync downs into the staging store (as a migration
    /// to an org does, resumable), then writes each written object's file from its staging soup,
    /// masks applied, rows ordered by id, and the id map beside them. A file that would not
    /// change is not written: the report counts its rows unchanged.
    func export(
        to set: DirectorySet,
        _ sources: MigrationSources,
        storeConfig: StoreConfig?,
        options: MigrationOptions,
        stop: StopSignal,
        events: AsyncStream<SyncEvent>.Continuation?,
        progress: @escaping @Sendable (MigrationProgress) -> Void
    ) async throws -> MigrationReport {
        let source = try sourceOrg()
        var report = MigrationReport()
        report.isDryRun = options.dryRun
        report.deletesMissing = true
        var prepared: [(object: MigrationObject, columns: [String], lengths: [String: Int])] = []
        var maskRefusals: [String] = []
        for object in sources.objects where object.isWritten {
            let described = try await describe(source, object.sobject, side: "source")
            var written = object
            written.sobject = described.name
            var columns = [object.idField]
            func add(_ column: String) {
                if !columns.contains(where: { $0.lowercased() == column.lowercased() }) { columns.append(column) }
            }
            for field in MigrationOrder.union(object.createFields, object.updateFields) {
                let lowered = field.lowercased()
                if field.contains(".") || MigrationOrder.systemFields.contains(lowered)
                    || lowered == object.idField.lowercased()
                {
                    continue
                }
                guard let sourceField = described.field(named: field) else {
                    report.warnings.append("\(described.name).\(field) does not exist in the source; left out")
                    continue
                }
                add(sourceField.name)
            }
            // The keys a load matches on travel with the set (a relationship path as its column).
            for key in object.matchFields + (object.externalIDField.map { [$0] } ?? []) {
                if key.contains(".") {
                    add(key)
                } else if let sourceField = described.field(named: key) {
                    add(sourceField.name)
                }
            }
            maskRefusals += Self.maskProblems(of: written, in: described)
            let lengths = Dictionary(
                described.fields.compactMap { field in field.length.map { (field.name.lowercased(), $0) } },
                uniquingKeysWith: { first, _ in first }
            )
            prepared.append((written, columns, lengths))
        }
        if !maskRefusals.isEmpty {
            throw MigrationError(
                .refused,
                "masks the source's fields cannot hold:\n" + maskRefusals.map { "  - " + $0 }.joined(separator: "\n")
                    + "\nnothing was written; fix or remove those masks in the sync ups' options.mask"
            )
        }
        let steps = sources.syncDowns.map { "read:\($0.name)" } + prepared.map { "file:\($0.object.sobject)" }
        var done: Set<String> = []
        if options.resume {
            let plan = try store.readNow { try $0.planJournal() }
            if plan.contains(where: { $0.status != .done && $0.status != .skipped }) {
                done = Set(plan.filter { $0.status == .done }.map(\.stepID))
            }
        }
        try registerSoups(prepared.map(\.object), storeConfig: storeConfig)
        let maskSecret = try resolvedMaskSecret(for: prepared.map(\.object), options: options)
        let exported = prepared.map { item in
            ExportedObject(
                object: item.object,
                columns: item.columns,
                masker: FieldMasker(secret: maskSecret, masks: item.object.masks, lengths: item.lengths)
            )
        }
        if !options.dryRun {
            try MigrationBooks.bind(store, to: pair, now: now())
            if !options.resume || done.isEmpty {
                try store.writeNow { [now] in try $0.startPlanJournal(stepIDs: steps, now: now()) }
            }
        }
        var engineConfiguration = SyncEngineConfiguration()
        engineConfiguration.longTransactions = false
        let engine = SyncEngine(store: store, org: source, logger: logger, configuration: engineConfiguration)
        if !options.dryRun { _ = try engine.recoverInterruptedRuns() }
        for definition in sources.syncDowns {
            if !done.contains("read:\(definition.name)") {
                try await read(definition, engine: engine, options: options, stop: stop, events: events)
            }
            // The files hold what the source returns now: the staging soup loses what it no
            // longer returns (an incremental read does not see deletions).
            try await cleanGhosts(definition, engine: engine, stop: stop, events: events)
        }
        var idMap: [IDMapRow] = []
        for item in exported {
            if stop.isStopRequested { throw MigrationError(.failed, "stopped; run again with --resume") }
            let object = item.object
            try journal("file:\(object.sobject)", .running, options)
            let rows = try exportRows(item, among: exported)
            var entry = MigrationReport.Object(sobject: object.sobject)
            entry.read = rows.count
            let name = "\(object.sobject).csv"
            // What the file holds now, by id (rows of another header count as new).
            var before: [String: [String?]] = [:]
            if let data = FileManager.default.contents(atPath: set.file(of: object.sobject)),
                let table = try? DirectorySet.table(data, file: name), table.header == item.columns
            {
                for row in table.rows { before[DirectorySet.id(of: row.values)] = row.values }
            }
            for row in rows {
                let id = DirectorySet.id(of: row)
                let action: MigrationReport.PlannedWrite.Action
                switch before.removeValue(forKey: id) {
                case .some(let old) where old == row:
                    entry.unchanged += 1
                    continue
                case .some: action = .update
                case .none: action = .create
                }
                if action == .create { entry.created += 1 } else { entry.updated += 1 }
                if options.dryRun, entry.planned.count < MigrationReport.plannedListed {
                    entry.planned.append(.init(action: action, sourceID: id, targetID: nil))
                }
            }
            entry.deleted = before.count
            entry.deletions = before.keys.sorted().prefix(MigrationReport.failuresListed).map {
                MigrationReport.Deletion(sourceID: $0, targetID: $0)
            }
            if !options.dryRun, try set.write(DirectorySet.csv(header: item.columns, rows: rows), toFileNamed: name) {
                report.filesWritten.append(name)
            }
            idMap += rows.map {
                IDMapRow(sobject: object.sobject, sourceID: DirectorySet.id(of: $0), targetID: DirectorySet.id(of: $0))
            }
            try journal("file:\(object.sobject)", .done, options)
            progress(MigrationProgress(sobject: object.sobject, phase: .write, done: rows.count, total: rows.count))
            report.objects.append(entry)
        }
        if !options.dryRun {
            var writer = CSVWriter(quoting: .whenNeeded)
            writer.appendRow(IDMapExport.header)
            let ordered = idMap.sorted { first, second in
                first.sobject == second.sobject ? first.sourceID < second.sourceID : first.sobject < second.sobject
            }
            for row in ordered {
                writer.appendRow([row.sobject, pair.sourceOrgID, pair.targetOrgID, row.sourceID, row.targetID])
            }
            if try set.write(writer.data, toFileNamed: DirectorySet.idMapFileName) {
                report.filesWritten.append(DirectorySet.idMapFileName)
            }
        }
        report.directory = set.path
        return report
    }

    /// The rows of one exported object, ordered by id: each staged record masked, its columns as
    /// text. A relationship path column (`Account.Name`) is masked as the field it ends in is
    /// masked by any exported object (no source value of a masked field reaches a file).
    private func exportRows(_ item: ExportedObject, among exported: [ExportedObject]) throws -> [[String?]] {
        let object = item.object
        var pathMasks: [Int: (masker: FieldMasker, mask: FieldMask, field: String)] = [:]
        for (position, column) in item.columns.enumerated() where column.contains(".") {
            let field = String(column.split(separator: ".").last ?? "").lowercased()
            if let owner = exported.first(where: { $0.masker.masks[field] != nil }),
                let mask = owner.masker.masks[field]
            {
                pathMasks[position] = (masker: owner.masker, mask: mask, field: field)
            }
        }
        var rows: [[String?]] = []
        var after: Int64 = 0
        while true {
            let page = try store.readNow { try $0.entries(in: object.soup, afterEntryID: after, limit: 1000) }
            guard let last = page.last else { break }
            after = last.entryID
            for entry in page {
                let record = item.masker.mask(try OrgValue(parsing: entry.json).objectValue ?? [:])
                guard let id = OrgValue.value(atPath: object.idField, in: record, ignoringCase: true)?.stringValue,
                    !id.isEmpty
                else { continue }
                let values = item.columns.enumerated().map { position, column -> String? in
                    guard position > 0 else { return id }
                    var value = OrgValue.value(atPath: column, in: record, ignoringCase: true)
                    if let path = pathMasks[position], let raw = value {
                        value = path.masker.mask(raw, with: path.mask, length: path.masker.lengths[path.field])
                    }
                    return DirectorySet.text(value)
                }
                rows.append(values)
            }
        }
        return DirectorySet.ordered(rows)
    }
}
