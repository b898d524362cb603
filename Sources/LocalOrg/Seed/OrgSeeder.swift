import Foundation

/// Loads Salesforce CLI data-tree files (record files and plan files, salesforce-rest.md §10) into a
/// local org, resolving `@ReferenceId` lookups across files, in one transaction.
///
/// Seed records may set `CreatedDate`, `LastModifiedDate` and `SystemModstamp` (and the `…ById`
/// lookups) to build exact timelines; the org's clock moves past the latest seeded stamp, so later
/// writes still stamp strictly later.
///
/// ```swift
/// let report = try OrgSeeder(database: org).seed(files: [URL(fileURLWithPath: "data/plan.json")])
/// for (object, count) in report.counts { print(object, count) }
/// ```
public struct OrgSeeder: Sendable {
    /// The org to load into.
    public let database: OrgDatabase

    /// Creates a seeder.
    public init(database: OrgDatabase) { self.database = database }

    /// Creates the records of `files` (plan or record files, in order).
    ///
    /// Records are created in file order; a record whose `@reference` names a record defined later is
    /// created once that record exists.
    /// - Returns: Counts per object and the IDs created for each `referenceId`.
    /// - Throws: ``OrgError`` naming the file and record: bad JSON (with line and column), unknown
    ///   objects, fields or `@references`, and every write validation error. Nothing is created then.
    public func seed(files: [URL]) throws -> OrgSeedReport {
        var pending: [OrgSeedFile.PendingRecord] = []
        for file in files { try OrgSeedFile.load(file, schema: database.schema, into: &pending) }
        let defined = Set(pending.compactMap(\.referenceID))
        return try database.write { writer in
            var references: [String: String] = [:]
            var counts: [String: Int] = [:]
            var order: [String] = []
            var remaining = pending
            while !remaining.isEmpty {
                var next: [OrgSeedFile.PendingRecord] = []
                for record in remaining {
                    guard let fields = try resolve(record, references: references, defined: defined) else {
                        next.append(record)
                        continue
                    }
                    let id: String
                    do {
                        id = try writer.insert(record.object, fields: fields, mode: .seed)
                    } catch let error as OrgError {
                        var located = error
                        located.message = "\(record.location): \(error.message)"
                        throw located
                    }
                    if let reference = record.referenceID { references[reference] = id }
                    if counts[record.object] == nil { order.append(record.object) }
                    counts[record.object, default: 0] += 1
                }
                if next.count == remaining.count, let stuck = next.first {
                    throw OrgError.invalidInput(
                        "\(stuck.location): its @references form a cycle and cannot be resolved"
                    )
                }
                remaining = next
            }
            return OrgSeedReport(
                counts: order.map { ($0, counts[$0] ?? 0) },
                references: references.filter { !$0.key.hasPrefix("#") }
            )
        }
    }

    /// The record's fields with `@references` replaced by IDs; `nil` while a referenced record is not
    /// created yet.
    private func resolve(_ record: OrgSeedFile.PendingRecord, references: [String: String], defined: Set<String>)
        throws -> OrgJSONObject?
    {
        var fields = record.fields
        if let parent = record.parent {
            guard let id = references[parent.referenceID] else { return nil }
            fields[parent.field] = .string(id)
        }
        for (key, value) in record.fields {
            guard case .string(let text) = value, text.hasPrefix("@"), text.count > 1,
                database.schema.object(named: record.object)?.field(named: key)?.type == .reference
            else { continue }
            let reference = String(text.dropFirst())
            if let id = references[reference] {
                fields[key] = .string(id)
            } else if defined.contains(reference) {
                return nil
            } else {
                throw OrgError.invalidInput(
                    "\(record.location): field '\(key)' refers to '@\(reference)', which no seed record defines as its referenceId"
                )
            }
        }
        return fields
    }
}

/// What a seed created.
public struct OrgSeedReport: Sendable, Equatable {
    /// Records created per object, in the order objects were first created.
    public var counts: [(object: String, count: Int)]
    /// The ID created for each `referenceId`.
    public var references: [String: String]

    /// The total number of records created.
    public var total: Int { counts.reduce(0) { $0 + $1.count } }

    public static func == (lhs: OrgSeedReport, rhs: OrgSeedReport) -> Bool {
        lhs.references == rhs.references && lhs.counts.map(\.object) == rhs.counts.map(\.object)
            && lhs.counts.map(\.count) == rhs.counts.map(\.count)
    }
}
