import OrgClient

/// Sends one batch of records through Bulk API 2.0 ingest jobs (real-org.md §3.2): one `upsert`
/// job per sObject type for creates that carry an external id, one `update` and one `delete` job
/// per type, each uploaded as CSV, closed, and awaited.
///
/// Ingest results come back in no guaranteed order, so records are matched to results by the
/// echoed upsert key (creates) or `Id` (updates, deletes), never by position. Creates without an
/// external id, deletes without a type, duplicate keys and updates of records deleted on the
/// server go through sObject Collections as before (``CollectionSyncUpSender``). A record the job
/// refused, or never reached, fails with the server's reason in `__last_error__`.
struct IngestSyncUpSender: Sendable {
    let org: any BulkIngestClient
    let plan: SyncUpRequestPlan
    /// The sync, for the deadline's message.
    var syncName: String
    /// How a job is awaited (the engine's clock and ``SyncEngineConfiguration/bulkJobPolling``).
    var poller: BulkJobPoller

    private struct Row {
        var entryID: Int64
        var key: String
        var fields: [String: OrgValue]
    }

    func send(_ records: [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome] {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        var upserts: [String: [Row]] = [:]
        var updates: [String: [Row]] = [:]
        var deletes: [String: [Row]] = [:]
        var viaCollections: [SyncUpRecord] = []
        var seenKeys: Set<String> = []
        for record in records {
            switch plan.request(for: record) {
            case .create:
                viaCollections.append(record)
            case .upsert(let type, let externalID, let fields):
                guard seenKeys.insert("\(type)/\(externalID.lowercased())").inserted else {
                    viaCollections.append(record)  // a second record with the same key: no way to tell results apart
                    continue
                }
                upserts[type, default: []].append(Row(entryID: record.entryID, key: externalID, fields: fields))
            case .update(let type, let id, let fields):
                guard seenKeys.insert(id).inserted else {
                    viaCollections.append(record)
                    continue
                }
                updates[type, default: []].append(Row(entryID: record.entryID, key: id, fields: fields))
            case .delete(let type, let id):
                guard let type, seenKeys.insert(id).inserted else {
                    viaCollections.append(record)
                    continue
                }
                deletes[type, default: []].append(Row(entryID: record.entryID, key: id, fields: [:]))
            case .invalid(let error):
                outcomes[record.entryID] = .failed([error])
            }
        }
        if let field = plan.externalIDField {
            for type in upserts.keys.sorted() {
                let results = try await run(
                    type,
                    "upsert",
                    externalIDField: field,
                    keyColumn: field,
                    upserts[type] ?? []
                )
                for (row, result) in results {
                    outcomes[row.entryID] = result.map { .created(id: $0) } ?? .failed(result.errors)
                }
            }
        }
        var recreate: Set<Int64> = []
        for type in updates.keys.sorted() {
            for (row, result) in try await run(
                type,
                "update",
                externalIDField: nil,
                keyColumn: "Id",
                updates[type] ?? []
            ) {
                if result.id != nil {
                    outcomes[row.entryID] = .updated(id: row.key)
                } else if SyncUpRequestPlan.isNotFound(result.errors) {
                    recreate.insert(row.entryID)  // deleted on the server: collections re-create or leave it (§7.6)
                } else {
                    outcomes[row.entryID] = .failed(result.errors)
                }
            }
        }
        for type in deletes.keys.sorted() {
            for (row, result) in try await run(
                type,
                "delete",
                externalIDField: nil,
                keyColumn: "Id",
                deletes[type] ?? []
            ) {
                let gone = result.id != nil || SyncUpRequestPlan.isNotFound(result.errors)
                outcomes[row.entryID] = gone ? .deleted : .failed(result.errors)
            }
        }
        viaCollections += records.filter { recreate.contains($0.entryID) }
        if !viaCollections.isEmpty {
            outcomes.merge(try await CollectionSyncUpSender(org: org, plan: plan).send(viaCollections)) { $1 }
        }
        return outcomes
    }

    /// The outcome of one row: the server id, or the errors.
    private struct RowResult {
        var id: String?
        var errors: [OrgErrorDetail] = []

        func map(_ transform: (String) -> SyncUpOutcome) -> SyncUpOutcome? { id.map(transform) }
    }

    /// Runs one ingest job over `rows` and returns each row's result.
    private func run(
        _ type: String,
        _ operation: String,
        externalIDField: String?,
        keyColumn: String,
        _ rows: [Row]
    ) async throws -> [(Row, RowResult)] {
        guard !rows.isEmpty else { return [] }
        var columns = [keyColumn]
        var seen: Set<String> = [keyColumn.lowercased()]
        if operation != "delete" {
            for row in rows {
                for name in row.fields.keys.sorted() where seen.insert(name.lowercased()).inserted {
                    columns.append(name)
                }
            }
        }
        var csv = Self.line(columns)
        for row in rows {
            csv += Self.line(
                columns.map { column in
                    if column == keyColumn { return row.key }
                    return row.fields[column].map(Self.csvText) ?? ""
                }
            )
        }
        let job = try await org.createIngestJob(type, operation: operation, externalIDField: externalIDField)
        do {
            try await org.uploadIngestData(job.id, csv: csv)
            _ = try await org.closeIngestJob(job.id, abort: false)
        } catch {
            _ = try? await org.closeIngestJob(job.id, abort: true)
            throw error
        }
        let info = try await poller.waitUntilEnded(jobID: job.id, kind: .ingest, syncName: syncName, known: job) {
            try await org.ingestJob(job.id)
        }
        guard info.state == .jobComplete else {
            let detail = OrgErrorDetail(
                errorCode: "BULK_JOB_\(info.stateText.uppercased())",
                message: "the Bulk API 2.0 \(operation) job \(job.id) ended \(info.stateText)"
                    + (info.errorMessage.map { ": \($0)" } ?? "")
            )
            return rows.map { ($0, RowResult(errors: [detail])) }
        }
        var results: [String: RowResult] = [:]
        for record in try Self.records(try await org.ingestResults(job.id, .successful)) {
            guard let key = record[keyColumn], let id = record["sf__Id"] else { continue }
            results[key.lowercased()] = RowResult(id: id)
        }
        for record in try Self.records(try await org.ingestResults(job.id, .failed)) {
            guard let key = record[keyColumn] else { continue }
            results[key.lowercased()] = RowResult(errors: [Self.errorDetail(record["sf__Error"] ?? "")])
        }
        let unprocessed = OrgErrorDetail(
            errorCode: "UNPROCESSED",
            message: "the Bulk API 2.0 job \(job.id) did not process this record; sync up again"
        )
        return rows.map { row in (row, results[row.key.lowercased()] ?? RowResult(errors: [unprocessed])) }
    }

    /// `CODE:message:fields` (Bulk's `sf__Error`) as an error detail.
    static func errorDetail(_ text: String) -> OrgErrorDetail {
        var parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isUppercase || $0 == "_" }) else {
            return OrgErrorDetail(errorCode: "BULK_ERROR", message: text)
        }
        var fields: [String] = []
        if let colon = parts[1].lastIndex(of: ":") {
            let tail = parts[1][parts[1].index(after: colon)...]
            if tail.isEmpty || tail.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "," }) {
                fields = tail.split(separator: ",").map(String.init)
                parts[1] = String(parts[1][..<colon])
            }
        }
        return OrgErrorDetail(errorCode: parts[0], message: parts[1], fields: fields)
    }

    /// The records of a result CSV as dictionaries by column name.
    static func records(_ csv: String) throws -> [[String: String]] {
        var parser = CSVParser()
        var rows = try parser.feed(csv.utf8)
        rows += try parser.finish()
        guard let header = rows.first?.map(\.text) else { return [] }
        return rows.dropFirst().map { fields in
            Dictionary(zip(header, fields.map(\.text)), uniquingKeysWith: { first, _ in first })
        }
    }

    /// A value as Bulk CSV text: `#N/A` clears a field (an empty value leaves it alone).
    static func csvText(_ value: OrgValue) -> String {
        switch value {
        case .null: "#N/A"
        case .bool(let flag): flag ? "true" : "false"
        case .string(let text): text
        case .integer, .number, .array, .object: value.jsonText
        }
    }

    /// One RFC 4180 line: every field quoted, quotes doubled, LF-terminated.
    static func line(_ fields: [String]) -> String {
        fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\n"
    }
}
