import Foundation
import Logging
import OrgClient
import SOQL
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger

/// What a migration run is asked to do.
public struct MigrationOptions: Sendable {
    /// Decide only: read both sides, write nothing to the target.
    public var dryRun: Bool
    /// Continue a killed or stopped run (its journal).
    public var resume: Bool
    /// Refuse fields the target lacks or cannot write instead of leaving them out.
    public var strict: Bool
    /// Soup entries per batch (200: one collections call).
    public var batchSize: Int
    /// Create the records of an object that has no key (no external id, no `matchFields`) even
    /// when the target holds records of it the journal does not know (which may be copies of them).
    public var allowDuplicates: Bool
    /// The secret masks are keyed with (`--mask-secret-file`): the same secret masks the same way
    /// in any org pair. `nil`: the one kept in the pair's journal (made on the first masked run).
    public var maskSecret: Data?
    /// Delete in the target the records an earlier run of the pair created or matched (the
    /// journal's id map) that the source no longer returns for the sync downs' queries (deleted,
    /// or outside a query now), children before parents (`--delete-missing`). A dry run lists them.
    public var deleteMissing: Bool
    /// The batches (one collections call each) written at once, overriding each sync up's
    /// `options.maxConcurrentRequests` (`--max-requests`); `nil` leaves each object's own.
    public var maxConcurrentRequests: Int? = nil

    public init(
        dryRun: Bool = false,
        resume: Bool = false,
        strict: Bool = false,
        batchSize: Int = 200,
        allowDuplicates: Bool = false,
        maskSecret: Data? = nil,
        deleteMissing: Bool = false
    ) {
        self.maskSecret = maskSecret
        self.deleteMissing = deleteMissing
        self.dryRun = dryRun
        self.resume = resume
        self.strict = strict
        self.batchSize = batchSize
        self.allowDuplicates = allowDuplicates
    }
}

/// Why a migration cannot start or go on.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// Usage, config or org shape: nothing was written (exit status 2).
        case refused
        /// A failure during the run (an org call, the store); `--resume` continues (exit status 1).
        case failed
    }

    public var kind: Kind
    public var message: String
    public var description: String { message }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Runs a migration: reads the source into the staging store through the config's soql sync
/// downs, then writes each object to the target, parents first, through decide and apply steps.
///
/// Journal steps (SyncLedger's plan journal): `read:<sync down>`, `write:<sObject>`,
/// `references:<sObject>`; `--resume` skips the steps that ended `DONE`.
public struct Migrator: Sendable {
    public let store: SoupStore
    /// The source org; `nil` when the source is a `dir:` set (``sourceSet``).
    public let source: (any OrgClient)?
    /// The target org; `nil` when the target is a `dir:` set (``targetSet``).
    public let target: (any OrgClient)?
    /// `--from dir:PATH`: the set read instead of a source org (its files replace the sync downs'
    /// reads; the config's sync ups decide what is written).
    public var sourceSet: DirectorySet?
    /// `--to dir:PATH`: the set written instead of a target org (one CSV file per migrated object).
    public var targetSet: DirectorySet?
    /// The migration's journal (id map and create intents), kept apart from the staging store.
    public let journal: MigrationJournal
    public var pair: MigrationPair { journal.pair }
    /// The target session's user (for the lookup of lost creates).
    public let targetUserID: String
    public let logger: Logger
    public var now: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    public init(
        store: SoupStore,
        source: (any OrgClient)?,
        target: (any OrgClient)?,
        journal: MigrationJournal,
        targetUserID: String,
        logger: Logger,
        sourceSet: DirectorySet? = nil,
        targetSet: DirectorySet? = nil
    ) {
        self.store = store
        self.source = source
        self.target = target
        self.sourceSet = sourceSet
        self.targetSet = targetSet
        self.journal = journal
        self.targetUserID = targetUserID
        self.logger = logger
    }

    var books: MigrationBooks { MigrationBooks(journal: journal) }

    /// The target org (every step but a `dir:` target's export writes to one).
    func targetOrg() throws -> any OrgClient {
        guard let target else {
            throw MigrationError(.refused, "this step needs a target org, and the target is a dir: set")
        }
        return target
    }

    /// The source org (every read but a `dir:` source's comes from one).
    func sourceOrg() throws -> any OrgClient {
        guard let source else {
            throw MigrationError(.refused, "this step needs a source org, and the source is a dir: set")
        }
        return source
    }

    /// Checks the staging store's pair and journal, before anything is written.
    ///
    /// - Throws: ``MigrationError`` (refused) when the store belongs to another pair, or a run
    ///   did not finish and `resume` is false.
    public func preflight(storePath: String, resume: Bool, dryRun: Bool) throws {
        if let bound = try MigrationBooks.boundPair(of: store), bound != pair {
            throw MigrationError(
                .refused,
                "the staging store '\(storePath)' belongs to the migration from org \(bound.sourceOrgID) to org "
                    + "\(bound.targetOrgID), not from \(pair.sourceOrgID) to \(pair.targetOrgID); nothing was "
                    + "written. Leave out --store (each pair gets .syncrun/migrate-SOURCE-TARGET.db) or give another "
                    + "--store file; deleting '\(storePath)' is safe too (each pair's journal of what was written "
                    + "is kept in .syncrun/migrations)"
            )
        }
        guard !dryRun, !resume else { return }
        let plan = try store.readNow { try $0.planJournal() }
        if let open = plan.first(where: { $0.status != .done && $0.status != .skipped }) {
            throw MigrationError(
                .refused,
                "the previous migration with the staging store '\(storePath)' did not finish (step '\(open.stepID)' "
                    + "is \(open.status.rawValue)); run again with --resume to continue it. Nothing is created twice "
                    + "either way: what was written is in the migration journal '\(journal.path)' (never delete it), "
                    + "so deleting the staging store to read the source again is safe too"
            )
        }
    }

    /// Prepares the objects: describes both orgs, leaves out (or refuses, `strict`) the fields the
    /// target lacks or cannot write, one warning per field, and orders them.
    public func prepare(_ sources: MigrationSources, strict: Bool) async throws -> (
        objects: [MigrationObject], targetTypes: [String: [String: String]], warnings: [String]
    ) {
        var warnings: [String] = []
        var sourceDescribes: [String: SObjectDescription] = [:]
        var targetTypes: [String: [String: String]] = [:]
        var objects: [MigrationObject] = []
        var refusals: [String] = []
        var maskRefusals: [String] = []
        var ownerMapping: OwnerMapping?
        let target = try targetOrg()
        for object in sources.objects {
            // A dir: source holds the columns the config's sync ups write, typed and referenced as
            // the target describes them (its read-only soups are not read at all).
            if source == nil, !object.isWritten {
                objects.append(object)
                continue
            }
            let sourceDescribe = try await describe(
                source ?? target,
                object.sobject,
                side: source == nil ? "target" : "source"
            )
            sourceDescribes[object.sobject.lowercased()] = sourceDescribe
            guard object.isWritten else {
                warnings.append(
                    "soup '\(object.soup)' (\(object.sobject)) is read but not written: the config has no sync up "
                        + "for it"
                )
                objects.append(object)
                continue
            }
            let targetDescribe = try await describe(target, object.sobject, side: "target")
            targetTypes[object.sobject.lowercased()] = Dictionary(
                targetDescribe.fields.map { ($0.name.lowercased(), $0.type) },
                uniquingKeysWith: { first, _ in first }
            )
            var prepared = object
            prepared.sobject = targetDescribe.name
            prepared.targetLengths = Dictionary(
                targetDescribe.fields.compactMap { field in field.length.map { (field.name.lowercased(), $0) } },
                uniquingKeysWith: { first, _ in first }
            )
            maskRefusals += Self.maskProblems(of: object, in: targetDescribe)
            prepared.suggestedKey = Self.suggestedKey(in: targetDescribe)
            var notes: [String: String] = [:]
            var renamed: [String: String] = [:]
            var renameNotes: Set<String> = []
            func keep(_ fields: [String], create: Bool) -> [String] {
                var kept: [String] = []
                for field in fields {
                    let lowered = field.lowercased()
                    if field.contains(".") || MigrationOrder.systemFields.contains(lowered)
                        || lowered == object.idField.lowercased()
                    {
                        continue
                    }
                    let described =
                        targetDescribe.field(named: field)
                        ?? NamespaceMapping.counterpart(of: field, among: targetDescribe.fields.map(\.name)).flatMap {
                            targetDescribe.field(named: $0)
                        }
                    guard let description = described else {
                        notes[lowered] = "\(object.sobject).\(field) does not exist in the target"
                        continue
                    }
                    if description.name.lowercased() != lowered {
                        if sourceDescribe.field(named: field)?.type == "reference" {
                            notes[lowered] =
                                "\(object.sobject).\(field) is named \(description.name) in the target; reference "
                                + "fields are not mapped across namespaces"
                            continue
                        }
                        renamed[description.name.lowercased()] = field
                        renameNotes.insert("\(object.sobject).\(field) is written to \(description.name) in the target")
                    }
                    guard create ? description.isCreateable : description.isUpdateable else {
                        notes[lowered] =
                            "\(object.sobject).\(description.name) is not \(create ? "createable" : "updateable") "
                            + "in the target"
                        continue
                    }
                    // (A dir: set's missing columns are simply not written.)
                    if source != nil, sourceDescribe.field(named: field) == nil {
                        notes[lowered] = "\(object.sobject).\(field) does not exist in the source"
                        continue
                    }
                    if ["recordtypeid", "ownerid"].contains(description.name.lowercased()) {
                        guard source != nil else {
                            notes[lowered] =
                                "\(object.sobject).\(description.name): a dir: set holds the source org's ids of "
                                + "record types and users, which only the source org can map to the target's"
                            continue
                        }
                        if !kept.contains(description.name) { kept.append(description.name) }
                        continue
                    }
                    if let reference = sourceDescribe.field(named: field), reference.type == "reference",
                        !reference.referenceTo.contains(where: { name in
                            sources.objects.contains { $0.isWritten && $0.sobject.lowercased() == name.lowercased() }
                                || sources.writtenElsewhere.contains { $0.lowercased() == name.lowercased() }
                        })
                    {
                        notes[lowered] =
                            "\(object.sobject).\(description.name) refers to "
                            + "\(reference.referenceTo.joined(separator: "/")), which this migration does not write"
                        continue
                    }
                    if !kept.contains(description.name) { kept.append(description.name) }
                }
                return kept
            }
            prepared.createFields = keep(object.createFields, create: true)
            prepared.updateFields = keep(object.updateFields, create: false)
            if (prepared.createFields + prepared.updateFields).contains(where: { $0.lowercased() == "recordtypeid" }) {
                let (map, unmatched) = try await recordTypeMap(of: targetDescribe.name)
                prepared.valueMaps["recordtypeid"] = map
                for name in unmatched {
                    warnings.append(
                        "\(object.sobject): the source's record type \(name) has no counterpart in the target; "
                            + "its records fail"
                    )
                }
            }
            if (prepared.createFields + prepared.updateFields).contains(where: { $0.lowercased() == "ownerid" }) {
                let owners: OwnerMapping
                if let built = ownerMapping {
                    owners = built
                } else {
                    owners = try await OwnerMapping.build(
                        source: try sourceOrg(),
                        target: target,
                        runningUser: targetUserID
                    )
                    ownerMapping = owners
                    warnings += owners.warnings
                }
                let queues = owners.queueMap(for: targetDescribe.name, runningUser: targetUserID)
                prepared.valueMaps["ownerid"] = owners.map.merging(queues.map) { user, _ in user }
                prepared.valueMapFallbacks["ownerid"] = targetUserID
                warnings += queues.warnings
            }
            prepared.sourceFieldNames = renamed
            warnings += renameNotes.sorted().map { $0 + " (namespace prefix mapped)" }
            for lowered in notes.keys.sorted() {
                guard let note = notes[lowered] else { continue }
                if strict {
                    refusals.append(note)
                } else {
                    warnings.append(note + "; left out")
                }
            }
            if let external = object.externalIDField {
                guard let field = targetDescribe.field(named: external), field.isExternalID || field.isIDLookup else {
                    throw MigrationError(
                        .refused,
                        "sync up '\(object.syncUp ?? "")': externalIdFieldName '\(external)' is not an external id "
                            + "field of \(object.sobject) in the target; mark it External ID there or use matchFields"
                    )
                }
                prepared.externalIDField = field.name
            }
            objects.append(prepared)
        }
        if !maskRefusals.isEmpty {
            throw MigrationError(
                .refused,
                "masks the target's fields cannot hold:\n" + maskRefusals.map { "  - " + $0 }.joined(separator: "\n")
                    + "\nnothing was written; fix or remove those masks in the sync ups' options.mask"
            )
        }
        if !refusals.isEmpty {
            throw MigrationError(
                .refused,
                "--strict: fields the target lacks or cannot write:\n"
                    + refusals.map { "  - " + $0 }.joined(separator: "\n")
                    + "\nnothing was written; remove them from the config, or run without --strict to leave them out"
            )
        }
        do {
            let references = sourceDescribes.mapValues { describe in
                describe.fields.filter { $0.type == "reference" }.map {
                    SourceReferenceField(name: $0.name, referenceTo: $0.referenceTo, isNillable: $0.isNillable)
                }
            }
            return (
                try MigrationOrder.order(
                    objects,
                    referenceFields: references,
                    writtenElsewhere: sources.writtenElsewhere
                ), targetTypes, warnings
            )
        } catch let error as MigrationConfigError {
            throw MigrationError(.refused, error.message)
        }
    }

    /// The record types of `sobject` paired by developer name and namespace: source id → target id,
    /// and the source's developer names without a counterpart.
    private func recordTypeMap(of sobject: String) async throws -> ([String: String], [String]) {
        func types(_ org: any OrgClient) async throws -> [(id: String, key: String, name: String)] {
            let query = SOQLQuery.select(
                fields: ["Id", "DeveloperName", "NamespacePrefix"],
                from: "RecordType",
                where: .comparison(SOQLFieldPath("SobjectType"), .equal, .string(sobject))
            )
            var result: [(id: String, key: String, name: String)] = []
            for try await page in org.queryPages(query.text) {
                for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                    guard let id = record["Id"]?.stringValue, let name = record["DeveloperName"]?.stringValue
                    else { continue }
                    let namespace = record["NamespacePrefix"]?.stringValue ?? ""
                    let qualified = namespace.isEmpty ? name : "\(namespace)__\(name)"
                    result.append((id, "\(namespace.lowercased())/\(name.lowercased())", qualified))
                }
            }
            return result
        }
        let targetTypes = try await types(try targetOrg())
        // The master record type has the same id in every org.
        var map: [String: String] = ["012000000000000AAA": "012000000000000AAA"]
        var unmatched: [String] = []
        for type in try await types(try sourceOrg()) {
            if let match = targetTypes.first(where: { $0.key == type.key }) {
                map[type.id] = match.id
            } else {
                unmatched.append(type.name)
            }
        }
        return (map, unmatched)
    }

    func describe(_ org: any OrgClient, _ sobject: String, side: String) async throws -> SObjectDescription {
        do {
            return try await org.describe(sobject)
        } catch let error as OrgClientError where error.code == .notFound {
            throw MigrationError(.refused, "\(sobject) does not exist in the \(side) org (describe: \(error.message))")
        } catch let error as OrgClientError {
            throw MigrationError(.refused, "cannot describe \(sobject) in the \(side) org: \(error.message)")
        }
    }

    /// Runs the migration.
    ///
    /// - Parameters:
    ///   - events: The sync downs' events (progress of the read phase).
    ///   - progress: Called after each batch of the write phase.
    /// What is wrong with the masks of `object` for the target's fields: a masked field the sync up
    /// does not write, a reference or id (masking it would break links: remap instead), `null` on a
    /// field the target requires, a text mask on a field that is not text, a fixed text longer than
    /// the field.
    static func maskProblems(of object: MigrationObject, in target: SObjectDescription) -> [String] {
        let written = Set(MigrationOrder.union(object.createFields, object.updateFields).map { $0.lowercased() })
        var problems: [String] = []
        for (field, mask) in object.masks.sorted(by: { $0.key < $1.key }) {
            let name = "\(object.sobject).\(field) (sync up '\(object.syncUp ?? "")')"
            guard written.contains(field.lowercased()) else {
                problems.append(
                    "\(name): masked but not written by the sync up; add it to the field list or drop the mask"
                )
                continue
            }
            guard let described = target.field(named: field) else { continue }  // left out by the field checks
            if let problem = mask.problem(
                fieldType: described.type,
                length: described.length,
                isRequiredOnCreate: described.isRequiredOnCreate
            ) {
                problems.append("\(name): \(problem)")
            }
        }
        return problems
    }

    /// The secret masks are keyed with: `--mask-secret-file`'s, else the pair's journal's (made and
    /// kept on the first masked run; a dry run before any real one uses a throwaway secret).
    func resolvedMaskSecret(for objects: [MigrationObject], options: MigrationOptions) throws -> Data {
        guard objects.contains(where: { $0.isWritten && !$0.masks.isEmpty }) else { return Data() }
        if let secret = options.maskSecret { return secret }
        if options.dryRun { return try journal.maskSecret() ?? MigrationJournal.newMaskSecret() }
        return try journal.maskSecret(creatingAt: now())
    }

    public func run(
        _ sources: MigrationSources,
        storeConfig: StoreConfig?,
        options: MigrationOptions,
        stop: StopSignal,
        events: AsyncStream<SyncEvent>.Continuation?,
        progress: @escaping @Sendable (MigrationProgress) -> Void
    ) async throws -> MigrationReport {
        if let targetSet {
            return try await export(
                to: targetSet,
                sources,
                storeConfig: storeConfig,
                options: options,
                stop: stop,
                events: events,
                progress: progress
            )
        }
        let target = try targetOrg()
        let (objects, targetTypes, warnings) = try await prepare(sources, strict: options.strict)
        var report = MigrationReport()
        report.isDryRun = options.dryRun
        report.warnings = warnings
        let runID = UUID().uuidString
        let steps =
            sources.syncDowns.map { "read:\($0.name)" }
            + objects.filter(\.isWritten).map { "write:\($0.sobject)" }
            + objects.filter { !$0.deferredReferences.isEmpty }.map { "references:\($0.sobject)" }
        var done: Set<String> = []
        if options.resume {
            let journal = try store.readNow { try $0.planJournal() }
            // A journal whose steps all ended is a finished run: --resume then starts a new one.
            if journal.contains(where: { $0.status != .done && $0.status != .skipped }) {
                done = Set(journal.filter { $0.status == .done }.map(\.stepID))
            }
        }
        try registerSoups(objects, storeConfig: storeConfig)
        let startsJournal = !options.dryRun && (!options.resume || done.isEmpty)
        // The id map and intents an older syncrun kept in the staging store move to the journal.
        try books.importStagingBooks(from: store)
        let maskSecret = try resolvedMaskSecret(for: objects, options: options)
        if !options.dryRun {
            try MigrationBooks.bind(store, to: pair, now: now())
            if startsJournal {
                try store.writeNow { [now] in try $0.startPlanJournal(stepIDs: steps, now: now()) }
            }
        }
        // The staging store is written while its sync downs read (writes of objects already
        // read): no long transactions.
        var engineConfiguration = SyncEngineConfiguration()
        engineConfiguration.longTransactions = false
        let engine = source.map {
            SyncEngine(store: store, org: $0, logger: logger, configuration: engineConfiguration)
        }
        if !options.dryRun {
            _ = try engine?.recoverInterruptedRuns()
        }

        // Read, in the config's order, while the objects already read are written: an object's
        // writes start once its own soup and those of the objects before it (its parents) are read.
        let reads = StagedReads(done: done)
        let reader = Task { [done, self] in
            do {
                guard let engine else {
                    // A dir: source: its files, every one checked before anything is written.
                    try loadSet(
                        objects: objects,
                        syncDowns: sources.syncDowns,
                        targetTypes: targetTypes,
                        options: options
                    )
                    await reads.finishedAll()
                    return
                }
                for definition in sources.syncDowns {
                    if !done.contains("read:\(definition.name)") {
                        try await read(definition, engine: engine, options: options, stop: stop, events: events)
                    }
                    if options.deleteMissing {
                        // The staging soup keeps only what the source returns now (an incremental
                        // read does not see deletions): what the id map holds beyond it is missing.
                        try await cleanGhosts(definition, engine: engine, stop: stop, events: events)
                    }
                    await reads.finished("read:\(definition.name)")
                }
                await reads.finishedAll()
            } catch {
                await reads.failed(error)
                throw error
            }
        }

        var soups: [String: (soup: String, idField: String)] = [:]
        for object in objects where object.isWritten {
            soups[object.sobject.lowercased()] = (object.soup, object.idField)
        }
        let foreign = try await foreignReferences(objects, sources: sources, options: options)
        var hasWritten = false
        do {
            // A dir: set is read whole (and every file checked) before anything is written.
            if sourceSet != nil { try await reader.value }
            // Before anything is written: what killed runs created (their intents) joins the id
            // map, and an object whose records cannot be told apart from the target's is refused.
            var adoptedBy: [String: Int] = [:]
            for object in objects where object.isWritten && !done.contains("write:\(object.sobject)") {
                adoptedBy[object.sobject] = try await CreateRecovery(
                    target: target,
                    books: books,
                    sobject: object.sobject,
                    run: runID
                ).recover(userID: targetUserID)
            }
            report.warnings += try await checkDuplicateRisks(objects, reads: reads, done: done, options: options)
            // First pass, parents first.
            var needed: Set<String> = []
            for object in objects {
                needed.formUnion(object.syncDowns.map { "read:\($0)" })
                try await reads.wait(for: needed)
                hasWritten = hasWritten || (object.isWritten && !options.dryRun)
                var entry = MigrationReport.Object(sobject: object.sobject)
                entry.isWritten = object.isWritten
                entry.read = try store.readNow { try $0.entryCount(in: object.soup) }
                if object.isWritten, !done.contains("write:\(object.sobject)") {
                    try journal("write:\(object.sobject)", .running, options)
                    let decider = RecordDecider(
                        target: target,
                        books: books,
                        store: store,
                        object: object,
                        targetFieldTypes: targetTypes[object.sobject.lowercased()] ?? [:],
                        soups: soups,
                        isDryRun: options.dryRun,
                        masker: FieldMasker(secret: maskSecret, masks: object.masks, lengths: object.targetLengths),
                        foreign: foreign,
                        source: source
                    )
                    let adopted = adoptedBy[object.sobject] ?? 0
                    entry.created += adopted
                    try await writeObject(
                        object,
                        decider: decider,
                        entry: &entry,
                        runID: runID,
                        options: options,
                        stop: stop,
                        progress: progress
                    )
                    if adopted > 0 {
                        report.warnings.append(
                            "\(object.sobject): \(adopted) record(s) created by an interrupted run were found in the "
                                + "target and taken into the id map (not created again)"
                        )
                    }
                    try journal("write:\(object.sobject)", .done, options)
                }
                report.objects.append(entry)
            }
            try await reader.value
            report.warnings += await foreign.tally.warnings()
        } catch {
            // The reads stop with the run (a read in progress ends STOPPED, resumable).
            reader.cancel()
            _ = try? await reader.value
            if let refusal = error as? MigrationError, refusal.kind == .refused, !hasWritten, startsJournal {
                // Refused before writing: this run leaves no unfinished journal behind (the next
                // run, once the config is fixed, starts afresh without --resume).
                try? store.writeNow { [now] in try $0.startPlanJournal(stepIDs: [], now: now()) }
            }
            if let refusal = error as? MigrationError, refusal.kind == .refused, hasWritten {
                // A later sync down was refused after earlier objects were written.
                throw MigrationError(
                    .failed,
                    refusal.message + "; the objects read before it were written: fix it and run again with --resume"
                )
            }
            throw error
        }
        // Second pass: references to records written after the record.
        guard !options.dryRun else {
            if options.deleteMissing { try await deleteMissing(objects, into: &report, options: options, stop: stop) }
            return report
        }
        for (position, object) in objects.enumerated()
        where !object.deferredReferences.isEmpty && !done.contains("references:\(object.sobject)") {
            try journal("references:\(object.sobject)", .running, options)
            let pass = ReferencePass(
                target: target,
                books: books,
                store: store,
                object: object,
                run: runID,
                batchSize: options.batchSize
            )
            let total = report.objects[position].read
            let outcome = try await pass.run(stop: stop) { done in
                progress(MigrationProgress(sobject: object.sobject, phase: .references, done: done, total: total))
            }
            report.objects[position].add(outcome)
            try journal("references:\(object.sobject)", .done, options)
        }
        if options.deleteMissing { try await deleteMissing(objects, into: &report, options: options, stop: stop) }
        return report
    }

    /// `--delete-missing`, once every record is written (so the children the source moved to
    /// another parent point at it before the old one goes): the objects' missing records deleted
    /// (a dry run lists them), children before parents.
    private func deleteMissing(
        _ objects: [MigrationObject],
        into report: inout MigrationReport,
        options: MigrationOptions,
        stop: StopSignal
    ) async throws {
        report.deletesMissing = true
        let deleter = MissingRecordDeleter(
            target: try targetOrg(),
            books: books,
            store: store,
            batchSize: options.batchSize
        )
        for object in objects.reversed() where object.isWritten {
            if stop.isStopRequested { throw MigrationError(.failed, "stopped; run again with --resume") }
            guard let position = report.objects.firstIndex(where: { $0.sobject == object.sobject }) else { continue }
            try await deleter.run(object, dryRun: options.dryRun, into: &report.objects[position])
        }
    }

    /// What the decide step needs for polymorphic values of objects this run does not write: the
    /// source's key prefixes (its describe global, read once, only when a written object has a
    /// polymorphic reference), the written objects, the keys of the config's other sync ups.
    private func foreignReferences(
        _ objects: [MigrationObject],
        sources: MigrationSources,
        options: MigrationOptions
    ) async throws -> ForeignReferences {
        let polymorphic = objects.contains { object in
            object.isWritten && object.immediateReferences.contains { $0.referenceTo.count > 1 }
        }
        guard polymorphic else { return .none }
        var foreign = ForeignReferences()
        // A dir: set's ids carry the key prefixes of its source org; the target's name the same
        // standard objects.
        for summary in try await (source ?? targetOrg()).describeGlobal().objects {
            if let prefix = summary.keyPrefix, prefix.count == 3 { foreign.objectByPrefix[prefix] = summary.name }
        }
        foreign.written = Set(objects.filter(\.isWritten).map { $0.sobject.lowercased() })
        foreign.keys = sources.elsewhereKeys
        foreign.strict = options.strict
        return foreign
    }

    /// Deletes from the staging soup the records of `definition` the source no longer returns.
    func cleanGhosts(
        _ definition: SyncDefinition,
        engine: SyncEngine,
        stop: StopSignal,
        events: AsyncStream<SyncEvent>.Continuation?
    ) async throws {
        // `--to dir:` always asks (its files hold what the source returns now); else `--delete-missing` does.
        let reason = targetSet == nil ? "--delete-missing" : "--to dir:"
        let summary: SyncRunSummary
        do {
            summary = try await engine.cleanGhosts(definition, stop: stop, events: events)
        } catch let error as SyncEngineError {
            throw MigrationError(
                .refused,
                "\(reason): sync down '\(definition.name)': \(error.message); nothing was "
                    + (targetSet == nil
                        ? "deleted. Remove LIMIT or OFFSET from its query, or run without --delete-missing"
                        : "written. Remove LIMIT or OFFSET from its query")
            )
        }
        guard summary.status == .done else {
            throw MigrationError(
                .failed,
                "\(reason): asking the source which records of sync down '\(definition.name)' it still returns "
                    + "ended \(summary.status.rawValue)" + (summary.error.map { ": \($0)" } ?? "")
                    + "; nothing was \(targetSet == nil ? "deleted" : "written"). Run again with --resume"
            )
        }
    }

    /// Reads the source through one sync down into the staging store, journaled as `read:<name>`.
    func read(
        _ definition: SyncDefinition,
        engine: SyncEngine,
        options: MigrationOptions,
        stop: StopSignal,
        events: AsyncStream<SyncEvent>.Continuation?
    ) async throws {
        try journal("read:\(definition.name)", .running, options)
        let summary: SyncRunSummary
        do {
            summary = try await engine.syncDown(definition, replace: true, stop: stop, events: events)
        } catch let error as SyncEngineError {
            throw MigrationError(.refused, "sync down '\(definition.name)': \(error.message)")
        }
        guard summary.status == .done else {
            try journal("read:\(definition.name)", summary.status == .stopped ? .stopped : .failed, options)
            throw MigrationError(
                .failed,
                "reading the source through sync down '\(definition.name)' ended \(summary.status.rawValue)"
                    + (summary.error.map { ": \($0)" } ?? "")
                    + "; nothing more was written. Run again with --resume"
            )
        }
        try journal("read:\(definition.name)", .done, options)
    }

    func writeObject(
        _ object: MigrationObject,
        decider: RecordDecider,
        entry: inout MigrationReport.Object,
        runID: String,
        options: MigrationOptions,
        stop: StopSignal,
        progress: @escaping @Sendable (MigrationProgress) -> Void
    ) async throws {
        let applier = BatchApplier(
            target: try targetOrg(),
            books: books,
            sobject: object.sobject,
            externalIDField: object.externalIDField,
            run: runID,
            now: now
        )
        // Parent-first rounds when a required self-reference orders the records; one round otherwise.
        var waiting: Set<String>? = nil
        var round = 0
        // A batch is decided and sent while the ones before it are being written (the target's
        // work and ours overlap), when no decision can depend on an earlier batch: no record of this object
        // waits for another or refers to one, and no key is matched against the target's records
        // (a record the previous batch creates could match).
        let overlaps =
            !options.dryRun && object.parentFirstField == nil && object.matchFields.isEmpty
            && !object.immediateReferences.contains { reference in
                reference.referenceTo.contains { $0.lowercased() == object.sobject.lowercased() }
            }
        // The batches being written, oldest first, each with the records decided when it was
        // sent (for progress). Up to `maxConcurrentRequests` at a time (one collections call each
        // at the default batch size) keep the target busy while we read, decide and record the
        // batches around them; each batch's id map rows are recorded as its answer arrives.
        var writing: [(batch: Task<BatchOutcome, any Error>, decided: Int)] = []
        /// Waits for the oldest batches being written until at most `inFlight` are left, and counts them.
        func finishWriting(leaving inFlight: Int = 0) async throws {
            while writing.count > inFlight {
                let (batch, decided) = writing.removeFirst()
                entry.add(try await batch.value)
                progress(MigrationProgress(sobject: object.sobject, phase: .write, done: decided, total: entry.read))
            }
        }
        do {
            while true {
                round += 1
                var nextWaiting: Set<String> = []
                var progressed = false
                var after: Int64 = 0
                var decided = 0
                let canWait = object.parentFirstField != nil && !options.dryRun
                while true {
                    if stop.isStopRequested { throw MigrationError(.failed, "stopped; run again with --resume") }
                    let page = try store.readNow {
                        try $0.entries(in: object.soup, afterEntryID: after, limit: options.batchSize)
                    }
                    guard let last = page.last else { break }
                    after = last.entryID
                    var records: [[String: OrgValue]] = []
                    for item in page {
                        let record = try OrgValue(parsing: item.json).objectValue ?? [:]
                        if let waiting {
                            let id =
                                OrgValue.value(atPath: object.idField, in: record, ignoringCase: true)?.stringValue
                                ?? ""
                            guard waiting.contains(id) else { continue }
                        }
                        records.append(record)
                    }
                    decided += page.count
                    guard !records.isEmpty else { continue }
                    let decisions = try await decider.decide(records, waiting: canWait)
                    for decision in decisions {
                        if case .wait = decision.action {
                            nextWaiting.insert(decision.sourceID)
                        } else {
                            progressed = true
                        }
                    }
                    if options.dryRun {
                        let planned = Self.plannedOutcome(decisions, into: &entry)
                        entry.add(planned)
                    } else if overlaps {
                        let inFlight = options.maxConcurrentRequests ?? object.maxConcurrentRequests
                        try await finishWriting(leaving: max(1, inFlight) - 1)
                        writing.append((Task { try await applier.apply(decisions) }, decided))
                        continue
                    } else {
                        entry.add(try await applier.apply(decisions))
                    }
                    progress(
                        MigrationProgress(sobject: object.sobject, phase: .write, done: decided, total: entry.read)
                    )
                }
                if nextWaiting.isEmpty { break }
                if !progressed || round > 10_000 {
                    // What still waits has a parent that cannot be written first: a cycle, or a failed parent.
                    let decisions = try await decideWaiting(
                        object,
                        decider: decider,
                        ids: nextWaiting,
                        options: options
                    )
                    entry.add(try await applier.apply(decisions))
                    break
                }
                waiting = nextWaiting
            }
            try await finishWriting()
        } catch {
            // Never leave a batch being written behind: its id map rows are in the store before
            // the run reports (or a resume reads) anything.
            for (batch, _) in writing { _ = try? await batch.value }
            throw error
        }
    }

    /// Refuses (or, with `allowDuplicates`, warns about) the objects whose records this run could
    /// create a second time: no external id, no `matchFields`, records the journal does not map,
    /// and records in the target the journal does not know (a kill followed by the loss of the
    /// journal, or records put there by other means). Reads only; waits for those objects' reads.
    ///
    /// - Returns: The warnings of `allowDuplicates`.
    /// - Throws: ``MigrationError`` (refused) naming every such object and the fixes.
    func checkDuplicateRisks(
        _ objects: [MigrationObject],
        reads: StagedReads,
        done: Set<String>,
        options: MigrationOptions
    ) async throws -> [String] {
        var risks: [(object: MigrationObject, unmapped: Int)] = []
        for object in objects
        where object.isWritten && object.externalIDField == nil && object.matchFields.isEmpty
            && !done.contains("write:\(object.sobject)")
        {
            guard try await targetHoldsUnknownRecords(of: object.sobject) else { continue }
            try await reads.wait(for: Set(object.syncDowns.map { "read:\($0)" }))
            let unmapped = try unmappedSourceRecords(of: object)
            if unmapped > 0 { risks.append((object, unmapped)) }
        }
        guard !risks.isEmpty else { return [] }
        if options.allowDuplicates {
            return risks.map { risk in
                "\(risk.object.sobject): --allow-duplicates: \(risk.unmapped) record(s) the journal does not map are "
                    + "created although the target holds \(risk.object.sobject) records the journal does not know "
                    + "(sync up '\(risk.object.syncUp ?? "")' has no externalIdFieldName and no matchFields): some may "
                    + "now be there twice"
            }
        }
        let lines = risks.map { risk in
            "  - \(risk.object.sobject) (sync up '\(risk.object.syncUp ?? "")'): \(risk.unmapped) record(s) have no "
                + "counterpart in the journal, the sync up has neither externalIdFieldName nor matchFields, and the "
                + "target already holds \(risk.object.sobject) records the journal does not know"
                + (risk.object.suggestedKey.map {
                    "; suggested key: \"matchFields\": [\"\($0)\"] (\(risk.object.sobject).\($0) in the target)"
                } ?? "")
        }
        throw MigrationError(
            .refused,
            "cannot tell which records already exist in the target, so nothing was written:\n"
                + lines.joined(separator: "\n")
                + "\nAdd matchFields (fields that identify a record in both orgs, e.g. \"matchFields\": [\"Name\"]) "
                + "or an externalIdFieldName to the sync up, so the records already there are found; or run with "
                + "--allow-duplicates to create them anyway (records written by a run whose journal was lost are "
                + "then created again). The journal of this pair: '\(journal.path)'"
        )
    }

    /// The key to suggest for an object with none: `Name` when the target's describe has it, else
    /// the first field it marks `idLookup` (an external id, `Email`…), never `Id`.
    static func suggestedKey(in describe: SObjectDescription) -> String? {
        if let name = describe.field(named: "Name") { return name.name }
        return describe.fields.first { $0.isIDLookup && $0.name.lowercased() != "id" }?.name
    }

    /// Whether the target holds a record of `sobject` that the journal does not map.
    private func targetHoldsUnknownRecords(of sobject: String) async throws -> Bool {
        let query = SOQLQuery.select(fields: ["Id"], from: sobject)
        for try await page in try targetOrg().queryPages(query.text) {
            let ids = try (page.body.parse()["records"]?.arrayValue ?? []).compactMap { $0["Id"]?.stringValue }
            let known = try books.mappedTargets(ids)
            if ids.contains(where: { !known.contains($0) }) { return true }
        }
        return false
    }

    /// How many of the staged records of `object` have no id map row.
    private func unmappedSourceRecords(of object: MigrationObject) throws -> Int {
        var after: Int64 = 0
        var unmapped = 0
        while true {
            let page = try store.readNow { try $0.entries(in: object.soup, afterEntryID: after, limit: 1000) }
            guard let last = page.last else { return unmapped }
            after = last.entryID
            var ids: [String] = []
            for item in page {
                let record = try OrgValue(parsing: item.json).objectValue ?? [:]
                if let id = OrgValue.value(atPath: object.idField, in: record, ignoringCase: true)?.stringValue {
                    ids.append(id)
                }
            }
            let mapped = try books.targetIDs(of: ids, sobjects: [object.sobject])
            unmapped += ids.filter { mapped[$0] == nil }.count
        }
    }

    /// The records still waiting after the last round, decided without waiting (they fail).
    private func decideWaiting(
        _ object: MigrationObject,
        decider: RecordDecider,
        ids: Set<String>,
        options: MigrationOptions
    ) async throws -> [RecordDecision] {
        var decisions: [RecordDecision] = []
        for slice in Array(ids).sorted().chunked(options.batchSize) {
            let entries = try store.readNow { try $0.entries(in: object.soup, wherePath: object.idField, isIn: slice) }
            let records = try entries.map { try OrgValue(parsing: $0.json).objectValue ?? [:] }
            decisions += try await decider.decide(records, waiting: false).map { decision in
                guard case .fail(let reason) = decision.action else { return decision }
                return RecordDecision(
                    sourceID: decision.sourceID,
                    action: .fail(reason + " (its parent, a record of the same object, could not be written first)")
                )
            }
        }
        return decisions
    }

    /// A dry run's counts: what would be created, updated, left unchanged or fail.
    static func plannedOutcome(_ decisions: [RecordDecision], into entry: inout MigrationReport.Object) -> BatchOutcome
    {
        var outcome = BatchOutcome()
        for decision in decisions {
            var planned: MigrationReport.PlannedWrite?
            switch decision.action {
            case .create, .upsert:
                outcome.created += 1
                planned = .init(action: .create, sourceID: decision.sourceID, targetID: nil)
            case .update(let targetID, _):
                outcome.updated += 1
                planned = .init(action: .update, sourceID: decision.sourceID, targetID: targetID)
            case .unchanged: outcome.unchanged += 1
            case .wait: break
            case .fail(let reason):
                outcome.failures.append(MigrationFailure(sourceID: decision.sourceID, message: reason))
            }
            if let planned, entry.planned.count < MigrationReport.plannedListed { entry.planned.append(planned) }
        }
        return outcome
    }

    func journal(_ step: String, _ status: PlanJournalEntry.Status, _ options: MigrationOptions) throws {
        guard !options.dryRun else { return }
        try store.writeNow { [now] in try $0.recordPlanStep(step, status: status, now: now()) }
    }

    /// Registers the migrated soups the store lacks: as the store config declares them, else with
    /// a string index on the id field.
    func registerSoups(_ objects: [MigrationObject], storeConfig: StoreConfig?) throws {
        try store.writeNow { writer in
            for object in objects where try !writer.reader.hasSoup(object.soup) {
                var indexes = try storeConfig?.soup(named: object.soup).map { try SoupSpec(declared: $0).indexes } ?? []
                if !indexes.contains(where: { $0.path == object.idField }) {
                    indexes.append(IndexSpec(path: object.idField, type: .string))
                }
                try writer.registerSoup(SoupSpec(name: object.soup, indexes: indexes))
            }
        }
    }
}

/// Which sync downs of a migration have been read into the staging store, for the writes that
/// wait for them.
actor StagedReads {
    private var done: Set<String>
    private var isFinished = false
    private var failure: (any Error)?
    private var waiters: [(steps: Set<String>, continuation: CheckedContinuation<Void, any Error>)] = []

    /// Starts with the read steps an earlier run finished.
    init(done: Set<String>) {
        self.done = done
    }

    /// The step `read:<name>` is done.
    func finished(_ step: String) {
        done.insert(step)
        wake()
    }

    /// Every read is done (or was done before).
    func finishedAll() {
        isFinished = true
        wake()
    }

    /// A read failed: every wait throws `error`.
    func failed(_ error: any Error) {
        failure = error
        wake()
    }

    /// Returns when the read steps `steps` are done; throws the reads' failure.
    func wait(for steps: Set<String>) async throws {
        if isFinished || steps.isSubset(of: done) { return }
        if let failure { throw failure }
        try await withCheckedThrowingContinuation { continuation in
            waiters.append((steps, continuation))
        }
    }

    private func wake() {
        var waiting: [(steps: Set<String>, continuation: CheckedContinuation<Void, any Error>)] = []
        for waiter in waiters {
            if isFinished || waiter.steps.isSubset(of: done) {
                waiter.continuation.resume()
            } else if let failure {
                waiter.continuation.resume(throwing: failure)
            } else {
                waiting.append(waiter)
            }
        }
        waiters = waiting
    }
}
