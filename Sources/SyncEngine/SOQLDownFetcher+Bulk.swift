import OrgClient
import SOQL
import SyncConfig

/// Which API a `soql` sync down uses, and why (shown by `run --dry-run`).
public struct APIDecision: Sendable, Hashable, CustomStringConvertible {
    /// Whether the records come from a Bulk API 2.0 query job.
    public var usesBulk: Bool
    /// Why, in words: `12000 records ≥ bulkThreshold 10000`.
    public var reason: String

    /// `Bulk API 2.0 (reason)` or `REST (reason)`.
    public var description: String { (usesBulk ? "Bulk API 2.0" : "REST") + " (\(reason))" }
}

extension SOQLDownFetcher {
    /// Decides the API from the config and, for `auto`, the first REST page's `totalSize`.
    ///
    /// - Parameter totalSize: the first page's `totalSize`; `nil` before it is known (then `auto`
    ///   decides REST, to be decided again once the page is in).
    func decide(totalSize: Int?, org: any OrgClient) -> APIDecision {
        if api == .rest { return APIDecision(usesBulk: false, reason: "api is 'rest'") }
        if let feature = mutated.bulkUnsupportedFeature {
            return APIDecision(usesBulk: false, reason: "Bulk API 2.0 cannot run a query with \(feature)")
        }
        guard org is any BulkQueryClient else {
            return APIDecision(usesBulk: false, reason: "this org connection has no Bulk API 2.0")
        }
        if api == .bulk { return APIDecision(usesBulk: true, reason: "api is 'bulk'") }
        guard let totalSize else {
            return APIDecision(usesBulk: false, reason: "api is 'auto'; the first page's totalSize decides")
        }
        return totalSize >= bulkThreshold
            ? APIDecision(usesBulk: true, reason: "\(totalSize) records ≥ bulkThreshold \(bulkThreshold)")
            : APIDecision(usesBulk: false, reason: "\(totalSize) records < bulkThreshold \(bulkThreshold)")
    }

    /// The rule of the target, for `plan`.
    var apiRule: String {
        switch api {
        case .rest: "REST"
        case .bulk: "Bulk API 2.0"
        case .auto: "Bulk API 2.0 at ≥ \(bulkThreshold) records, else REST"
        }
    }

    /// The job query: `soql` plus the Id of every parent whose fields it selects (read for the
    /// `attributes.url` of the nested object, not written into records).
    func bulkQuery(_ soql: String) throws -> (query: SOQLQuery, hidden: Set<String>) {
        var query = try SOQLQuery.parse(soql)
        var hidden: Set<String> = []
        for path in query.selectedFields where path.components.count > 1 {
            for length in 1..<path.components.count {
                let parentID = (path.components.prefix(length) + ["Id"]).joined(separator: ".")
                if !query.selects(parentID), !hidden.contains(parentID) {
                    hidden.insert(parentID)
                }
            }
        }
        for name in hidden.sorted() { query.select.append(.field(SOQLFieldPath(name))) }
        return (query, hidden)
    }

    /// The job a stopped or killed run of this sync left, when it can be read on (see
    /// ``BulkJobJournal/resumable(org:expectedQuery:)``).
    func resumableJob(org: any BulkQueryClient) async throws -> BulkJobJournal.Resume? {
        guard let journal, !restOnly else { return nil }
        return try await journal.resumable(org: org) { since in try bulkQuery(queryText(since: since)).query.text }
    }

    /// Runs the query from `since` as a query job (or reads on `resume`) and hands each results
    /// page to `body` as REST-shaped JSON.
    func fetchThroughBulk(
        since: Int64,
        resume: BulkJobJournal.Resume?,
        org: any BulkQueryClient,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let (query, hidden) = try bulkQuery(queryText(since: resume?.since ?? since))
        let text = query.text
        let job: BulkJobInfo
        if let resume {
            job = resume.job
        } else {
            job = try await org.createQueryJob(text, includesDeleted: false)
            try await journal?.started(job: job, query: text, since: since, apiVersion: org.apiVersion)
        }
        let finished = try await waitForJob(job.id, org: org)
        var shaper: BulkRecordShaper?
        var locator = resume?.locator
        if resume != nil, locator == nil, finished.numberRecordsProcessed == 0 {
            try await journal?.finished(jobID: finished.id, org: org)
            return
        }
        // Up to maxConcurrentRequests pages download at once through resultPages (API 58.0+), else
        // one page ahead by locator; either way they come out in result order, so the locator
        // journaled after a page still means "everything before it is written".
        let download = BulkResultsDownload(
            org: org,
            jobID: finished.id,
            maxRecords: bulkPageSize,
            limit: maxConcurrentRequests,
            startingAt: locator
        )
        defer { download.cancel() }
        while let page = try await download.next() {
            let header = try BulkRecordShaper.header(of: page.csv)
            if shaper == nil || shaper?.header != header {
                shaper = try await BulkShaperFactory.make(header: header, query: query, hidden: hidden, org: org)
            }
            guard let shaper else { return }
            // A results page of 10,000 records is written as REST-sized pages: the page writer's
            // memory stays what a REST sync down's is.
            var chunks = shaper.arrayChunks(csv: page.csv, recordsPerArray: Self.bulkWritePageSize)
            while let records = try chunks.next() {
                guard try await body(DownPage(json: records.json, totalSize: finished.numberRecordsProcessed)) else {
                    return
                }
            }
            locator = page.nextLocator
            try await journal?.advanced(jobID: finished.id, locator: locator)
        }
        try await journal?.finished(jobID: finished.id, org: org)
    }

    /// Ghost cleaning's id listing as a query job: the ids of each results page, as they come.
    /// The job is not journaled (a new pass lists again) and is deleted once read.
    func remoteIDsThroughBulk(
        _ soql: String,
        org: any BulkQueryClient,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        let job = try await waitForJob(try await org.createQueryJob(soql, includesDeleted: false).id, org: org)
        var locator: String?
        repeat {
            let page = try await org.queryJobResults(job.id, locator: locator, maxRecords: bulkPageSize)
            var parser = CSVParser()
            var records = try parser.feed(page.csv.utf8)
            records += try parser.finish()
            let header = records.first?.map { $0.text.lowercased() } ?? []
            guard let column = header.firstIndex(of: idFieldName.lowercased()) else {
                throw SyncEngineError.bulkMissingColumn(syncName, column: idFieldName)
            }
            let ids = records.dropFirst().compactMap { record in
                record.count > column && !record[column].text.isEmpty ? record[column].text : nil
            }
            guard try await body(.ids(ids)) else { return }
            locator = page.nextLocator
        } while locator != nil
        try? await org.deleteQueryJob(job.id)
    }

    /// Polls the job (``bulkPoller``) until it is `JobComplete`.
    /// - Throws: `SyncEngineError` `.server` with the org's message when the job failed or was
    ///   aborted, or naming the job when it did not end before the deadline.
    func waitForJob(_ id: String, org: any BulkQueryClient) async throws -> BulkJobInfo {
        let info = try await bulkPoller.waitUntilEnded(jobID: id, kind: .query, syncName: syncName) {
            try await org.queryJob(id)
        }
        guard info.state == .jobComplete else {
            throw SyncEngineError.bulkJobFailed(syncName, jobID: id, state: info.stateText, message: info.errorMessage)
        }
        return info
    }
}

/// Builds the shaper of a results page from the describes of the objects the query reaches.
enum BulkShaperFactory {
    static func make(
        header: [String],
        query: SOQLQuery,
        hidden: Set<String>,
        org: any OrgClient
    ) async throws -> BulkRecordShaper {
        var describes: [String: SObjectDescription] = [:]
        func describe(_ type: String) async throws -> SObjectDescription {
            if let known = describes[type.lowercased()] { return known }
            let description = try await org.describe(type)
            describes[type.lowercased()] = description
            return description
        }
        let root = try await describe(query.unqualifiedObject)
        var kinds: [String: BulkRecordShaper.ValueKind] = [:]
        var relationships: [String: BulkRecordShaper.Relationship] = [:]
        for column in header {
            var parts = column.split(separator: ".").map(String.init)
            if parts.count > 1, parts[0].lowercased() == root.name.lowercased(),
                !root.fields.contains(where: { $0.relationshipName?.lowercased() == parts[0].lowercased() })
            {
                parts.removeFirst()
            }
            var object = root
            var path: [String] = []
            for name in parts.dropLast() {
                guard
                    let lookup = object.fields.first(where: { $0.relationshipName?.lowercased() == name.lowercased() }),
                    let target = lookup.referenceTo.first
                else {
                    throw SyncEngineError.bulkColumn(column, object: object.name)
                }
                path.append(name)
                object = try await describe(target)
                let dotted = path.joined(separator: ".")
                relationships[dotted.lowercased()] = BulkRecordShaper.Relationship(
                    path: dotted,
                    objectType: object.name
                )
            }
            let field = object.fields.first { $0.name.lowercased() == parts.last?.lowercased() }
            kinds[column] = BulkRecordShaper.kind(ofFieldType: field?.type ?? "string")
        }
        return try BulkRecordShaper(
            header: header,
            objectType: root.name,
            apiVersion: (org as? any BulkQueryClient)?.apiVersion ?? "",
            kinds: kinds,
            relationships: Array(relationships.values),
            hidden: hidden
        )
    }
}
