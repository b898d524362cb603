import Foundation
import GRDB

/// Bulk API 1.0 batches on the Bulk job engine: each batch goes `Queued` → `InProgress` →
/// `Completed` | `Failed` (or `Not Processed` when its job is aborted first), waiting the engine's
/// `delay` before each change, as Bulk API 2.0 jobs do. Ingest batches write through
/// ``BulkIngestRunner/write(_:operation:object:key:)`` (the record path of Bulk API 2.0) and query
/// batches snapshot through ``BulkQueryRunner`` (the result snapshot of Bulk API 2.0).
extension BulkJobs {
    /// The batch `id` of job `jobID`; restarts its worker if it is unfinished and nobody works on it.
    func batch(_ id: String, jobID: String) throws -> BulkBatch {
        guard let batch = try read({ try BulkBatchTable.fetch(id, jobID: jobID, $0) }) else {
            throw OrgError.bulkV1("InvalidBatch", "Unable to find batch for id: \(id)")
        }
        if !batch.state.isTerminal { startBatchIfIdle(batch) }
        return batch
    }

    /// The batches of job `jobID`, restarting the workers of unfinished ones.
    func batches(jobID: String) throws -> [BulkBatch] {
        let batches = try read { try BulkBatchTable.fetchAll(jobID: jobID, $0) }
        for batch in batches where !batch.state.isTerminal { startBatchIfIdle(batch) }
        return batches
    }

    /// Starts the background processing of `batch` unless a worker already runs it.
    func startBatchIfIdle(_ batch: BulkBatch) {
        let jobID = batch.jobID
        startWorker(batch.id) { [self] in await processBatch(batch.id, jobID: jobID) }
    }

    private func processBatch(_ id: String, jobID: String) async {
        do {
            try await Task.sleep(for: delay)
            let moved = try write { db -> Bool in
                guard let batch = try BulkBatchTable.fetch(id, jobID: jobID, db), !batch.state.isTerminal else {
                    return false
                }
                if batch.state == .queued {
                    try BulkBatchTable.setState(id, .inProgress, now: database.context.nowMilliseconds, db)
                }
                return true
            }
            guard moved else { return }
            try await Task.sleep(for: delay)
            try Task.checkCancellation()
            try finishBatch(id, jobID: jobID)
        } catch {
            // Cancelled (abort, shutdown) or a storage failure: the batch stays as it is and is
            // picked up again when read.
        }
    }

    private func finishBatch(_ id: String, jobID: String) throws {
        let started = ContinuousClock.now
        try write { db in
            guard let batch = try BulkBatchTable.fetch(id, jobID: jobID, db), batch.state == .inProgress,
                let job = try BulkJobTable.fetch(jobID, kind: .classic, db)
            else { return }
            let now = database.context.nowMilliseconds
            if job.state == .aborted {
                try BulkBatchTable.setState(id, .notProcessed, now: now, db)
                return
            }
            if let failureMessage {
                try BulkBatchTable.setState(id, .failed, message: failureMessage, now: now, db)
                return
            }
            let data = try BulkBatchTable.data(id, db)
            do {
                if job.operation == "query" || job.operation == "queryAll" {
                    var queryJob = job
                    queryJob.query = String(decoding: data, as: UTF8.self)
                    let result = try BulkQueryRunner(db: db, context: context(of: job)).snapshot(queryJob)
                    try db.execute(
                        sql: """
                            UPDATE _org_bulk_v1_batches SET state = 'Completed', processed = ?, cursorId = ?,
                                firstSeq = ?, totalSize = ?, processingMs = ?, modifiedAt = ? WHERE id = ?
                            """,
                        arguments: [
                            result.totalSize, result.cursorID, result.firstSeq, result.totalSize,
                            Self.milliseconds(since: started), now, id,
                        ]
                    )
                } else {
                    let counts = try runIngest(job, batchID: id, data: data, db)
                    try db.execute(
                        sql: """
                            UPDATE _org_bulk_v1_batches SET state = 'Completed', processed = ?, failed = ?,
                                processingMs = ?, modifiedAt = ? WHERE id = ?
                            """,
                        arguments: [counts.processed, counts.failed, Self.milliseconds(since: started), now, id]
                    )
                }
            } catch let error as OrgError {
                let message =
                    error.message.hasPrefix("InvalidBatch : ") ? error.message : "InvalidBatch : \(error.message)"
                try BulkBatchTable.setState(id, .failed, message: message, now: now, db)
            }
        }
    }

    /// Writes every record of an ingest batch and stores one result per record, in order.
    private func runIngest(_ job: BulkJob, batchID: String, data: Data, _ db: Database) throws
        -> (processed: Int, failed: Int)
    {
        let jobContext = context(of: job)
        let object = try jobContext.queryObject(job.object)
        let records = try BulkBatchRecords.records(data, contentType: job.contentType, object: object)
        let runner = BulkIngestRunner(
            writer: OrgWriter(db: db, context: jobContext),
            db: db,
            context: jobContext
        )
        var failed = 0
        for (index, cells) in records.enumerated() {
            var id: String?
            var created = false
            var error: Data?
            do {
                let outcome = try runner.write(
                    cells,
                    operation: job.operation,
                    object: object,
                    key: job.externalIDField
                )
                id = outcome.id
                created = outcome.created
            } catch let failure as OrgError {
                failed += 1
                let value: OrgJSONValue = [
                    "statusCode": .string(failure.code.rawValue), "message": .string(failure.message),
                    "fields": .array(failure.fields.map { .string($0) }),
                ]
                error = value.encoded()
            }
            try db.execute(
                sql: """
                    INSERT INTO _org_bulk_results (jobId, kind, seq, sfId, created, error, fields)
                    VALUES (?, 'v1', ?, ?, ?, ?, ?)
                    """,
                arguments: [batchID, index, id, created, error, Data()]
            )
        }
        return (records.count, failed)
    }
}

/// The records of a Bulk API 1.0 ingest batch as cells for ``BulkIngestRunner/write(_:operation:object:key:)``,
/// from CSV, JSON or XML (Bulk API Developer Guide, "Prepare Data Files").
enum BulkBatchRecords {
    /// The records of `data`.
    /// - Throws: ``OrgError`` when the data cannot be read (the batch fails with `InvalidBatch`).
    static func records(_ data: Data, contentType: String, object: OrgObject) throws
        -> [[(name: String, value: String?)]]
    {
        switch contentType {
        case "JSON": return try jsonRecords(data)
        case "XML": return try xmlRecords(data)
        default:
            let rows = try BulkCSVReader.records(data, delimiter: UInt8(ascii: ","))
            guard let header = rows.first, !header.isEmpty, header != [""] else {
                throw OrgError.invalidJob("InvalidBatch : The batch has no data; send a CSV header and records")
            }
            try BulkIngestRunner.checkHeader(header, object: object)
            return rows.dropFirst().filter { !($0.count == 1 && $0[0].isEmpty) }.map { row in
                var values = Array(row.prefix(header.count))
                values += Array(repeating: "", count: header.count - values.count)
                return BulkIngestRunner.csvCells(header: header, values: values)
            }
        }
    }

    /// `[{"Name": "A", "Account": {"External__c": "X"}, "Phone": null}, …]`.
    static func jsonRecords(_ data: Data) throws -> [[(name: String, value: String?)]] {
        guard case .array(let values) = try OrgJSONValue.decode(data) else {
            throw OrgError.invalidJob("InvalidBatch : A JSON batch must be an array of records")
        }
        return try values.map { value in
            guard let record = value.objectValue else {
                throw OrgError.invalidJob("InvalidBatch : Each element of a JSON batch must be an object")
            }
            var cells: [(name: String, value: String?)] = []
            for (name, field) in record where name != "attributes" {
                if let parent = field.objectValue {
                    for (key, keyValue) in parent where key != "attributes" {
                        cells.append(("\(name).\(key)", text(keyValue)))
                    }
                } else if let text = text(field) {
                    if !text.isEmpty { cells.append((name, text)) }
                } else {
                    cells.append((name, nil))
                }
            }
            return cells
        }
    }

    private static func text(_ value: OrgJSONValue) -> String? {
        switch value {
        case .null: nil
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: value.jsonText
        }
    }

    /// `<sObjects><sObject><Name>A</Name><Account><sObject><External__c>X</External__c></sObject></Account>
    /// <Phone xsi:nil="true"/></sObject></sObjects>` (the inner `sObject` may be left out).
    static func xmlRecords(_ data: Data) throws -> [[(name: String, value: String?)]] {
        let root = try BulkXMLReader.parse(data)
        guard root.name == "sObjects" else {
            throw OrgError.invalidJob(
                "InvalidBatch : An XML batch's root element must be <sObjects>, not <\(root.name)>"
            )
        }
        return root.children.filter { $0.name == "sObject" }.map { record in
            var cells: [(name: String, value: String?)] = []
            for field in record.children where field.name != "type" {
                if field.isNil {
                    cells.append((field.name, nil))
                } else if !field.children.isEmpty {
                    let parent =
                        field.children.count == 1 && field.children[0].name == "sObject" ? field.children[0] : field
                    for key in parent.children where key.name != "type" {
                        cells.append(("\(field.name).\(key.name)", key.isNil ? nil : key.text))
                    }
                } else if !field.text.isEmpty {
                    cells.append((field.name, field.text))
                }
            }
            return cells
        }
    }
}
