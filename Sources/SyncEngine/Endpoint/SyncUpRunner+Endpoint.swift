import JSONCore
import OrgClient
import SyncConfig

extension SyncUpRunner {
    /// Checks conflicts, sends and writes one batch of an `endpoint` sync up: the server versions
    /// come from the `modificationDate` request (under `LEAVE_IF_CHANGED`), the writes from the
    /// declared requests, and the written records' new modification dates from the same request,
    /// so the next run does not take this run's own writes for server changes.
    ///
    /// Unlike the sObject targets, no create or update intent is recorded before sending: an
    /// endpoint offers no way to find a create whose response was lost.
    func processEndpoint(
        _ records: [SyncUpRecord],
        info: EndpointSyncUpInfo,
        plan: SyncUpRequestPlan,
        syncName: String,
        progress: inout SyncUpProgress
    ) async throws {
        let client = try EndpointDownFetcher.endpointClient(org, syncName: syncName)
        let sender = EndpointSyncUpSender(client: client, info: info, plan: plan)
        let versions = plan.isOverwrite ? [:] : try await sender.serverVersions(of: records)
        var outcomes: [Int64: SyncUpOutcome] = [:]
        var toSend: [SyncUpRecord] = []
        for record in records {
            if let decided = SyncUpConflictChecker.outcomeBeforeSending(record, server: versions[record.entryID]) {
                outcomes[record.entryID] = decided
            } else {
                toSend.append(record)
            }
        }
        if !toSend.isEmpty { outcomes.merge(try await sender.send(toSend)) { $1 } }
        let dates = try await writtenDates(records, outcomes: outcomes, info: info, plan: plan, client: client)
        let state = progress.batchWritten(records, outcomes: outcomes)
        let writeBack = SyncUpWriteBack(
            soupName: state.soupName,
            idFieldName: plan.idFieldName,
            modificationDateFieldName: plan.modificationDateFieldName
        )
        try await store.write { [outcomes] writer in
            try writeBack.apply(records, outcomes: outcomes, serverDates: dates, writer: writer)
            _ = try writer.updateSyncState(state)
        }
        events?.yield(.batch(progress.batchProgress))
    }

    /// The server modification dates of the records just created or updated, by id, read with the
    /// `modificationDate` request (none when it is not declared).
    private func writtenDates(
        _ records: [SyncUpRecord],
        outcomes: [Int64: SyncUpOutcome],
        info: EndpointSyncUpInfo,
        plan: SyncUpRequestPlan,
        client: any OrgEndpointClient
    ) async throws -> [String: String] {
        guard let read = info.modificationDate else { return [:] }
        var dates: [String: String] = [:]
        for record in records {
            guard let id = outcomes[record.entryID]?.serverID else { continue }
            var fields = JSONObject(record.fields)
            fields[plan.idFieldName] = .string(id)
            guard let call = try? EndpointRequests.call(read.request, record: .object(fields)) else { continue }
            do {
                let reply = try await client.send(call)
                let value = (try? JSONValue(parsing: reply.body)).flatMap {
                    EndpointRequests.value(at: read.path, in: $0)
                }
                if let date = EndpointSyncUpSender.dateText(value) { dates[id] = date }
            } catch let error as OrgClientError where SingleSyncUpSender.isRecordRefusal(error) {
                continue  // written, but not readable now: the date stays as it was
            }
        }
        return dates
    }
}
