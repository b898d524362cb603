import Foundation

/// Discovery resources: the versions list (§1.2), resources by version (§1.3) and limits (§1.5).
extension OrgAPI {
    /// Release labels by major version, for the versions list.
    private static func label(for major: Int) -> String {
        // Salesforce ships three releases a year: Spring, Summer, Winter; 31.0 was Summer '14 and
        // the labels advance in that order, Winter carrying the next year's number.
        let seasons = ["Summer", "Winter", "Spring"]
        let offset = major - 31
        let season = seasons[offset % 3]
        let year = 14 + (offset + 2) / 3
        return "\(season) '\(String(format: "%02d", year % 100))"
    }

    /// `GET /services/data/`: every supported version, no auth needed.
    func versions(_ request: OrgHTTPRequest) -> OrgHTTPResponse {
        guard request.method == "GET" else {
            return .error(.methodNotAllowed(request.method, allowed: ["GET"]), version: .newest)
        }
        let entries: [OrgJSONValue] = (APIVersion.oldest.major...APIVersion.newest.major).map { major in
            let version = APIVersion(major: major)
            return [
                "label": .string(Self.label(for: major)),
                "url": .string("/services/data/v\(version)"),
                "version": .string(version.description),
            ]
        }
        return .json(200, .array(entries))
    }

    /// `GET /services/data/v{v}/`: the resources of a version.
    func resourcesByVersion(_ version: APIVersion) -> OrgHTTPResponse {
        let base = "/services/data/v\(version)"
        var resources = OrgJSONObject()
        for name in ["sobjects", "query", "queryAll", "search", "recent", "limits", "composite"] {
            resources[name] = .string("\(base)/\(name)")
        }
        resources["identity"] = .string("\(instanceURL)/id/\(identity.orgID)/\(identity.userID)")
        return .json(200, .object(resources))
    }

    /// `GET /limits`: the daily API allocation and what remains of it.
    func limits() -> OrgHTTPResponse {
        let used = usage.current
        func limit(_ max: Int, _ remaining: Int) -> OrgJSONValue {
            ["Max": .integer(Int64(max)), "Remaining": .integer(Int64(remaining))]
        }
        let body: OrgJSONValue = [
            "DailyApiRequests": limit(usage.limit, max(0, usage.limit - used)),
            "DailyBulkV2QueryJobs": limit(10_000, max(0, 10_000 - bulkJobsToday(.query))),
            "DailyBulkV2QueryFileStorageMB": limit(976_562, 976_562),
            "DailyBulkApiBatches": limit(15_000, max(0, 15_000 - bulkJobsToday(.ingest) - bulkV1BatchesToday())),
            "DataStorageMB": limit(1_024, 1_024),
        ]
        return .json(200, body)
    }

    /// Bulk API 1.0 batches created in the last 24 hours: each counts against `DailyBulkApiBatches`,
    /// as a real org counts them (with Bulk API 2.0 ingest jobs).
    private func bulkV1BatchesToday() -> Int {
        let since = database.context.nowMilliseconds - 24 * 3600 * 1000
        do {
            return try bulk.read { try BulkBatchTable.count(since: since, $0) }
        } catch {
            return 0  // the limits stay readable even when the batches table is not
        }
    }

    /// Bulk jobs of `kind` created in the last 24 hours (an ingest job counts as one batch here).
    private func bulkJobsToday(_ kind: BulkJob.Kind) -> Int {
        let since = database.context.nowMilliseconds - 24 * 3600 * 1000
        do {
            return try bulk.read { try BulkJobTable.count(kind: kind, since: since, $0) }
        } catch {
            return 0  // the limits stay readable even when the jobs table is not
        }
    }
}
