import OrgClient
import SOQL
import SoupStore

/// Recognises creates whose response was lost (sync-semantics §7.5; issue "crash-safe creates").
///
/// A record still marked created, with a `local_` id and a ``SyncUpCreateIntent``, may already
/// exist on the server: its create was sent, then the process died or the connection dropped
/// before the id was stored. Before it is created again, it is looked up: per sObject type, one
/// query (paged) for the records the session's user created since the earliest intent, minus
/// ``clockSkewMargin``:
///
/// ```sql
/// SELECT Id, <modField>, <sent fields> FROM <Type>
/// WHERE CreatedById = '<user>' AND CreatedDate >= <earliest intent - margin>
/// ```
///
/// A candidate matches a record when every field of the body that was sent (kept in the intent)
/// equals the candidate's value (numbers compared as numbers, date-times as instants). Matching is
/// a multiset match: records are taken in entry-id order, each adopts the first candidate not yet
/// adopted, so k identical bodies adopt at most k records; a candidate whose id is already stored
/// in the soup is never adopted.
///
/// An adopted record whose current body still equals what was sent is `created` with the
/// candidate's id (nothing is sent). One edited since the intent continues as an update of the
/// candidate (its local modification date set to the candidate's, so the conflict check passes).
/// A record without a candidate is created again. A candidate the server changed after the lost
/// create no longer matches: the record is then created a second time (documented limit).
package struct SyncUpCreateRecovery: Sendable {
    let org: any OrgClient
    let plan: SyncUpRequestPlan
    let soupName: String
    let store: SoupStore

    /// The allowed difference between the engine's clock (intent times) and the org's
    /// (`CreatedDate`).
    package static let clockSkewMargin: Int64 = 15 * 60 * 1000

    /// Looks up the pending creates of `records`, adopting what the server already has.
    ///
    /// - Returns: The outcomes decided (adopted, unchanged records); edited adopted records are
    ///   turned into updates in `records`.
    /// - Throws: `OrgClientError` when the identity call or a query fails (the run fails).
    func recover(_ records: inout [SyncUpRecord]) async throws -> [Int64: SyncUpOutcome] {
        var pendingByType: [String: [(index: Int, intent: SyncUpCreateIntent)]] = [:]
        for (index, record) in records.enumerated() where record.action == .create && record.serverID == nil {
            guard let intent = SyncUpCreateIntent(in: record.fields), let type = record.objectType,
                case .create = plan.request(for: record)
            else { continue }
            pendingByType[type, default: []].append((index, intent))
        }
        guard !pendingByType.isEmpty else { return [:] }
        let userID = try await org.identity().userID
        var outcomes: [Int64: SyncUpOutcome] = [:]
        for type in pendingByType.keys.sorted() {
            let pending = pendingByType[type] ?? []
            // A record still holding its local id with an update intent was adopted by an earlier
            // run, which updated the candidate and was killed before storing its id: the candidate
            // holds the create's body, or (once the update landed) the body both sent.
            let bodies = pending.map { item -> [[String: OrgValue]] in
                guard let update = SyncUpUpdateIntent.intent(in: records[item.index].fields) else {
                    return [item.intent.fields]
                }
                return [item.intent.fields, item.intent.fields.merging(update.fields) { $1 }]
            }
            var candidates = try await self.candidates(
                of: type,
                fields: bodies.flatMap { $0.flatMap(\.keys) },
                since: pending.map(\.intent.at).min() ?? 0,
                userID: userID
            )
            let (soup, idField) = (soupName, plan.idFieldName)
            let candidateIDs = candidates.map(\.id)
            let stored = Set(
                try await store.read {
                    try $0.entries(in: soup, wherePath: idField, isIn: candidateIDs).compactMap {
                        try OrgValue(parsing: $0.json)[idField]?.stringValue
                    }
                }
            )
            candidates.removeAll { stored.contains($0.id) }
            for (position, (index, intent)) in pending.enumerated() {
                let sent = bodies[position]
                guard
                    let match = candidates.firstIndex(where: { candidate in
                        sent.contains { Self.matches(candidate.fields, sent: $0) }
                    })
                else {
                    continue
                }
                let candidate = candidates.remove(at: match)
                var record = records[index]
                let current: [String: OrgValue]
                if case .create(_, let fields) = plan.request(for: record) { current = fields } else { current = [:] }
                record.fields[plan.idFieldName] = .string(candidate.id)
                record.unsavedMembers.insert(plan.idFieldName)
                if Self.matches(current, sent: intent.fields), current.count == intent.fields.count {
                    outcomes[record.entryID] = .created(id: candidate.id)
                } else {
                    record.fields[plan.modificationDateFieldName] = candidate.modified.map(OrgValue.string) ?? .null
                    record.fields[ControlFields.locallyCreated] = .bool(false)
                    record.fields[ControlFields.locallyUpdated] = .bool(true)
                    record.unsavedMembers.formUnion([
                        plan.modificationDateFieldName, ControlFields.locallyCreated, ControlFields.locallyUpdated,
                    ])
                    record.action = .update
                }
                records[index] = record
            }
        }
        return outcomes
    }

    private struct Candidate {
        var id: String
        var modified: String?
        var fields: [String: OrgValue]
    }

    private func candidates(of type: String, fields sentFields: [String], since earliest: Int64, userID: String)
        async throws -> [Candidate]
    {
        var fields: [String] = []
        for field in sentFields.sorted() where !fields.contains(field) { fields.append(field) }
        let since = earliest - Self.clockSkewMargin
        let query = SOQLQuery.select(
            fields: SOQLText.ensuring(["Id", plan.modificationDateFieldName], in: fields),
            from: type,
            createdBy: userID,
            since: since
        )
        var candidates: [Candidate] = []
        for try await page in org.queryPages(query.text) {
            for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                guard let object = record.objectValue, let id = object["Id"]?.stringValue else { continue }
                var values: [String: OrgValue] = [:]
                for field in fields { values[field] = OrgValue.value(atPath: field, in: object) ?? .null }
                candidates.append(
                    Candidate(id: id, modified: object[plan.modificationDateFieldName]?.stringValue, fields: values)
                )
            }
        }
        return candidates
    }

    /// Whether `candidate` holds every value of `sent`.
    package static func matches(_ candidate: [String: OrgValue], sent: [String: OrgValue]) -> Bool {
        sent.allSatisfy { field, value in isEqual(candidate[field] ?? .null, value) }
    }

    private static func isEqual(_ a: OrgValue, _ b: OrgValue) -> Bool {
        if a == b { return true }
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        if let x = a.stringValue, let y = b.stringValue,
            let p = SalesforceDateTime.milliseconds(from: x), let q = SalesforceDateTime.milliseconds(from: y)
        {
            return p == q
        }
        return false
    }
}
