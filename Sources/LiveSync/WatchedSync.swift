import SOQL
import SyncConfig

/// A soql sync down as `syncrun watch` sees it: its change event topic, and its own query
/// restricted to the ids of a batch of events (`Id IN (…)`, chunked).
public struct WatchedSync: Sendable {
    /// The definition.
    public let definition: SyncDefinition
    /// The target.
    public let target: SOQLSyncDownTarget
    /// The query as written, with the id and modification fields ensured (as a sync down sends it).
    public let query: SOQLQuery

    /// Ids per `IN (…)` list: short enough for a `GET` query URL with 18-character ids.
    public static let idsPerQuery = 200

    /// Reads `definition`.
    ///
    /// - Throws: ``LiveSyncError`` (``LiveSyncError/Code/notWatchable``) for anything but a soql
    ///   sync down, or a query that does not parse.
    public init(_ definition: SyncDefinition) throws {
        guard definition.type == .syncDown, case .down(.soql(let target)) = definition.target else {
            throw LiveSyncError(
                .notWatchable,
                "sync '\(definition.name)' is not a soql sync down; 'syncrun watch' watches soql sync downs only "
                    + "(name them, or leave the names out to watch every one of the plan)"
            )
        }
        let parsed: SOQLQuery
        do {
            parsed = try SOQLQuery.parse(target.query)
        } catch {
            throw LiveSyncError(.notWatchable, "the query of sync '\(definition.name)' does not parse: \(error)")
        }
        self.definition = definition
        self.target = target
        query = parsed.ensuringFields([target.idFieldName, target.modificationDateFieldName])
    }

    /// The sync's name.
    public var name: String { definition.name }

    /// The object the query reads (`FROM`).
    public var object: String { query.unqualifiedObject }

    /// The object's Change Data Capture channel (Change Data Capture Developer Guide, "Subscription
    /// Channels"): `/data/AccountChangeEvent`; `/data/Invoice__ChangeEvent` for `Invoice__c`.
    public var topic: String {
        let object = self.object
        return "/data/" + (object.hasSuffix("__c") ? String(object.dropLast(1)) : object) + "ChangeEvent"
    }

    /// Whether the query keeps a subset by LIMIT or OFFSET: its result then depends on records
    /// outside any batch, so records it stops returning are not removed (as ghost cleaning refuses
    /// such queries).
    public var hasLimitOrOffset: Bool { query.hasLimitOrOffset }

    /// The sync's query restricted to `ids`, one query per ``idsPerQuery`` ids:
    /// `… WHERE Id IN (…) AND (original condition)`; ORDER BY kept; LIMIT and OFFSET dropped (they
    /// choose among all of the object's rows, not among the batch's).
    public func queries(for ids: [String]) -> [String] {
        var unique: [String] = []
        var seen: Set<String> = []
        for id in ids where seen.insert(id).inserted { unique.append(id) }
        var base = query
        base.limit = nil
        base.offset = nil
        return stride(from: 0, to: unique.count, by: Self.idsPerQuery).map { start in
            let chunk = Array(unique[start..<min(start + Self.idsPerQuery, unique.count)])
            return base.addingCondition(.idIn(chunk, field: target.idFieldName)).text
        }
    }
}
