import Foundation
import JSONCore
import OrgClient
import SOQL
import SyncConfig

/// One write an endpoint sync up would send for a record, decided before anything is sent.
enum EndpointWrite: Sendable, Hashable {
    /// Send `call`; for a create, the new id is at `idPath` of the response.
    case send(EndpointCall, action: SyncUpAction, idPath: String?)
    /// The record cannot be written (a placeholder without a value…).
    case invalid(OrgErrorDetail)
}

/// The `endpoint` sync up target: the declared create / update / delete requests per record, the
/// new id read at `create.idPath`, and, under `LEAVE_IF_CHANGED` with a `modificationDate`
/// request, the server's modification date read first so records changed on the server are left
/// as conflicts. The optional `batch` form sends several writes in one request.
///
/// Decide / apply: ``write(for:)`` decides the call of a record (what `--dry-run` shows);
/// ``send(_:)`` sends them.
struct EndpointSyncUpSender: Sendable {
    let client: any OrgEndpointClient
    let info: EndpointSyncUpInfo
    let plan: SyncUpRequestPlan

    /// The call for `record` (create, update or delete).
    func write(for record: SyncUpRecord) -> EndpointWrite {
        let json = JSONValue.object(JSONObject(record.fields))
        do {
            switch record.action {
            case .create:
                let body = try EndpointRequests.body(info.create.request.body, record: json, fields: plan.createFields)
                let call = try EndpointRequests.call(info.create.request, record: json, body: body)
                return .send(call, action: .create, idPath: info.create.idPath)
            case .update:
                guard record.serverID != nil else {
                    return .invalid(SyncUpRequestPlan.localError("MISSING_ID", "the record to update has no server id"))
                }
                let body = try EndpointRequests.body(info.update.body, record: json, fields: plan.updateFields)
                return .send(
                    try EndpointRequests.call(info.update, record: json, body: body),
                    action: .update,
                    idPath: nil
                )
            case .delete:
                guard record.serverID != nil else {
                    return .invalid(SyncUpRequestPlan.localError("MISSING_ID", "the record has no server id to delete"))
                }
                let body = try EndpointRequests.body(info.delete.body, record: json, fields: nil)
                return .send(
                    try EndpointRequests.call(info.delete, record: json, body: body),
                    action: .delete,
                    idPath: nil
                )
            case .removeLocally, .none:
                return .invalid(SyncUpRequestPlan.localError("NOTHING_TO_SEND", "the record has no change to send"))
            }
        } catch {
            return .invalid(SyncUpRequestPlan.localError("INVALID_PLACEHOLDER", error.message))
        }
    }

    /// The server version of every record to update or delete, read with the `modificationDate`
    /// request (404: deleted on the server).
    func serverVersions(of records: [SyncUpRecord]) async throws -> [Int64: SyncUpConflictChecker.ServerVersion] {
        guard let read = info.modificationDate else { return [:] }
        var versions: [Int64: SyncUpConflictChecker.ServerVersion] = [:]
        for record in records where record.action == .update || record.action == .delete {
            guard record.serverID != nil else { continue }
            let call: EndpointCall
            do {
                call = try EndpointRequests.call(read.request, record: JSONValue.object(JSONObject(record.fields)))
            } catch {
                continue  // the write itself reports the missing value
            }
            do {
                let reply = try await client.send(call)
                let value = (try? JSONValue(parsing: reply.body)).flatMap {
                    EndpointRequests.value(at: read.path, in: $0)
                }
                versions[record.entryID] = .present(modified: Self.dateText(value))
            } catch let error as OrgClientError where error.httpStatus == 404 || error.code == .notFound {
                versions[record.entryID] = .deleted
            }
        }
        return versions
    }

    /// Sends the writes of `records` (one call each, or `batch` calls) and returns each outcome.
    ///
    /// - Throws: `OrgClientError` without an HTTP answer about the record (network, session): the
    ///   run fails. A refusal of one record becomes that record's outcome.
    func send(_ records: [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome] {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        var pending: [(record: SyncUpRecord, call: EndpointCall, action: SyncUpAction, idPath: String?)] = []
        for record in records {
            switch write(for: record) {
            case .invalid(let error): outcomes[record.entryID] = .failed([error])
            case .send(let call, let action, let idPath): pending.append((record, call, action, idPath))
            }
        }
        if let batch = info.batch {
            var start = 0
            while start < pending.count {
                try Task.checkCancellation()
                let slice = Array(pending[start..<min(start + batch.maxBatchSize, pending.count)])
                start += slice.count
                let replies = try await sendBatch(slice.map(\.call), batch: batch)
                for (entry, reply) in zip(slice, replies) {
                    outcomes[entry.record.entryID] = outcome(
                        of: entry.record,
                        action: entry.action,
                        idPath: entry.idPath,
                        status: reply.status,
                        body: reply.body
                    )
                }
            }
            return outcomes
        }
        for entry in pending {
            try Task.checkCancellation()
            do {
                let reply = try await client.send(entry.call)
                let body = (try? JSONValue(parsing: reply.body)) ?? .null
                outcomes[entry.record.entryID] = outcome(
                    of: entry.record,
                    action: entry.action,
                    idPath: entry.idPath,
                    status: reply.status,
                    body: body
                )
            } catch let error as OrgClientError where SingleSyncUpSender.isRecordRefusal(error) {
                outcomes[entry.record.entryID] = refusal(of: entry.record, action: entry.action, error: error)
            }
        }
        return outcomes
    }

    private func refusal(of record: SyncUpRecord, action: SyncUpAction, error: OrgClientError) -> SyncUpOutcome {
        if error.httpStatus == 404 {
            if action == .delete { return .deleted }
            if action == .update, !plan.isOverwrite {
                return .conflict(
                    SyncUpConflict(
                        reason: .deletedOnServer,
                        serverModified: nil,
                        localModified: record.localModificationDate
                    )
                )
            }
        }
        return .failed(
            error.serverErrors.isEmpty
                ? [OrgErrorDetail(errorCode: "\(error.code)", message: error.message)] : error.serverErrors
        )
    }

    /// The outcome of one answered write (a single reply, or one entry of a batch reply).
    private func outcome(of record: SyncUpRecord, action: SyncUpAction, idPath: String?, status: Int, body: JSONValue)
        -> SyncUpOutcome
    {
        guard (200..<300).contains(status) else {
            if status == 404, action == .delete { return .deleted }
            if status == 404, action == .update, !plan.isOverwrite {
                return .conflict(
                    SyncUpConflict(
                        reason: .deletedOnServer,
                        serverModified: nil,
                        localModified: record.localModificationDate
                    )
                )
            }
            var errors = (body.arrayValue ?? []).compactMap { entry -> OrgErrorDetail? in
                guard let message = entry["message"]?.stringValue else { return nil }
                return OrgErrorDetail(errorCode: entry["errorCode"]?.stringValue ?? "HTTP_\(status)", message: message)
            }
            if errors.isEmpty {
                let message = body["message"]?.stringValue ?? body.stringValue ?? "the endpoint answered HTTP \(status)"
                errors = [OrgErrorDetail(errorCode: "HTTP_\(status)", message: message)]
            }
            return .failed(errors)
        }
        switch action {
        case .create:
            let id: String?
            switch idPath.flatMap({ EndpointRequests.value(at: $0, in: body) }) {
            case .string(let text)?: id = text.isEmpty ? nil : text
            case .integer(let number)?: id = String(number)
            default: id = nil
            }
            guard let id else {
                return .failed([
                    SyncUpRequestPlan.localError(
                        "MISSING_ID_IN_RESPONSE",
                        "the create response has no id at 'create.idPath' '\(idPath ?? "")'; point 'idPath' at the new id"
                    )
                ])
            }
            return .created(id: id)
        case .update:
            return .updated(id: record.serverID ?? "")
        default:
            return .deleted
        }
    }

    private func sendBatch(_ calls: [EndpointCall], batch: EndpointBatch) async throws
        -> [(status: Int, body: JSONValue)]
    {
        let entries: [JSONValue] = calls.map { call in
            var entry: JSONObject = ["method": .string(call.method), "path": .string(call.target)]
            if let body = call.body { entry["body"] = (try? JSONValue(parsing: body)) ?? .string(body) }
            return .object(entry)
        }
        let batchCall = try EndpointRequests.call(batch.request, body: JSONValue.array(entries).jsonText)
        let reply = try await client.send(batchCall)
        guard case .array(let results) = try JSONValue(parsing: reply.body), results.count == calls.count else {
            throw OrgClientError(
                code: .invalidResponse,
                message: "the batch endpoint '\(batchCall.path)' did not answer a JSON array of one "
                    + "{\"status\", \"body\"} per write, in order"
            )
        }
        return results.map { result in
            (Int(result["status"]?.integerValue ?? 0), result["body"] ?? .null)
        }
    }

    /// A modification date as the store compares it: text as sent, epoch ms as a date-time.
    static func dateText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .integer(let milliseconds)?: SalesforceDateTime.wireText(milliseconds: milliseconds)
        default: nil
        }
    }
}
