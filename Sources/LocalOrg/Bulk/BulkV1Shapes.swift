import Foundation

/// The bodies of Bulk API 1.0 (Bulk API Developer Guide: "JobInfo", "BatchInfo", "Get Batch
/// Results", "Get Job Details"), built once as XML elements in the documented order; the JSON twin
/// of an element is its children as members (``json(_:)``), numbers as numbers.
enum BulkV1Shapes {
    /// The media type of a job content type.
    static func mediaType(_ contentType: String) -> String {
        switch contentType {
        case "JSON": "application/json"
        case "CSV": "text/csv"
        default: "application/xml"
        }
    }

    /// Elements whose text is a number in JSON.
    private static let numericNames: Set<String> = [
        "numberBatchesQueued", "numberBatchesInProgress", "numberBatchesCompleted", "numberBatchesFailed",
        "numberBatchesTotal", "numberRecordsProcessed", "numberRetries", "apiVersion", "numberRecordsFailed",
        "totalProcessingTime", "apiActiveProcessingTime", "apexProcessingTime",
    ]

    /// `2009-04-14T18:15:59.000Z`.
    static func date(_ milliseconds: Int64) -> String {
        let text = OrgDateTime.format(milliseconds: milliseconds)
        return text.hasSuffix("+0000") ? String(text.dropLast(5)) + "Z" : text
    }

    /// The JSON of a `jobInfo`, `batchInfo`, `batchInfoList` or `error` element.
    static func json(_ element: BulkXMLElement) -> OrgJSONValue {
        if element.name == "batchInfoList" {
            return ["batchInfo": .array(element.children.map(json))]
        }
        var object = OrgJSONObject()
        for child in element.children {
            if numericNames.contains(child.name), let number = Double(child.text) {
                object[child.name] =
                    child.name == "apiVersion" || number != number.rounded()
                    ? .double(number) : .integer(Int64(number))
            } else {
                object[child.name] = .string(child.text)
            }
        }
        return .object(object)
    }

    /// Reads a `jobInfo` body (XML or JSON) into its simple members.
    static func readJobInfo(_ body: Data, json: Bool) throws -> [String: String] {
        guard !body.isEmpty else { throw OrgError.bulkV1("InvalidJob", "The request has no jobInfo body") }
        var info: [String: String] = [:]
        if json {
            guard case .object(let object) = try OrgJSONValue.decode(body) else {
                throw OrgError.bulkV1("InvalidJob", "The jobInfo body must be a JSON object")
            }
            for (name, value) in object {
                switch value {
                case .string(let text): info[name] = text
                case .integer(let number): info[name] = String(number)
                case .double(let number): info[name] = OrgJSONValue.double(number).jsonText
                case .bool(let flag): info[name] = flag ? "true" : "false"
                default: continue
                }
            }
        } else {
            let root = try BulkXMLReader.parse(body)
            guard root.name == "jobInfo" else {
                throw OrgError.bulkV1("InvalidJob", "The body's root element must be <jobInfo>, not <\(root.name)>")
            }
            for child in root.children { info[child.name] = child.text }
        }
        return info
    }

    /// The `jobInfo` of a job with counters summed over its batches.
    static func jobInfo(_ job: BulkJob, batches: [BulkBatch]) -> BulkXMLElement {
        func count(_ state: BulkBatch.State) -> String { String(batches.filter { $0.state == state }.count) }
        var children: [BulkXMLElement] = [
            .leaf("id", job.id), .leaf("operation", job.operation), .leaf("object", job.object),
            .leaf("createdById", ""), .leaf("createdDate", date(job.createdAt)),
            .leaf("systemModstamp", date(max(job.modifiedAt, batches.map(\.modifiedAt).max() ?? 0))),
            .leaf("state", job.state.rawValue),
        ]
        if let externalID = job.externalIDField { children.append(.leaf("externalIdFieldName", externalID)) }
        let processing = String(batches.map(\.processingMilliseconds).reduce(0, +))
        children += [
            .leaf("concurrencyMode", job.concurrencyMode), .leaf("contentType", job.contentType),
            .leaf("numberBatchesQueued", count(.queued)), .leaf("numberBatchesInProgress", count(.inProgress)),
            .leaf("numberBatchesCompleted", count(.completed)), .leaf("numberBatchesFailed", count(.failed)),
            .leaf("numberBatchesTotal", String(batches.count)),
            .leaf("numberRecordsProcessed", String(batches.map(\.processed).reduce(0, +))),
            .leaf("numberRetries", "0"), .leaf("apiVersion", job.apiVersion),
            .leaf("numberRecordsFailed", String(batches.map(\.failed).reduce(0, +))),
            .leaf("totalProcessingTime", processing), .leaf("apiActiveProcessingTime", processing),
            .leaf("apexProcessingTime", "0"),
        ]
        return BulkXMLElement(name: "jobInfo", children: children)
    }

    /// The `batchInfo` of a batch.
    static func batchInfo(_ batch: BulkBatch, job: BulkJob) -> BulkXMLElement {
        var children: [BulkXMLElement] = [
            .leaf("id", batch.id), .leaf("jobId", job.id), .leaf("state", batch.state.rawValue),
        ]
        if let message = batch.stateMessage { children.append(.leaf("stateMessage", message)) }
        children += [
            .leaf("createdDate", date(batch.createdAt)), .leaf("systemModstamp", date(batch.modifiedAt)),
            .leaf("numberRecordsProcessed", String(batch.processed)),
            .leaf("numberRecordsFailed", String(batch.failed)),
            .leaf("totalProcessingTime", String(batch.processingMilliseconds)),
            .leaf("apiActiveProcessingTime", String(batch.processingMilliseconds)),
            .leaf("apexProcessingTime", "0"),
        ]
        return BulkXMLElement(name: "batchInfo", children: children)
    }

    /// The `batchInfoList` of a job.
    static func batchList(_ batches: [BulkBatch], job: BulkJob) -> BulkXMLElement {
        BulkXMLElement(name: "batchInfoList", children: batches.map { batchInfo($0, job: job) })
    }

    /// The `result-list` of a query batch (its JSON twin is a plain array, see ``OrgAPI``).
    static func resultList(_ ids: [String]) -> BulkXMLElement {
        BulkXMLElement(name: "result-list", children: ids.map { .leaf("result", $0) })
    }

    /// One record's outcome in an ingest batch.
    struct RecordResult {
        var id: String?
        var created: Bool
        var statusCode: String?
        var message: String?
        var fields: [String]

        var success: Bool { statusCode == nil }
    }

    /// `"Id","Success","Created","Error"` rows; an error reads `CODE:message:fields --`.
    static func ingestResultsCSV(_ results: [RecordResult]) -> Data {
        var csv = BulkCSVWriter(delimiter: UInt8(ascii: ","), lineEnding: [0x0A])
        csv.appendRow(["Id", "Success", "Created", "Error"])
        for result in results {
            let error =
                result.statusCode.map { "\($0):\(result.message ?? ""):\(result.fields.joined(separator: ",")) --" }
                ?? ""
            csv.appendRow([
                result.id ?? "", result.success ? "true" : "false", result.created ? "true" : "false", error,
            ])
        }
        return csv.data
    }

    /// `[{"success":true,"created":true,"id":"001…","errors":[]}]`.
    static func ingestResultsJSON(_ results: [RecordResult]) -> OrgJSONValue {
        .array(
            results.map { result in
                let errors: [OrgJSONValue] =
                    result.statusCode.map { code in
                        [
                            [
                                "message": .string(result.message ?? ""),
                                "fields": .array(result.fields.map { .string($0) }), "statusCode": .string(code),
                            ]
                        ]
                    } ?? []
                return [
                    "success": .bool(result.success), "created": .bool(result.created),
                    "id": result.id.map { .string($0) } ?? .null, "errors": .array(errors),
                ]
            }
        )
    }

    /// `<results><result><id/><success/><created/><errors/></result></results>`.
    static func ingestResultsXML(_ results: [RecordResult]) -> BulkXMLElement {
        BulkXMLElement(
            name: "results",
            children: results.map { result in
                var children: [BulkXMLElement] = [.leaf("id", result.id ?? "")]
                if let code = result.statusCode {
                    children.append(
                        BulkXMLElement(
                            name: "errors",
                            children: result.fields.map { .leaf("fields", $0) } + [
                                .leaf("message", result.message ?? ""), .leaf("statusCode", code),
                            ]
                        )
                    )
                }
                children += [
                    .leaf("success", result.success ? "true" : "false"),
                    .leaf("created", result.created ? "true" : "false"),
                ]
                return BulkXMLElement(name: "result", children: children)
            }
        )
    }

    /// Query records as JSON: `[{"attributes": {"type", "url"}, "Name": …, "Account": {"Name": …}}]`.
    /// Values are the CSV texts (numbers and booleans as strings), `null` for null.
    static func queryResultJSON(_ rows: BulkQueryRunner.Rows, object: String, apiVersion: String) -> OrgJSONValue {
        .array(
            rows.rows.map { values in
                var record: OrgJSONObject = ["attributes": ["type": .string(object)]]
                for (index, value) in values.enumerated() {
                    let path = rows.headers[index].split(separator: ".").map(String.init)
                    let typed = value.map { jsonValue($0, type: rows.types[index]) } ?? .null
                    record = inserting(typed, at: path[...], into: record)
                }
                if let id = record["Id"]?.stringValue {
                    record["attributes"] = [
                        "type": .string(object),
                        "url": .string("/services/data/v\(apiVersion)/sobjects/\(object)/\(id)"),
                    ]
                }
                return .object(record)
            }
        )
    }

    /// A Bulk API 1.0 JSON query value as a real org types it: numbers and booleans as JSON
    /// numbers and booleans, dates and date-times as milliseconds since 1970 (UTC), as real orgs
    /// answer (https://github.com/simple-salesforce/simple-salesforce/issues/290: `"CreatedDate":
    /// 1546659665000`); text, IDs and picklists stay strings. CSV and XML results stay text.
    static func jsonValue(_ text: String, type: OrgFieldType) -> OrgJSONValue {
        switch type {
        case .boolean:
            return .bool(text == "true")
        case .int:
            return Int64(text).map { .integer($0) } ?? .string(text)
        case .double, .currency, .percent:
            return Double(text).map { .double($0) } ?? .string(text)
        case .datetime:
            return OrgDateTime.parseDateTime(text).map { .integer($0) } ?? .string(text)
        case .date:
            return OrgDateTime.parseDate(text).map { .integer($0 * 86_400_000) } ?? .string(text)
        default:
            return .string(text)
        }
    }

    private static func inserting(_ value: OrgJSONValue, at path: ArraySlice<String>, into object: OrgJSONObject)
        -> OrgJSONObject
    {
        var object = object
        guard let first = path.first else { return object }
        if path.count == 1 {
            object[first] = value
            return object
        }
        let inner = object[first]?.objectValue ?? [:]
        object[first] = .object(inserting(value, at: path.dropFirst(), into: inner))
        return object
    }

    /// Query records as XML: `<queryResult><records xsi:type="sObject"><type>…</type><Name>…</Name>…`.
    static func queryResultXML(_ rows: BulkQueryRunner.Rows, object: String) -> BulkXMLElement {
        BulkXMLElement(
            name: "queryResult",
            attributes: [
                ("xmlns", BulkXMLWriter.namespace), ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
            ],
            children: rows.rows.map { values in
                var children: [BulkXMLElement] = [.leaf("type", object)]
                for (header, value) in zip(rows.headers, values) {
                    if let value {
                        children.append(.leaf(header, value))
                    } else {
                        children.append(BulkXMLElement(name: header, attributes: [("xsi:nil", "true")]))
                    }
                }
                return BulkXMLElement(name: "records", attributes: [("xsi:type", "sObject")], children: children)
            }
        )
    }
}
