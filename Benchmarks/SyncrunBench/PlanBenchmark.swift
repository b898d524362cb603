import ArgumentParser
import Foundation
import SyncConfig
import SyncPlan

/// Loads, validates and plans a generated config of 500 syncs, and prints the time beside the
/// 100 ms target.
///
/// The config is written once to a temporary directory (not timed): 100 soups, each with a sync
/// up and sync downs of several kinds (soql, refresh, mru, sosl, parent_children, briefcase),
/// `dependsOn` chains across soups and `cleanGhosts` on some sync downs. Each run then times the
/// whole path `syncrun plan` takes: read and decode both files, validate, build the plan, render
/// it as JSON.
struct PlanBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Load + validate + plan a generated 500-sync config (target: under 100 ms)."
    )

    @Option(help: "Number of timed runs.")
    var runs = 20

    @Option(help: "Number of soups; each gets five syncs.")
    var soups = 100

    /// The target for one load + validate + plan in a release build.
    private static let target: Duration = .milliseconds(100)

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be at least 1") }
        guard soups > 1 else { throw ValidationError("--soups must be at least 2") }
    }

    func run() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncrun-bench-plan-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let generated = PlanBenchmarkConfig(soupCount: soups)
        let storeURL = directory.appendingPathComponent("userstore.json")
        let syncsURL = directory.appendingPathComponent("usersyncs.json")
        try Data(generated.storeJSON().utf8).write(to: storeURL)
        let syncsText = generated.syncsJSON()
        try Data(syncsText.utf8).write(to: syncsURL)

        var loadTimes: [Duration] = []
        var planTimes: [Duration] = []
        var totals: [Duration] = []
        var stepCount = 0
        var syncCount = 0
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let start = clock.now
            let loaded = try ConfigLoader().load(storeConfig: storeURL, syncsConfig: syncsURL)
            let loadedAt = clock.now
            guard !loaded.hasErrors, let syncs = loaded.userSyncs else {
                let first = loaded.diagnostics.first { $0.isError }.map(\.description) ?? "no syncs loaded"
                throw ValidationError("the generated config has \(loaded.errorCount) errors; first: \(first)")
            }
            let plan = try SyncPlan(planning: syncs)
            let json = plan.rendered(as: .json)
            let end = clock.now
            precondition(!json.isEmpty)
            loadTimes.append(loadedAt - start)
            planTimes.append(end - loadedAt)
            totals.append(end - start)
            stepCount = plan.steps.count
            syncCount = syncs.syncs.count
        }

        let total = Statistics(totals)
        let verdict = total.median < Self.target ? "OK" : "OVER TARGET"
        let size = "\(syncsText.utf8.count / 1024) KB of JSON"
        print("plan benchmark: \(syncCount) syncs, \(soups) soups, \(stepCount) steps, \(size), \(runs) runs")
        print("  load + validate     median \(Statistics(loadTimes).formatted)")
        print("  plan + render JSON  median \(Statistics(planTimes).formatted)")
        print("  total               median \(total.formatted)   target < 100 ms: \(verdict)")
        print("  peak memory (VmHWM) \(peakMemory())")
    }

    /// `VmHWM` from `/proc/self/status`, or a note where it is not available.
    private func peakMemory() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return "unavailable (no /proc/self/status)" }
        return line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
    }
}

/// Median and minimum of a set of timings.
private struct Statistics {
    var median: Duration
    var minimum: Duration

    init(_ samples: [Duration]) {
        let sorted = samples.sorted()
        median = sorted[sorted.count / 2]
        minimum = sorted[0]
    }

    var formatted: String {
        "\(Self.milliseconds(median)) ms, min \(Self.milliseconds(minimum)) ms"
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.2f", value)
    }
}

/// The generated config: `soupCount` soups with five syncs each.
private struct PlanBenchmarkConfig {
    let soupCount: Int

    private static let objects = ["Account", "Contact", "Opportunity", "Case", "Lead", "Campaign", "Task", "Event"]

    private func soup(_ index: Int) -> String { "soup\(index)" }
    private func object(_ index: Int) -> String { Self.objects[index % Self.objects.count] }

    func storeJSON() -> String {
        let soups: [[String: Any]] = (0..<soupCount).map { index in
            [
                "soupName": soup(index),
                "indexes": [
                    ["path": "Id", "type": "string"],
                    ["path": "Name", "type": "full_text"],
                    ["path": "LastModifiedDate", "type": "string"],
                    ["path": "__local__", "type": "string"],
                    ["path": "__locally_created__", "type": "string"],
                    ["path": "__locally_updated__", "type": "string"],
                    ["path": "__locally_deleted__", "type": "string"],
                    ["path": "__sync_id__", "type": "integer"],
                ],
            ]
        }
        return Self.serialized(["soups": soups])
    }

    func syncsJSON() -> String {
        var syncs: [[String: Any]] = []
        for index in 0..<soupCount {
            syncs.append(syncUp(index))
            syncs.append(soqlDown(index))
            syncs.append(refreshDown(index))
            syncs.append(otherDown(index))
            syncs.append(relatedDown(index))
        }
        return Self.serialized(["syncs": syncs])
    }

    /// Sync ups of every kind; chains of five through `dependsOn`.
    private func syncUp(_ index: Int) -> [String: Any] {
        let fields = ["Name", "Description", "OwnerId"]
        let targets: [[String: Any]] = [
            ["createFieldlist": fields, "updateFieldlist": ["Name", "Description"]],
            ["iOSImpl": "SFBatchSyncUpTarget", "maxBatchSize": 25],
            ["androidImpl": "com.salesforce.androidsdk.mobilesync.target.SyncUpTarget"],
            ["type": "collection", "maxBatchSize": 200, "externalIdFieldName": "External_Id__c"],
        ]
        var sync = definition(
            "up\(index)",
            "syncUp",
            index,
            target: targets[index % targets.count],
            merge: "LEAVE_IF_CHANGED"
        )
        sync["options"] = ["mergeMode": "LEAVE_IF_CHANGED", "fieldlist": fields]
        if index % 5 != 0 { sync["dependsOn"] = ["up\(index - 1)"] }
        return sync
    }

    private func soqlDown(_ index: Int) -> [String: Any] {
        let query =
            "SELECT Id, Name, Description, OwnerId, LastModifiedDate FROM \(object(index)) "
            + "WHERE CreatedDate > LAST_N_DAYS:90 ORDER BY LastModifiedDate"
        var sync = definition(
            "down\(index)",
            "syncDown",
            index,
            target: ["type": "soql", "query": query, "maxBatchSize": 500]
        )
        if index % 3 == 0 { sync["options"] = ["mergeMode": "OVERWRITE", "cleanGhosts": true] }
        if index % 5 != 0 { sync["dependsOn"] = ["down\(index - 1)"] }
        return sync
    }

    private func refreshDown(_ index: Int) -> [String: Any] {
        let target: [String: Any] = [
            "type": "refresh", "sobjectType": object(index), "fieldlist": ["Name", "Description"],
            "soupName": soup(index), "countIdsPerSoql": 200,
        ]
        return definition("refresh\(index)", "syncDown", index, target: target)
    }

    private func otherDown(_ index: Int) -> [String: Any] {
        let target: [String: Any]
        switch index % 4 {
        case 0:
            target = ["type": "mru", "sobjectType": object(index), "fieldlist": ["Id", "Name", "LastModifiedDate"]]
        case 1: target = ["type": "sosl", "query": "FIND {Acme} IN NAME FIELDS RETURNING \(object(index))(Id, Name)"]
        case 2: target = ["type": "metadata", "sobjectType": object(index)]
        default: target = ["type": "layout", "sobjectType": object(index), "layoutType": "Compact", "mode": "View"]
        }
        return definition("other\(index)", "syncDown", index, target: target)
    }

    /// parent_children from this soup to the next one (even soups), or a briefcase over this soup
    /// and the previous one.
    private func relatedDown(_ index: Int) -> [String: Any] {
        if index % 2 == 0, index + 1 < soupCount {
            let target: [String: Any] = [
                "type": "parent_children",
                "parent": ["sobjectType": object(index), "soupName": soup(index)],
                "parentFieldlist": ["Id", "Name", "LastModifiedDate"],
                "parentSoqlFilter": "Name != null",
                "children": [
                    "sobjectType": object(index + 1), "sobjectTypePlural": object(index + 1) + "s",
                    "soupName": soup(index + 1), "parentIdFieldName": object(index) + "Id",
                ],
                "childrenFieldlist": ["Id", "Name", "LastModifiedDate"],
                "relationshipType": index % 4 == 0 ? "MASTER_DETAIL" : "LOOKUP",
            ]
            return definition("tree\(index)", "syncDown", index, target: target)
        }
        let previous = max(index - 1, 0)
        let target: [String: Any] = [
            "type": "briefcase",
            "infos": [
                ["sobjectType": object(index), "soupName": soup(index), "fieldlist": ["Name"]],
                ["sobjectType": object(previous), "soupName": soup(previous), "fieldlist": ["Name"]],
            ],
        ]
        return definition("briefcase\(index)", "syncDown", index, target: target)
    }

    private func definition(
        _ name: String,
        _ type: String,
        _ index: Int,
        target: [String: Any],
        merge: String = "OVERWRITE"
    ) -> [String: Any] {
        [
            "syncName": name, "syncType": type, "soupName": soup(index), "target": target,
            "options": ["mergeMode": merge],
        ]
    }

    private static func serialized(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
