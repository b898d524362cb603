import SoupStore
import SyncConfig
import SyncLedger
import SyncPlan

/// How ``SyncEngine/run(_:definitions:options:stop:events:)`` runs a plan.
public struct PlanRunOptions: Sendable, Hashable {
    /// Sync downs ignore their watermarks (fetch everything, then store the new watermark).
    public var full: Bool
    /// Recreate stored definitions that differ from the config (resets their watermark).
    public var replace: Bool
    /// Continue the latest run: run only the steps it did not finish `DONE` (see
    /// ``SyncEngine/run(_:definitions:options:stop:events:)``).
    public var resume: Bool
    /// Preview every step with reads only (``SyncEngine/preview(_:operation:full:replace:stop:)``):
    /// no sync is created, nothing is journaled, nothing is written to the store or the org.
    public var dryRun: Bool

    /// Creates options.
    public init(full: Bool = false, replace: Bool = false, resume: Bool = false, dryRun: Bool = false) {
        self.full = full
        self.replace = replace
        self.resume = resume
        self.dryRun = dryRun
    }
}

/// What became of one plan step.
public struct PlanStepResult: Sendable, Hashable {
    /// How the step ended.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// The run ended `DONE` (records may still have failed or conflicted: see ``summary``).
        case done = "DONE"
        /// The run ended `FAILED`, or could not start.
        case failed = "FAILED"
        /// The run ended `STOPPED` (SIGINT / SIGTERM between pages or batches).
        case stopped = "STOPPED"
        /// Not run: a step it depends on did not end `DONE`.
        case skipped = "SKIPPED"
        /// Not run: the plan run was stopped before it, or (when resuming) it had ended `DONE`.
        case notRun = "NOT_RUN"
    }

    /// The step.
    public var step: PlanStep
    /// How it ended.
    public var status: Status
    /// The run's totals, when it ran.
    public var summary: SyncRunSummary?
    /// What the step would change, for a dry run (status `DONE` when the preview succeeded).
    public var preview: SyncPreview?
    /// Why it failed or did not run.
    public var message: String?

    /// Creates a result.
    public init(step: PlanStep, status: Status, summary: SyncRunSummary? = nil, message: String? = nil) {
        self.step = step
        self.status = status
        self.summary = summary
        self.message = message
    }

    /// Whether the step needs no attention: it ended `DONE` with no failed or conflicted record,
    /// or was not run because a resumed run had already finished it.
    public var isClean: Bool {
        switch status {
        case .done: summary?.isClean ?? true
        case .notRun: message == PlanRunner.alreadyDone
        case .failed, .stopped, .skipped: false
        }
    }
}

/// The outcome of a plan run, step by step in plan order.
public struct PlanRunReport: Sendable, Hashable {
    /// One result per step of the plan.
    public var steps: [PlanStepResult]
    /// What the run decided that concerns the whole plan (a resume with nothing to continue).
    public var notes: [String] = []

    /// Creates a report.
    public init(steps: [PlanStepResult], notes: [String] = []) {
        self.steps = steps
        self.notes = notes
    }

    /// Whether every step ended `DONE` with no failed or conflicted record (exit status 0).
    public var isClean: Bool { steps.allSatisfy(\.isClean) }
}

/// The problems that keep a plan from starting: nothing was run.
public struct PlanRunRefused: Error, Sendable, CustomStringConvertible {
    /// One problem per sync that cannot run, each naming the sync.
    public var problems: [SyncEngineError]

    public var description: String {
        "the plan cannot run:\n" + problems.map { "  - " + $0.message }.joined(separator: "\n")
    }
}

/// Runs a plan step by step (issue: `syncrun run`): prepares every sync first, then runs the
/// steps in plan order; a step whose dependency did not end `DONE` is skipped, independent steps
/// still run; a stop request ends the current step `STOPPED` and leaves the rest not run.
/// Each step's progress is journaled in the store so that a stopped or killed run can be resumed.
struct PlanRunner: Sendable {
    static let alreadyDone = "ended DONE in the run being resumed"
    static let nothingToResume =
        "nothing to resume: the latest run ended every step DONE; the whole plan ran as a new run"

    let engine: SyncEngine
    let plan: SyncPlan
    let definitions: [String: SyncDefinition]

    func run(
        options: PlanRunOptions,
        stop: StopSignal,
        events: AsyncStream<SyncEvent>.Continuation?
    ) async throws -> PlanRunReport {
        let store = engine.store
        let now = engine.registry.now
        if options.dryRun { return await preview(options: options, stop: stop, events: events) }
        var toRun = try stepsToRun(resume: options.resume)
        var continuing = options.resume
        var notes: [String] = []
        if options.resume, toRun.isEmpty {
            // The latest run finished every step: a run killed before it wrote its journal, or
            // local changes made since, would otherwise be left unsent by a run that exits 0.
            toRun = Set(plan.steps.map(\.id))
            continuing = false
            notes.append(Self.nothingToResume)
        }
        try preflight(toRun, replace: options.replace)

        if !continuing {
            try await store.write { [ids = plan.steps.map(\.id)] in try $0.startPlanJournal(stepIDs: ids, now: now) }
        }
        var results: [String: PlanStepResult] = [:]
        var ordered: [PlanStepResult] = []
        // For a skipped step, the failed or stopped step that caused it.
        var rootCauses: [String: PlanStepResult] = [:]
        for step in plan.steps {
            let result: PlanStepResult
            if !toRun.contains(step.id) {
                result = PlanStepResult(step: step, status: .notRun, message: Self.alreadyDone)
            } else if stop.isStopRequested {
                result = PlanStepResult(step: step, status: .notRun, message: "the run was stopped before this step")
            } else if let blocker = step.dependsOn.lazy.compactMap({ results[$0] }).first(where: {
                !$0.allowsDependents
            }) {
                var message = "skipped: it depends on \(blocker.step.id), which \(blocker.outcomeDescription)"
                if let root = rootCauses[blocker.step.id] {
                    message += " because \(root.step.id) \(root.outcomeDescription)"
                }
                rootCauses[step.id] = rootCauses[blocker.step.id] ?? blocker
                result = PlanStepResult(step: step, status: .skipped, message: message)
                events?.yield(.warning(syncName: step.syncName, message: "step \(step.id) " + message))
                try await journal(step.id, .skipped)
            } else {
                try await journal(step.id, .running)
                result = await execute(step, options: options, stop: stop, events: events)
                try await journal(step.id, Self.journalStatus(result.status))
            }
            results[step.id] = result
            ordered.append(result)
        }
        return PlanRunReport(steps: ordered, notes: notes)
    }

    /// Previews every step, in plan order. Nothing is written, so a failed preview does not keep
    /// its dependents from being previewed (they are, from the store's current state).
    private func preview(
        options: PlanRunOptions,
        stop: StopSignal,
        events: AsyncStream<SyncEvent>.Continuation?
    ) async -> PlanRunReport {
        var results: [PlanStepResult] = []
        for step in plan.steps {
            guard !stop.isStopRequested else {
                results.append(
                    PlanStepResult(step: step, status: .notRun, message: "the dry run was stopped before this step")
                )
                continue
            }
            guard let definition = definitions[step.syncName] else {
                results.append(
                    PlanStepResult(
                        step: step,
                        status: .failed,
                        message: SyncEngineError.unknownSync(step.syncName).message
                    )
                )
                continue
            }
            let operation: SyncOperation =
                switch step.kind {
                case .syncUp: .syncUp
                case .syncDown: .syncDown
                case .cleanGhosts: .cleanGhosts
                }
            do {
                let preview = try await engine.preview(
                    definition,
                    operation: operation,
                    full: options.full,
                    replace: options.replace,
                    stop: stop
                )
                var result = PlanStepResult(step: step, status: .done)
                result.preview = preview
                results.append(result)
            } catch {
                let message = SyncEngineError.wrapping(error, syncName: step.syncName).message
                events?.yield(
                    .warning(syncName: step.syncName, message: "step \(step.id) cannot be previewed: \(message)")
                )
                results.append(PlanStepResult(step: step, status: .failed, message: message))
            }
        }
        return PlanRunReport(steps: results)
    }

    /// The ids of the steps this run executes: all, or when resuming the ones the journal does
    /// not show `DONE` (with no journal: the steps of syncs left `STOPPED`).
    private func stepsToRun(resume: Bool) throws -> Set<String> {
        let all = Set(plan.steps.map(\.id))
        guard resume else { return all }
        let journal = try engine.store.read { try $0.planJournal() }
        if !journal.isEmpty {
            let done = Set(journal.filter { $0.status == .done }.map(\.stepID))
            return all.subtracting(done)
        }
        let stopped = Set(try engine.syncStates().filter { $0.status == .stopped }.compactMap(\.name))
        return Set(plan.steps.filter { stopped.contains($0.syncName) }.map(\.id))
    }

    /// Creates (or checks) the stored sync of every step to run; refuses the whole plan, listing
    /// every problem, when one cannot run.
    private func preflight(_ stepIDs: Set<String>, replace: Bool) throws {
        var problems: [SyncEngineError] = []
        var seen: Set<String> = []
        for step in plan.steps where stepIDs.contains(step.id) && seen.insert(step.syncName).inserted {
            guard let definition = definitions[step.syncName] else {
                problems.append(SyncEngineError.unknownSync(step.syncName))
                continue
            }
            do {
                try engine.prepare(definition, replace: replace)
            } catch let error as SyncEngineError {
                problems.append(error)
            }
        }
        if !problems.isEmpty { throw PlanRunRefused(problems: problems) }
    }

    private func execute(
        _ step: PlanStep,
        options: PlanRunOptions,
        stop: StopSignal,
        events: AsyncStream<SyncEvent>.Continuation?
    ) async -> PlanStepResult {
        guard let definition = definitions[step.syncName] else {
            return PlanStepResult(
                step: step,
                status: .failed,
                message: SyncEngineError.unknownSync(step.syncName).message
            )
        }
        do {
            let summary: SyncRunSummary
            switch step.kind {
            case .syncUp:
                summary = try await engine.syncUp(definition, stop: stop, events: events).runSummary
            case .syncDown:
                summary = try await engine.syncDown(definition, full: options.full, stop: stop, events: events)
            case .cleanGhosts:
                summary = try await engine.cleanGhosts(definition, stop: stop, events: events)
            }
            let status: PlanStepResult.Status =
                switch summary.status {
                case .done: .done
                case .stopped: .stopped
                default: .failed
                }
            return PlanStepResult(step: step, status: status, summary: summary, message: summary.error)
        } catch {
            let message = SyncEngineError.wrapping(error, syncName: step.syncName).message
            events?.yield(.warning(syncName: step.syncName, message: "step \(step.id) failed: \(message)"))
            return PlanStepResult(step: step, status: .failed, message: message)
        }
    }

    private func journal(_ stepID: String, _ status: PlanJournalEntry.Status) async throws {
        let now = engine.registry.now
        do {
            try await engine.store.write { try $0.recordPlanStep(stepID, status: status, now: now) }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: nil)
        }
    }

    private static func journalStatus(_ status: PlanStepResult.Status) -> PlanJournalEntry.Status {
        switch status {
        case .done: .done
        case .failed: .failed
        case .stopped: .stopped
        case .skipped: .skipped
        case .notRun: .pending
        }
    }
}

extension PlanStepResult {
    /// Whether the steps that depend on this one may run: it ended `DONE` (now or, when resuming,
    /// in the run being resumed). Failed or conflicted records do not block dependents: they stay
    /// marked local, and sync down protects them.
    fileprivate var allowsDependents: Bool {
        status == .done || (status == .notRun && message == PlanRunner.alreadyDone)
    }

    fileprivate var outcomeDescription: String {
        switch status {
        case .done: "ended DONE"
        case .failed: "failed"
        case .stopped: "was stopped"
        case .skipped: "was skipped"
        case .notRun: "did not run"
        }
    }
}

extension SyncEngine {
    /// Runs `plan`: creates every sync it names (on first use; drift is refused unless
    /// `options.replace`), then runs its steps in plan order: sync ups, sync downs, resyncs and
    /// ghost cleaning. A step whose dependency did not end `DONE` is skipped; independent steps
    /// still run. A stop request ends the current step `STOPPED`; the steps after it are not run.
    ///
    /// Every step's progress is journaled in the store (`syncrun_plan_journal`). With
    /// `options.resume` only the steps the latest run did not finish `DONE` run again (stopped,
    /// failed, skipped, never started, or left running by a killed process); without a journal,
    /// the steps of syncs left `STOPPED` (the SDK's restart with `restartStoppedSyncs`).
    ///
    /// - Parameters:
    ///   - definitions: The config's syncs by name; every step's sync must be there.
    ///   - events: Receives every step's events; not finished by the engine.
    /// - Returns: One result per step, in plan order.
    /// - Throws: ``PlanRunRefused`` (nothing ran) when a sync cannot run: an unsupported target,
    ///   a definition that differs from the stored one, a soup the store lacks; `SyncEngineError`
    ///   when the store cannot be read or written.
    public func run(
        _ plan: SyncPlan,
        definitions: [String: SyncDefinition],
        options: PlanRunOptions = PlanRunOptions(),
        stop: StopSignal = StopSignal(),
        events: AsyncStream<SyncEvent>.Continuation? = nil
    ) async throws -> PlanRunReport {
        try await PlanRunner(engine: self, plan: plan, definitions: definitions).run(
            options: options,
            stop: stop,
            events: events
        )
    }
}
