import OrgClient
import SOQL
import SyncConfig

/// A reference field of a migrated object whose value is rewritten from source ids to target ids.
public struct MigrationReference: Sendable, Hashable {
    /// The field, e.g. `AccountId`.
    public var field: String
    /// The migrated objects it can point at (source describe `referenceTo`).
    public var referenceTo: [String]
    /// Whether it may be empty (source describe `nillable`).
    public var isNillable: Bool
    /// Written in the second pass (insert without it, then update it): self-references and
    /// references that close a cycle, when nillable.
    public var isDeferred: Bool

    public init(field: String, referenceTo: [String], isNillable: Bool, isDeferred: Bool = false) {
        self.field = field
        self.referenceTo = referenceTo
        self.isNillable = isNillable
        self.isDeferred = isDeferred
    }
}

/// A reference field of the source describe (`type` `reference`).
public struct SourceReferenceField: Sendable, Hashable {
    public var name: String
    public var referenceTo: [String]
    public var isNillable: Bool

    public init(name: String, referenceTo: [String], isNillable: Bool) {
        self.name = name
        self.referenceTo = referenceTo
        self.isNillable = isNillable
    }
}

/// One soup of the migration: where its records are read, and how they are written.
public struct MigrationObject: Sendable, Hashable {
    /// The sObject, from the sync downs' `FROM`.
    public var sobject: String
    /// The staging soup.
    public var soup: String
    /// The sync downs reading it (several: their union).
    public var syncDowns: [String]
    /// The sync up writing it; `nil` when the soup is read but not written.
    public var syncUp: String?
    /// The id field of the soup's records.
    public var idField: String
    /// Fields written on create and on update (after checks against the target).
    public var createFields: [String]
    public var updateFields: [String]
    /// `externalIdFieldName`: upserts by this field.
    public var externalIDField: String?
    /// `matchFields`: the key finding the target's counterpart.
    public var matchFields: [String]
    /// The reference fields among the written ones that point at migrated objects.
    public var references: [MigrationReference]
    /// A required self-reference: records are written parents first (rounds), not in two passes.
    public var parentFirstField: String?
    /// Fields whose values are mapped by a fixed table, source id → target id (`RecordTypeId`,
    /// by record type developer name and namespace; `OwnerId`, by user), by lowercased field name.
    public var valueMaps: [String: [String: String]] = [:]
    /// The value written when a mapped field's source value is not in its table, by lowercased
    /// field name (`OwnerId`: the running user of the target). Without one, the record fails.
    public var valueMapFallbacks: [String: String] = [:]
    /// Where a written field is read in the staged source record when the orgs name it
    /// differently (a namespace prefix in one org only: `ns__Field__c` ↔ `Field__c`), by lowercased
    /// target field name. `createFields` and `updateFields` hold the target's names.
    public var sourceFieldNames: [String: String] = [:]
    /// The sync up's masks (`options.mask`), by field name as the config spells it.
    public var masks: [String: FieldMask] = [:]
    /// The sync up's `options.maxConcurrentRequests`: the batches written at once.
    public var maxConcurrentRequests = SyncOptions.defaultMaxConcurrentRequests
    /// The target's text field lengths, by lowercased field name (masked values are cut to them).
    var targetLengths: [String: Int] = [:]
    /// The key the refusal of an object with no key suggests: `Name` when the target has it,
    /// else a field its describe marks `idLookup` (not `Id`).
    var suggestedKey: String?

    public init(
        sobject: String,
        soup: String,
        syncDowns: [String] = [],
        syncUp: String? = nil,
        idField: String = "Id",
        createFields: [String] = [],
        updateFields: [String] = [],
        externalIDField: String? = nil,
        matchFields: [String] = [],
        references: [MigrationReference] = [],
        parentFirstField: String? = nil
    ) {
        self.sobject = sobject
        self.soup = soup
        self.syncDowns = syncDowns
        self.syncUp = syncUp
        self.idField = idField
        self.createFields = createFields
        self.updateFields = updateFields
        self.externalIDField = externalIDField
        self.matchFields = matchFields
        self.references = references
        self.parentFirstField = parentFirstField
    }

    /// Whether records are written (the soup has a sync up).
    public var isWritten: Bool { syncUp != nil }

    /// The references written in the first pass.
    var immediateReferences: [MigrationReference] { references.filter { !$0.isDeferred } }
    /// The references written in the second pass.
    var deferredReferences: [MigrationReference] { references.filter(\.isDeferred) }
}

/// A config the migration cannot run, said before anything is written (exit status 2).
public struct MigrationConfigError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) { self.message = message }
}

/// What the config asks to migrate: the soups read by soql sync downs, written by the sync ups of
/// the same soups.
public struct MigrationSources: Sendable {
    /// One entry per soup, in config order.
    public var objects: [MigrationObject]
    /// The sync downs to run, in config order.
    public var syncDowns: [SyncDefinition]
    /// Fields the sync downs select per soup (plain fields), the default field list.
    var selectedFields: [String: [String]]
    /// The objects the config's other sync ups write (left out by `--only`): references to them
    /// are rewritten through the id map of earlier runs.
    public var writtenElsewhere: [String] = []
    /// The keys (`externalIdFieldName`, else `matchFields`) the config's sync ups not migrated in
    /// this run declare, by lowercased sObject: a polymorphic value pointing at such a record is
    /// kept when the target holds the same record by that key.
    public var elsewhereKeys: [String: [String]] = [:]

    /// Reads the config.
    ///
    /// - Parameter only: Sync up names to migrate (empty: all); their soups' sync downs are read.
    /// - Throws: ``MigrationConfigError`` for unknown names, non-soql sync downs of a migrated soup,
    ///   soups read from two objects, sync ups with no sync down.
    public init(config: SyncsConfig, only: [String] = []) throws {
        let ups = config.syncs.filter { $0.type == .syncUp }
        for name in only where !ups.contains(where: { $0.name == name }) {
            let known = ups.map(\.name).joined(separator: ", ")
            throw MigrationConfigError("--only '\(name)' is not a sync up of the config (sync ups: \(known))")
        }
        let chosenUps = only.isEmpty ? ups : ups.filter { only.contains($0.name) }
        let chosenSoups = Set(chosenUps.map(\.soupName))
        var objects: [MigrationObject] = []
        var downs: [SyncDefinition] = []
        var selected: [String: [String]] = [:]
        for sync in config.syncs where sync.type == .syncDown {
            guard only.isEmpty || chosenSoups.contains(sync.soupName) else { continue }
            guard case .down(let target) = sync.target, case .soql(let soql) = target else {
                if chosenSoups.contains(sync.soupName) {
                    throw MigrationConfigError(
                        "sync down '\(sync.name)' of soup '\(sync.soupName)' is not a soql target; migrate reads "
                            + "soups through soql sync downs only (change its target, or leave the soup out with --only)"
                    )
                }
                continue
            }
            let query: SOQLQuery
            do {
                query = try SOQLQuery.parse(soql.query)
            } catch {
                throw MigrationConfigError("sync down '\(sync.name)': its query does not parse: \(error)")
            }
            let sobject = query.unqualifiedObject
            let fields = query.selectedFields.map { $0.unqualified(by: query.object) }.filter {
                $0.components.count == 1
            }
            .map(\.text)
            downs.append(sync)
            if let index = objects.firstIndex(where: { $0.soup == sync.soupName }) {
                guard objects[index].sobject.lowercased() == sobject.lowercased() else {
                    throw MigrationConfigError(
                        "soup '\(sync.soupName)' is read from \(objects[index].sobject) and from \(sobject) "
                            + "(sync down '\(sync.name)'); a migrated soup holds one object"
                    )
                }
                objects[index].syncDowns.append(sync.name)
                for field in fields where !(selected[sync.soupName] ?? []).contains(field) {
                    selected[sync.soupName, default: []].append(field)
                }
            } else {
                objects.append(
                    MigrationObject(
                        sobject: sobject,
                        soup: sync.soupName,
                        syncDowns: [sync.name],
                        idField: soql.idFieldName
                    )
                )
                selected[sync.soupName] = fields
            }
        }
        for up in chosenUps {
            guard case .up(let target) = up.target else { continue }
            guard let index = objects.firstIndex(where: { $0.soup == up.soupName }) else {
                throw MigrationConfigError(
                    "sync up '\(up.name)' writes soup '\(up.soupName)', which no soql sync down reads; migrate "
                        + "needs a sync down of the same soup to read the source"
                )
            }
            if let other = objects[index].syncUp {
                throw MigrationConfigError(
                    "soup '\(up.soupName)' has two sync ups ('\(other)' and '\(up.name)'); pick one with --only"
                )
            }
            let defaults = up.options.fieldlist ?? selected[up.soupName] ?? []
            objects[index].syncUp = up.name
            objects[index].createFields = target.createFieldlist ?? defaults
            objects[index].updateFields = target.updateFieldlist ?? defaults
            objects[index].externalIDField = target.externalIdFieldName
            objects[index].matchFields = target.matchFields ?? []
            objects[index].masks = up.options.mask
            objects[index].maxConcurrentRequests = up.options.maxConcurrentRequests
        }
        self.objects = objects
        self.syncDowns = downs
        self.selectedFields = selected
        let chosenObjects = Set(objects.filter(\.isWritten).map { $0.sobject.lowercased() })
        for up in ups where !chosenUps.contains(where: { $0.name == up.name }) {
            for sync in config.syncs where sync.type == .syncDown && sync.soupName == up.soupName {
                guard case .down(let target) = sync.target, case .soql(let soql) = target,
                    let query = try? SOQLQuery.parse(soql.query)
                else { continue }
                let name = query.unqualifiedObject
                if !chosenObjects.contains(name.lowercased()), !writtenElsewhere.contains(name) {
                    writtenElsewhere.append(name)
                }
                if !chosenObjects.contains(name.lowercased()), case .up(let upTarget) = up.target {
                    let keys = upTarget.externalIdFieldName.map { [$0] } ?? upTarget.matchFields ?? []
                    if !keys.isEmpty, elsewhereKeys[name.lowercased()] == nil {
                        elsewhereKeys[name.lowercased()] = keys
                    }
                }
            }
        }
    }
}

/// Orders migrated objects by their references, parents first, and marks the references written
/// in a second pass.
public enum MigrationOrder {
    /// Fields that are never written by a migration (the org sets them).
    static let systemFields: Set<String> = [
        "id", "isdeleted", "createddate", "createdbyid", "lastmodifieddate", "lastmodifiedbyid", "systemmodstamp",
        "lastactivitydate", "lastvieweddate", "lastreferenceddate",
    ]

    /// Fills in each written object's references from the source describes, orders the objects
    /// parents first, and decides which references wait for the second pass.
    ///
    /// - Parameters:
    ///   - referenceFields: the source describe's reference fields per sObject (lowercased).
    ///   - writtenElsewhere: objects other sync ups write (left out by `--only`): references to
    ///     them are rewritten through the id map, with no ordering constraint.
    /// - Returns: the objects in write order (read-only soups last, in config order).
    /// - Throws: ``MigrationConfigError`` for a cycle of required references.
    public static func order(
        _ objects: [MigrationObject],
        referenceFields: [String: [SourceReferenceField]],
        writtenElsewhere: [String] = []
    ) throws -> [MigrationObject] {
        let written = objects.filter(\.isWritten)
        let elsewhere = Set(writtenElsewhere.map { $0.lowercased() })
        let writtenNames = Set(written.map { $0.sobject.lowercased() }).union(elsewhere)
        var prepared: [MigrationObject] = []
        for var object in written {
            let sourceFields = referenceFields[object.sobject.lowercased()] ?? []
            var references: [MigrationReference] = []
            for field in Self.union(object.createFields, object.updateFields) {
                guard let description = sourceFields.first(where: { $0.name.lowercased() == field.lowercased() }) else {
                    continue
                }
                let targets = description.referenceTo.filter { writtenNames.contains($0.lowercased()) }
                guard !targets.isEmpty else { continue }
                references.append(
                    MigrationReference(
                        field: description.name,
                        referenceTo: targets,
                        isNillable: description.isNillable
                    )
                )
            }
            object.references = references
            prepared.append(object)
        }
        var remaining = prepared
        var ordered: [MigrationObject] = []
        // Objects written by earlier runs (left out by --only) are there already.
        var emitted: Set<String> = elsewhere
        while !remaining.isEmpty {
            // Objects whose references all point at emitted objects (self-references aside).
            if let index = remaining.firstIndex(where: { object in
                object.references.allSatisfy { reference in
                    reference.referenceTo.allSatisfy {
                        emitted.contains($0.lowercased()) || $0.lowercased() == object.sobject.lowercased()
                    }
                }
            }) {
                ordered.append(Self.settlingSelfReferences(remaining.remove(at: index)))
                emitted.insert(ordered[ordered.count - 1].sobject.lowercased())
                continue
            }
            // A cycle: the first object whose pending references are all nillable goes now, those
            // references in the second pass.
            guard
                let index = remaining.firstIndex(where: { object in
                    object.references.allSatisfy { reference in
                        reference.isNillable
                            || reference.referenceTo.allSatisfy {
                                emitted.contains($0.lowercased()) || $0.lowercased() == object.sobject.lowercased()
                            }
                    }
                })
            else {
                let names = remaining.map(\.sobject).joined(separator: ", ")
                throw MigrationConfigError(
                    "the objects \(names) reference each other through required (not nillable) fields only; "
                        + "no order can write them (migrate one of them first with --only)"
                )
            }
            var object = remaining.remove(at: index)
            for position in object.references.indices {
                let reference = object.references[position]
                let pending = reference.referenceTo.contains {
                    !emitted.contains($0.lowercased()) && $0.lowercased() != object.sobject.lowercased()
                }
                if pending { object.references[position].isDeferred = true }
            }
            ordered.append(Self.settlingSelfReferences(object))
            emitted.insert(object.sobject.lowercased())
        }
        return ordered + objects.filter { !$0.isWritten }
    }

    /// A self-reference is deferred when nillable, else written parents first.
    private static func settlingSelfReferences(_ object: MigrationObject) -> MigrationObject {
        var object = object
        for position in object.references.indices
        where object.references[position].referenceTo.contains(where: {
            $0.lowercased() == object.sobject.lowercased()
        }) {
            if object.references[position].isNillable {
                object.references[position].isDeferred = true
            } else if object.parentFirstField == nil {
                object.parentFirstField = object.references[position].field
            }
        }
        return object
    }

    static func union(_ a: [String], _ b: [String]) -> [String] {
        var result = a
        for field in b where !result.contains(where: { $0.lowercased() == field.lowercased() }) {
            result.append(field)
        }
        return result
    }
}
