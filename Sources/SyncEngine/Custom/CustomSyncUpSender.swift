import JSONCore
import Logging
import OrgClient
import SyncConfig

/// A sync up through a plug-in (``SyncUpTargetPlugin``), as a decide step and an apply step.
///
/// *Decide* (``decide(_:)``, reads only, what `--dry-run` runs): for each record of a batch, the
/// outcome known before sending (removed locally, skipped, a conflict from
/// `isNewerThanServer`, a record that cannot be sent) or the write to send with its fields.
/// *Apply* (``send(_:)``): the plug-in's create, update and delete calls, then the server
/// modification dates of what was written.
///
/// No create intent is recorded before sending: a plug-in offers no way to find a create whose
/// response was lost (as for endpoint targets).
struct CustomSyncUpSender: Sendable {
    let plugin: any SyncUpTargetPlugin
    let definition: CustomTargetDefinition
    let plan: SyncUpRequestPlan
    let context: CustomTargetContext

    /// What the run does with one record.
    enum Decision: Sendable, Hashable {
        /// Decided without sending.
        case outcome(SyncUpOutcome)
        /// To send through the plug-in, with the field list's values.
        case send(CustomSyncUpRecord, fields: [String: JSONValue])
    }

    init(
        plugin: any SyncUpTargetPlugin,
        definition: CustomTargetDefinition,
        plan: SyncUpRequestPlan,
        org: any OrgClient,
        logger: Logger
    ) {
        self.plugin = plugin
        self.definition = definition
        self.plan = plan
        self.context = CustomTargetContext(
            syncName: definition.syncName,
            soupName: definition.soupName,
            org: org,
            logger: logger
        )
    }

    /// The plug-in's view of `record`; `nil` when there is nothing to send (removed locally, or
    /// dirty without an operation flag on a target that reads that as nothing to do).
    static func view(of record: SyncUpRecord) -> CustomSyncUpRecord? {
        let action: CustomSyncUpRecord.Action
        switch record.action {
        case .create: action = .create
        case .update: action = .update
        case .delete: action = .delete
        case .removeLocally, .none: return nil
        }
        return CustomSyncUpRecord(
            action: action,
            entryID: record.entryID,
            fields: record.fields,
            id: record.serverID,
            objectType: record.objectType,
            localModificationDate: record.localModificationDate
        )
    }

    /// Decides every record of `records` with reads only (`isNewerThanServer` under
    /// `LEAVE_IF_CHANGED`).
    func decide(_ records: [SyncUpRecord]) async throws -> [Int64: Decision] {
        var decisions: [Int64: Decision] = [:]
        for record in records {
            guard let view = Self.view(of: record) else {
                decisions[record.entryID] = .outcome(record.action == .removeLocally ? .removedLocally : .skipped)
                continue
            }
            guard plugin.isToSyncUp(view) else {
                decisions[record.entryID] = .outcome(.skipped)
                continue
            }
            if view.action != .create, view.id == nil {
                decisions[record.entryID] = .outcome(
                    .failed([
                        SyncUpRequestPlan.localError(
                            "MISSING_ID",
                            "the record to \(view.action.rawValue) has no server id in '\(definition.idFieldName)'"
                        )
                    ])
                )
                continue
            }
            if !plan.isOverwrite, view.action != .create {
                let newer = try await call(view) { try await plugin.isNewerThanServer(view, context: context) }
                switch newer {
                case .success(false):
                    decisions[record.entryID] = .outcome(
                        .conflict(
                            SyncUpConflict(
                                reason: .modifiedOnServer,
                                serverModified: nil,
                                localModified: view.localModificationDate
                            )
                        )
                    )
                    continue
                case .failure(let refusal):
                    decisions[record.entryID] = .outcome(.failed(refusal.errors))
                    continue
                case .success(true):
                    break
                }
            }
            let fields: [String: JSONValue]
            switch view.action {
            case .create: fields = record.body(fieldList: plan.createFields)
            case .update: fields = record.body(fieldList: plan.updateFields)
            case .delete: fields = [:]
            }
            decisions[record.entryID] = .send(view, fields: fields)
        }
        return decisions
    }

    /// Sends the writes of `decisions` in entry-id order and returns each one's outcome.
    func send(_ decisions: [Int64: Decision]) async throws -> [Int64: SyncUpOutcome] {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        for (entryID, decision) in decisions.sorted(by: { $0.key < $1.key }) {
            switch decision {
            case .outcome(let outcome):
                outcomes[entryID] = outcome
            case .send(let record, let fields):
                outcomes[entryID] = try await write(record, fields: fields)
            }
        }
        return outcomes
    }

    /// The server modification dates of the records just created or updated, by server id.
    func writtenDates(_ decisions: [Int64: Decision], outcomes: [Int64: SyncUpOutcome]) async throws
        -> [String: String]
    {
        var dates: [String: String] = [:]
        for (entryID, decision) in decisions.sorted(by: { $0.key < $1.key }) {
            guard case .send(let record, _) = decision, let id = outcomes[entryID]?.serverID else { continue }
            let read = try await call(record) {
                try await plugin.serverModificationDate(of: record, id: id, context: context)
            }
            if case .success(let date?) = read { dates[id] = date }
        }
        return dates
    }

    private func write(_ record: CustomSyncUpRecord, fields: [String: JSONValue]) async throws -> SyncUpOutcome {
        let id = record.id ?? ""
        do {
            switch record.action {
            case .create:
                let created = try await plugin.createOnServer(record, fields: fields, context: context)
                guard !created.isEmpty else {
                    return .failed([
                        SyncUpRequestPlan.localError("MISSING_ID", "the plug-in's createOnServer returned an empty id")
                    ])
                }
                return .created(id: created)
            case .update:
                try await plugin.updateOnServer(record, id: id, fields: fields, context: context)
                return .updated(id: id)
            case .delete:
                do {
                    try await plugin.deleteOnServer(record, id: id, context: context)
                } catch let error as OrgClientError where error.code == .notFound {
                    // Already gone on the server.
                }
                return .deleted
            }
        } catch {
            return .failed(try Self.refusal(error))
        }
    }

    /// Runs one read of the plug-in for a record: `.failure` with the record's errors when the
    /// plug-in refused it (see ``refusal(_:)``).
    private func call<T: Sendable>(_ record: CustomSyncUpRecord, _ body: () async throws -> T) async throws
        -> Result<T, RecordRefusal>
    {
        do {
            return .success(try await body())
        } catch {
            return .failure(RecordRefusal(try Self.refusal(error)))
        }
    }

    /// The errors of a record a plug-in call refused: a ``CustomTargetError``, any error of the
    /// plug-in's own, or an `OrgClientError` with a 4xx status other than 401 and 429 (the
    /// server's errors). Rethrows what ends the run instead: other org client errors (connection,
    /// server errors after retries, an expired session), the engine's errors and cancellation.
    static func refusal(_ error: any Error) throws -> [OrgErrorDetail] {
        switch error {
        case let error as CustomTargetError:
            return [OrgErrorDetail(errorCode: error.code, message: error.message, fields: error.fields)]
        case let error as OrgClientError:
            guard let status = error.httpStatus, (400..<500).contains(status), status != 401, status != 429 else {
                throw error
            }
            return error.serverErrors.isEmpty
                ? [OrgErrorDetail(errorCode: error.code.description, message: error.message)] : error.serverErrors
        case is SyncEngineError, is CancellationError:
            throw error
        default:
            return [OrgErrorDetail(errorCode: "CUSTOM_TARGET_ERROR", message: "\(error)")]
        }
    }
}

/// The server-shaped errors of a record a plug-in call refused.
struct RecordRefusal: Error, Sendable {
    let errors: [OrgErrorDetail]
    init(_ errors: [OrgErrorDetail]) { self.errors = errors }
}
