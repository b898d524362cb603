import OrgClient
import SOQL
import SyncEngine

/// Finds what a killed run's creates made in the target, so that nothing is created twice.
///
/// Each create batch records an intent per record (its body) in the migration's journal
/// (``MigrationJournal``, kept apart from the staging store) before it is sent, and the batch's
/// outcome clears them in the transaction that writes the id map. Intents left over belong to a
/// batch whose response never arrived; they are resolved before the run writes anything. As in sync up's crash-safe creates
/// (`SyncUpCreateRecovery`), the target records the running user created since the earliest
/// intent (minus a clock margin) are candidates; a candidate whose values equal a body is adopted
/// into the id map (a multiset match in intent order; a candidate the id map already holds is never
/// adopted). Records with an external id or a `matchFields` key would also be found by the next
/// decide step; the lookup covers records without a key.
struct CreateRecovery: Sendable {
    let target: any OrgClient
    let books: MigrationBooks
    let sobject: String
    let run: String

    /// Adopts what it finds; returns the number of records adopted.
    func recover(userID: String) async throws -> Int {
        let intents = try books.intents(of: sobject)
        guard !intents.isEmpty else { return 0 }
        var bodies: [(sourceID: String, fields: [String: OrgValue])] = []
        for intent in intents {
            bodies.append((intent.sourceID, try OrgValue(parsing: intent.body).objectValue ?? [:]))
        }
        // Records already paired with a target record (by a later batch) need no lookup.
        let alreadyMapped = try books.targetIDs(of: bodies.map(\.sourceID), sobjects: [sobject])
        bodies.removeAll { alreadyMapped[$0.sourceID] != nil }
        var fields: [String] = []
        for body in bodies {
            for field in body.fields.keys.sorted() where !fields.contains(field) { fields.append(field) }
        }
        var candidates: [(id: String, fields: [String: OrgValue])] = []
        if !bodies.isEmpty {
            let since = (intents.map(\.at).min() ?? 0) - SyncUpCreateRecovery.clockSkewMargin
            let query = SOQLQuery.select(
                fields: MigrationOrder.union(["Id"], fields),
                from: sobject,
                createdBy: userID,
                since: since
            )
            for try await page in target.queryPages(query.text) {
                for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                    guard let values = record.objectValue, let id = values["Id"]?.stringValue else { continue }
                    candidates.append((id, values))
                }
            }
            let taken = try books.mappedTargets(candidates.map(\.id))
            candidates.removeAll { taken.contains($0.id) }
        }
        var adopted: [(sourceID: String, targetID: String)] = []
        for body in bodies {
            guard let match = candidates.firstIndex(where: { Values.holds($0.fields, body.fields) }) else { continue }
            adopted.append((body.sourceID, candidates.remove(at: match).id))
        }
        try books.recordBatch(
            sobject: sobject,
            mapped: adopted,
            createdRun: run,
            clearIntents: intents.map(\.sourceID)
        )
        return adopted.count
    }
}
