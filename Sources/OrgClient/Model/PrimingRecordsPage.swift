import Foundation

/// One page of the Briefcase priming-records API (`GET /connect/briefcase/priming-records`, API
/// 54.0+): the ids of the records in the briefcases assigned to the connected app, grouped by
/// sObject type and record type, with a relay token while more pages follow.
///
/// The wire shape ("Priming Record Collection"):
///
/// ```json
/// {"primingRecords": {"Account": {"012000000000000AAA": [{"id": "001…", "systemModstamp": "2024-03-05T10:11:12.000Z"}]}},
///  "relayToken": "…" | null,
///  "ruleErrors": [{"ruleId": "…"}],
///  "stats": {"ruleCountTotal": 2, "recordCountTotal": 120, "ruleCountServed": 1, "recordCountServed": 100}}
/// ```
public struct PrimingRecordsPage: Sendable, Hashable {
    /// One record of a briefcase: its id and `SystemModstamp` as sent (UTC, `Z` suffix).
    public struct Record: Sendable, Hashable {
        /// The record id.
        public var id: String
        /// The record's `SystemModstamp`, as the org sent it.
        public var systemModstamp: String

        /// Creates a record entry.
        public init(id: String, systemModstamp: String) {
            self.id = id
            self.systemModstamp = systemModstamp
        }
    }

    /// The counters of `stats`.
    public struct Stats: Sendable, Hashable {
        /// Rules of the assigned briefcases.
        public var ruleCountTotal: Int
        /// Records those rules select.
        public var recordCountTotal: Int
        /// Rules served so far, this page included.
        public var ruleCountServed: Int
        /// Records served by this page.
        public var recordCountServed: Int

        /// Creates counters.
        public init(ruleCountTotal: Int, recordCountTotal: Int, ruleCountServed: Int, recordCountServed: Int) {
            self.ruleCountTotal = ruleCountTotal
            self.recordCountTotal = recordCountTotal
            self.ruleCountServed = ruleCountServed
            self.recordCountServed = recordCountServed
        }
    }

    /// sObject type → record type id → records, as sent (records keep their order).
    public var recordsByType: [String: [String: [Record]]]
    /// The token of the next page; `nil` on the last page.
    public var relayToken: String?
    /// Ids of the rules the org could not process for this page.
    public var ruleErrors: [String]
    /// The counters, when the org sent them.
    public var stats: Stats?

    /// Creates a page.
    public init(
        recordsByType: [String: [String: [Record]]],
        relayToken: String?,
        ruleErrors: [String] = [],
        stats: Stats? = nil
    ) {
        self.recordsByType = recordsByType
        self.relayToken = relayToken
        self.ruleErrors = ruleErrors
        self.stats = stats
    }

    /// The ids of the records of `objectType`, all record types together, in the order sent
    /// (record types sorted by id, so the order is stable).
    public func ids(of objectType: String) -> [String] {
        guard let byRecordType = recordsByType[objectType] else { return [] }
        return byRecordType.keys.sorted().flatMap { byRecordType[$0, default: []].map(\.id) }
    }

    /// Reads a response body; `nil` when it does not have the documented shape (a
    /// `primingRecords` object of objects of arrays of `{id, systemModstamp}`).
    public init?(_ value: OrgValue) {
        guard let types = value["primingRecords"]?.objectValue else { return nil }
        var recordsByType: [String: [String: [Record]]] = [:]
        for (type, byRecordTypeValue) in types {
            guard let byRecordType = byRecordTypeValue.objectValue else { return nil }
            var lists: [String: [Record]] = [:]
            for (recordType, entries) in byRecordType {
                guard let entries = entries.arrayValue else { return nil }
                var records: [Record] = []
                records.reserveCapacity(entries.count)
                for entry in entries {
                    guard let id = entry["id"]?.stringValue else { return nil }
                    records.append(Record(id: id, systemModstamp: entry["systemModstamp"]?.stringValue ?? ""))
                }
                lists[recordType] = records
            }
            recordsByType[type] = lists
        }
        self.recordsByType = recordsByType
        relayToken = value["relayToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        ruleErrors = (value["ruleErrors"]?.arrayValue ?? []).map { $0["ruleId"]?.stringValue ?? "\($0)" }
        if let stats = value["stats"],
            let ruleCountTotal = stats["ruleCountTotal"]?.integerValue,
            let recordCountTotal = stats["recordCountTotal"]?.integerValue,
            let ruleCountServed = stats["ruleCountServed"]?.integerValue,
            let recordCountServed = stats["recordCountServed"]?.integerValue
        {
            self.stats = Stats(
                ruleCountTotal: Int(ruleCountTotal),
                recordCountTotal: Int(recordCountTotal),
                ruleCountServed: Int(ruleCountServed),
                recordCountServed: Int(recordCountServed)
            )
        } else {
            stats = nil
        }
    }
}
