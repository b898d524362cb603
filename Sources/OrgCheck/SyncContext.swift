import JSONCore
import SOQL
import SyncConfig

/// The checks of one sync (or one soup's index paths) against the org's shape.
struct SyncContext {
    let shape: OrgShape
    let map: ConfigSourceMap
    /// `syncs[i]`.
    let base: [ConfigSourceMap.Step]
    var report: CheckReport

    private func steps(_ keys: String...) -> [ConfigSourceMap.Step] {
        base + keys.map { .key($0) }
    }

    private mutating func error(_ code: Diagnostic.Code, at position: CheckPosition, _ message: String) {
        report.add(.error, code, map: map, at: position, message)
    }

    private mutating func warning(_ code: Diagnostic.Code, at position: CheckPosition, _ message: String) {
        report.add(.warning, code, map: map, at: position, message)
    }

    // MARK: - Sync down

    mutating func checkDown(_ target: SyncDownTarget) {
        switch target {
        case .soql(let soql):
            checkSOQL(soql)
        case .mru(let mru):
            checkFieldlistTarget(sobjectType: mru.sobjectType, fieldlist: mru.fieldlist)
        case .refresh(let refresh):
            checkFieldlistTarget(sobjectType: refresh.sobjectType, fieldlist: refresh.fieldlist)
        case .parentChildren(let target):
            checkParentChildren(
                parent: target.parent,
                children: target.children,
                relationshipType: target.relationshipType,
                parentFields: target.parentFieldlist,
                childFields: target.childrenFieldlist,
                isUp: false
            )
        default:
            break
        }
    }

    private mutating func checkSOQL(_ target: SOQLSyncDownTarget) {
        guard let query = try? SOQLQuery.parse(target.query) else { return }
        currentQuery = target.query
        let queryPath = steps("target", "query")
        let objectOffset = query.objectRange?.utf8Offset ?? 0
        guard let object = requireObject(query.unqualifiedObject, at: .inString(queryPath, utf8Offset: objectOffset))
        else { return }
        for item in query.select {
            switch item {
            case .field(let path):
                checkSOQLPath(path, query: query, on: object, in: queryPath)
            case .subquery(let subquery):
                let name = subquery.unqualifiedObject
                let lowered = name.lowercased()
                let known = object.childRelationships.contains { $0.relationshipName?.lowercased() == lowered }
                if !known {
                    error(
                        .relationshipMismatch,
                        at: .inString(queryPath, utf8Offset: subquery.objectRange?.utf8Offset ?? objectOffset),
                        "'\(object.name)' has no child relationship '\(name)' in this org"
                    )
                }
            case .count, .typeOf:
                // A TYPEOF's fields depend on each record's object: not checked against one describe.
                break
            }
        }
        if let condition = query.condition {
            checkCondition(condition, query: query, on: object, in: queryPath)
        }
        for order in query.orderBy {
            checkSOQLPath(order.field, query: query, on: object, in: queryPath)
        }
        checkIDAndDate(object, idFieldName: target.idFieldName, dateFieldName: target.modificationDateFieldName)
    }

    private mutating func checkCondition(
        _ condition: SOQLCondition,
        query: SOQLQuery,
        on object: ObjectShape,
        in queryPath: [ConfigSourceMap.Step]
    ) {
        switch condition {
        case .and(let operands), .or(let operands):
            operands.forEach { checkCondition($0, query: query, on: object, in: queryPath) }
        case .not(let operand):
            checkCondition(operand, query: query, on: object, in: queryPath)
        case .comparison(let path, _, let value):
            checkSOQLPath(path, query: query, on: object, in: queryPath)
            checkLiteralID(value, in: queryPath)
        case .like(let path, _):
            checkSOQLPath(path, query: query, on: object, in: queryPath)
        case .in(let path, let values, _):
            checkSOQLPath(path, query: query, on: object, in: queryPath)
            values.forEach { checkLiteralID($0, in: queryPath) }
        case .inSubquery(let path, _, _):
            checkSOQLPath(path, query: query, on: object, in: queryPath)
        }
    }

    /// A field path of the query, `Name` or `Account.Owner.Name`, resolved through relationships.
    private mutating func checkSOQLPath(
        _ path: SOQLFieldPath,
        query: SOQLQuery,
        on object: ObjectShape,
        in queryPath: [ConfigSourceMap.Step]
    ) {
        let unqualified = query.objectQualifier.map { path.unqualified(by: $0) } ?? path
        let offset = path.sourceRange?.utf8Offset ?? 0
        checkFieldPath(
            unqualified.text,
            on: object,
            at: .inString(queryPath, utf8Offset: offset)
        )
    }

    /// A dotted field path on `object` (relationship names, then a field).
    @discardableResult
    mutating func checkFieldPath(_ dotted: String, on object: ObjectShape, at position: CheckPosition)
        -> (object: ObjectShape, field: FieldShape)?
    {
        let components = dotted.split(separator: ".").map(String.init)
        var current = object
        for (index, component) in components.enumerated() {
            if index == components.count - 1 {
                return requireField(component, on: current, at: position).map { (current, $0) }
            }
            guard let reference = current.field(relationshipName: component) else {
                if let suggestion = Self.namespaceAlternative(
                    component,
                    among: current.fields.compactMap(\.relationshipName)
                ) {
                    error(
                        .namespaceMismatch,
                        at: position,
                        "relationship '\(component)' does not exist on '\(current.name)'; "
                            + "did you mean '\(suggestion)'? (namespace prefix)"
                    )
                } else {
                    error(
                        .unknownField,
                        at: position,
                        "relationship '\(component)' does not exist on '\(current.name)' "
                            + "or is not visible to the current user"
                    )
                }
                return nil
            }
            guard let next = reference.referenceTo.lazy.compactMap(shape.object(named:)).first else { return nil }
            current = next
        }
        return nil
    }

    /// Warns when a soup index's type cannot hold the values of the field it indexes, as SmartStore
    /// stores them: a compound `address` or `location` value is a JSON object and `base64` a blob
    /// (only a `json1` index reads into them), `integer` holds integers and booleans, `floating`
    /// numbers, `full_text` text.
    mutating func checkIndexType(
        _ type: IndexType,
        field: FieldShape,
        object: ObjectShape,
        at position: CheckPosition
    ) {
        let text: Set<String> = [
            "string", "textarea", "email", "phone", "url", "picklist", "multipicklist", "combobox",
            "encryptedstring", "id", "reference",
        ]
        let expected: String?
        switch type {
        case .json1: expected = nil
        case _ where ["address", "location", "base64"].contains(field.type):
            expected = "a 'json1' index (or an index on its components)"
        case .integer where !["int", "boolean"].contains(field.type):
            expected = "an index of another type ('integer' holds int and boolean fields)"
        case .floating where !["double", "currency", "percent", "int"].contains(field.type):
            expected = "an index of another type ('floating' holds number fields)"
        case .fullText where !text.contains(field.type):
            expected = "a 'string' index ('full_text' holds text fields)"
        default: expected = nil
        }
        guard let expected else { return }
        let article = field.type.first.map { "aeiou".contains($0.lowercased()) } == true ? "an" : "a"
        warning(
            .indexTypeMismatch,
            at: position,
            "'\(object.name).\(field.name)' is \(article) \(field.type) field; index type '\(type.rawValue)' cannot "
                + "hold its values as SmartStore stores them; use \(expected)"
        )
    }

    private mutating func checkLiteralID(_ value: SOQLValue, in queryPath: [ConfigSourceMap.Step]) {
        guard case .string(let text) = value, let id = SalesforceID(text) else { return }
        let prefix = id.keyPrefix
        let isRecordType = prefix == "012"
        let owner = shape.objects.first { $0.keyPrefix == prefix }
        guard isRecordType || owner != nil else { return }
        let what = isRecordType ? "a RecordType id" : "a '\(owner?.name ?? "")' id"
        let offset = currentQuery.flatMap { Self.utf8Offset(of: "'" + text + "'", in: $0) } ?? 0
        warning(
            .orgSpecificID,
            at: .inString(queryPath, utf8Offset: offset),
            "'\(text)' is \(what), valid in one org only; "
                + (isRecordType
                    ? "filter on RecordType.DeveloperName instead"
                    : "select the record by a field that is the same in every org")
        )
    }

    /// The query text being checked (set by the SOQL check for literal positions).
    var currentQuery: String?

    private static func utf8Offset(of needle: String, in text: String) -> Int? {
        guard let range = text.range(of: needle) else { return nil }
        return text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    }

    private mutating func checkFieldlistTarget(sobjectType: String, fieldlist: [String]) {
        guard let object = requireObject(sobjectType, at: .value(steps("target", "sobjectType"))) else { return }
        for (index, field) in fieldlist.enumerated() {
            checkFieldPath(field, on: object, at: .value(steps("target", "fieldlist") + [.index(index)]))
        }
    }

    /// `idFieldName` exists; `modificationDateFieldName` exists and is a datetime (under `target`,
    /// or under `target.<info>` for a parent / children info).
    private mutating func checkIDAndDate(
        _ object: ObjectShape,
        idFieldName: String,
        dateFieldName: String,
        info: String? = nil
    ) {
        let prefix = steps("target") + (info.map { [.key($0)] } ?? [])
        _ = requireField(idFieldName, on: object, at: .value(prefix + [.key("idFieldName")]))
        let datePosition = CheckPosition.value(prefix + [.key("modificationDateFieldName")])
        if let field = requireField(dateFieldName, on: object, at: datePosition), field.type != "datetime" {
            error(
                .notDatetime,
                at: datePosition,
                "'\(object.name).\(field.name)' is a \(field.type) field, not a datetime; "
                    + "modificationDateFieldName must name a datetime field such as 'LastModifiedDate'"
            )
        }
    }

    // MARK: - Parent / children

    private mutating func checkParentChildren(
        parent: ParentInfo,
        children: ChildrenInfo,
        relationshipType: RelationshipType,
        parentFields: [String],
        childFields: [String],
        isUp: Bool
    ) {
        let parentObject = requireObject(parent.sobjectType, at: .value(steps("target", "parent", "sobjectType")))
        let childObject = requireObject(children.sobjectType, at: .value(steps("target", "children", "sobjectType")))
        let parentListKey = isUp ? "createFieldlist" : "parentFieldlist"
        let childListKey = isUp ? "childrenCreateFieldlist" : "childrenFieldlist"
        if let parentObject, !isUp {
            for (index, field) in parentFields.enumerated() {
                checkFieldPath(field, on: parentObject, at: .value(steps("target", parentListKey) + [.index(index)]))
            }
        }
        if let childObject, !isUp {
            for (index, field) in childFields.enumerated() {
                checkFieldPath(field, on: childObject, at: .value(steps("target", childListKey) + [.index(index)]))
            }
        }
        if let parentObject, !isUp {
            checkIDAndDate(
                parentObject,
                idFieldName: parent.idFieldName,
                dateFieldName: parent.modificationDateFieldName,
                info: "parent"
            )
        }
        if let childObject, !isUp {
            checkIDAndDate(
                childObject,
                idFieldName: children.idFieldName,
                dateFieldName: children.modificationDateFieldName,
                info: "children"
            )
        }
        guard let parentObject, let childObject else { return }
        let fieldPosition = CheckPosition.value(steps("target", "children", "parentIdFieldName"))
        guard let childField = requireField(children.parentIdFieldName, on: childObject, at: fieldPosition) else {
            return
        }
        if !childField.referenceTo.contains(where: { $0.lowercased() == parentObject.name.lowercased() }) {
            let quoted = childField.referenceTo.map { "'\($0)'" }.joined(separator: ", ")
            let targets = quoted.isEmpty ? "nothing" : quoted
            error(
                .relationshipMismatch,
                at: fieldPosition,
                "'\(childObject.name).\(childField.name)' does not point at '\(parentObject.name)' in this org "
                    + "(it points at \(targets))"
            )
            return
        }
        let relationship = parentObject.childRelationships.first {
            $0.childObject.lowercased() == childObject.name.lowercased()
                && $0.field.lowercased() == childField.name.lowercased()
        }
        let pluralPosition = CheckPosition.value(steps("target", "children", "sobjectTypePlural"))
        if relationship?.relationshipName?.lowercased() != children.sobjectTypePlural.lowercased() {
            let actual = relationship?.relationshipName.map { "'\($0)'" } ?? "no relationship name"
            error(
                .relationshipMismatch,
                at: pluralPosition,
                "'\(parentObject.name)' has no child relationship '\(children.sobjectTypePlural)' through "
                    + "'\(childObject.name).\(childField.name)' in this org (the org calls it \(actual)); "
                    + "sobjectTypePlural must be the child relationship name"
            )
        }
        // Real field entries say `cascadeDelete: false`; the cascade shows on the parent's child
        // relationship.
        let isMasterDetail =
            childField.isCascadeDelete || relationship?.isCascadeDelete == true || childField.relationshipOrder != nil
        if (relationshipType == .masterDetail) != isMasterDetail {
            error(
                .relationshipMismatch,
                at: .value(steps("target", "relationshipType")),
                "relationshipType is '\(relationshipType.rawValue)' but '\(childObject.name).\(childField.name)' is a "
                    + (isMasterDetail ? "master-detail field (cascadeDelete)" : "lookup (no cascadeDelete)")
                    + " in this org; use '\(isMasterDetail ? "MASTER_DETAIL" : "LOOKUP")'"
            )
        }
    }

    // MARK: - Sync up

    mutating func checkUp(_ target: SyncUpTarget, sync: SyncDefinition, object objectName: String?) {
        if let info = target.parentChildren {
            checkParentChildren(
                parent: info.parent,
                children: info.children,
                relationshipType: info.relationshipType,
                parentFields: [],
                childFields: [],
                isUp: true
            )
            if let parent = shape.object(named: info.parent.sobjectType) {
                checkWriteLists(of: target, sync: sync, on: parent)
                checkExternalID(
                    info.parent.externalIdFieldName,
                    on: parent,
                    at: steps("target", "parent", "externalIdFieldName")
                )
            }
            if let child = shape.object(named: info.children.sobjectType) {
                checkWriteLists(
                    create: info.childrenCreateFieldlist,
                    createKey: "childrenCreateFieldlist",
                    update: info.childrenUpdateFieldlist,
                    updateKey: "childrenUpdateFieldlist",
                    fieldlist: nil,
                    on: child
                )
                checkExternalID(
                    info.children.externalIdFieldName,
                    on: child,
                    at: steps("target", "children", "externalIdFieldName")
                )
            }
            return
        }
        guard let objectName, let object = shape.object(named: objectName) else { return }
        checkWriteLists(of: target, sync: sync, on: object)
        checkExternalID(target.externalIdFieldName, on: object, at: steps("target", "externalIdFieldName"))
        checkMasks(sync.options.mask, on: object)
        if sync.options.mergeMode == .leaveIfChanged {
            checkIDAndDate(object, idFieldName: target.idFieldName, dateFieldName: target.modificationDateFieldName)
        }
    }

    /// The target's own `createFieldlist` and `updateFieldlist` (each else `options.fieldlist`) on
    /// `object`: the parent's lists for a `parent_children` target.
    private mutating func checkWriteLists(of target: SyncUpTarget, sync: SyncDefinition, on object: ObjectShape) {
        checkWriteLists(
            create: target.createFieldlist,
            createKey: "createFieldlist",
            update: target.updateFieldlist,
            updateKey: "updateFieldlist",
            fieldlist: sync.options.fieldlist,
            on: object
        )
    }

    private mutating func checkWriteLists(
        create: [String]?,
        createKey: String,
        update: [String]?,
        updateKey: String,
        fieldlist: [String]?,
        on object: ObjectShape
    ) {
        let listPath = steps("options", "fieldlist")
        let createList = create.map { ($0, steps("target", createKey)) } ?? fieldlist.map { ($0, listPath) }
        let updateList = update.map { ($0, steps("target", updateKey)) } ?? fieldlist.map { ($0, listPath) }
        if case (let fields, let path)? = createList {
            checkWritable(fields, at: path, on: object, \.isCreateable, .fieldNotCreateable) { object, field in
                "'\(object).\(field)' is not createable in this org (read-only, formula, "
                    + "auto-number or hidden by field-level security); remove it from the create field list"
            }
            let listed = Set(fields.map { $0.lowercased() })
            for field in object.fields where field.isRequiredOnCreate && !listed.contains(field.name.lowercased()) {
                warning(
                    .requiredFieldMissing,
                    at: .value(path),
                    "'\(object.name).\(field.name)' is required on create in this org but is not in the create "
                        + "field list; creates will fail with REQUIRED_FIELD_MISSING unless every record sets it"
                )
            }
        }
        if case (let fields, let path)? = updateList {
            checkWritable(fields, at: path, on: object, \.isUpdateable, .fieldNotUpdateable) { object, field in
                "'\(object).\(field)' is not updateable in this org; remove it from the update field list"
            }
        }
    }

    /// Checks that each field of a create or update list (at `path`) exists on `object` and that
    /// `isWritable` holds for it; `Id`, `attributes` and relationship paths are not checked.
    private mutating func checkWritable(
        _ fields: [String],
        at path: [ConfigSourceMap.Step],
        on object: ObjectShape,
        _ isWritable: (FieldShape) -> Bool,
        _ code: Diagnostic.Code,
        message: (_ object: String, _ field: String) -> String
    ) {
        let ignored: Set<String> = ["id", "attributes"]
        for (index, name) in fields.enumerated() where !ignored.contains(name.lowercased()) && !name.contains(".") {
            let position = CheckPosition.value(path + [.index(index)])
            if let field = requireField(name, on: object, at: position), !isWritable(field) {
                error(code, at: position, message(object.name, field.name))
            }
        }
    }

    /// `options.mask` (migrations): each masked field exists and can hold the masked values
    /// (``FieldMask/problem(fieldType:length:isRequiredOnCreate:)``, the rule `migrate` refuses by).
    private mutating func checkMasks(_ masks: [String: FieldMask], on object: ObjectShape) {
        for (name, mask) in masks.sorted(by: { $0.key < $1.key }) {
            let position = CheckPosition.value(steps("options", "mask", name))
            guard let field = requireField(name, on: object, at: position) else { continue }
            if let problem = mask.problem(
                fieldType: field.type,
                length: field.length,
                isRequiredOnCreate: field.isRequiredOnCreate
            ) {
                error(
                    .maskNotHoldable,
                    at: position,
                    "'\(object.name).\(field.name)' cannot hold the '\(mask.name)' mask in this org: \(problem); "
                        + "change or remove the mask (syncrun migrate refuses it before writing)"
                )
            }
        }
    }

    private mutating func checkExternalID(_ name: String?, on object: ObjectShape, at path: [ConfigSourceMap.Step]) {
        guard let name, let field = requireField(name, on: object, at: .value(path)) else { return }
        if !field.isExternalID && !field.isIDLookup {
            error(
                .notExternalID,
                at: .value(path),
                "'\(object.name).\(field.name)' is neither an external id nor an idLookup field in this org; "
                    + "upserts by it will fail"
            )
        }
    }

    // MARK: - Lookups

    private mutating func requireObject(_ name: String, at position: CheckPosition) -> ObjectShape? {
        guard let object = shape.object(named: name) else {
            let candidates = shape.objects.map(\.name)
            reportMissing("sObject '\(name)'", "in this org", name, among: candidates, .unknownObject, at: position)
            return nil
        }
        if !object.isQueryable {
            error(.unknownObject, at: position, "sObject '\(object.name)' is not queryable in this org")
        }
        return object
    }

    private mutating func requireField(
        _ name: String,
        on object: ObjectShape,
        at position: CheckPosition
    ) -> FieldShape? {
        if let field = object.field(named: name) { return field }
        let candidates = object.fields.map(\.name)
        reportMissing("field '\(name)'", "on '\(object.name)'", name, among: candidates, .unknownField, at: position)
        return nil
    }

    /// Reports `subject` (`sObject 'Acount'`, `field 'Nme'`) missing from `place` (`in this org`,
    /// `on 'Account'`): as a namespace mismatch when `candidates` hold the prefixed or unprefixed
    /// form of `name`, else as `code`.
    private mutating func reportMissing(
        _ subject: String,
        _ place: String,
        _ name: String,
        among candidates: [String],
        _ code: Diagnostic.Code,
        at position: CheckPosition
    ) {
        if let suggestion = Self.namespaceAlternative(name, among: candidates) {
            error(
                .namespaceMismatch,
                at: position,
                "\(subject) does not exist \(place); did you mean '\(suggestion)'? (namespace prefix)"
            )
        } else {
            error(code, at: position, "\(subject) does not exist \(place) or is not visible to the current user")
        }
    }

    /// The prefixed or unprefixed form of `name` among `candidates` (CCI's rule: a namespaced
    /// name has two `__`, `ns__Name__c`; an unprefixed custom name one).
    static func namespaceAlternative(_ name: String, among candidates: [String]) -> String? {
        OrgChecker.namespaceAlternative(name, among: candidates)
    }
}

extension OrgChecker {
    /// The prefixed or unprefixed form of `name` among `candidates` (CCI's rule: a namespaced
    /// name has two `__`, `ns__Name__c`; an unprefixed custom name one), for "did you mean".
    public static func namespaceAlternative(_ name: String, among candidates: [String]) -> String? {
        let parts = name.components(separatedBy: "__")
        let lowered = candidates.map { ($0, $0.lowercased()) }
        if parts.count == 3 {
            let stripped = parts[1...].joined(separator: "__").lowercased()
            return lowered.first { $0.1 == stripped }?.0
        }
        if parts.count == 2 {
            let suffix = "__" + name.lowercased()
            return lowered.first { $0.1.hasSuffix(suffix) && $0.1.components(separatedBy: "__").count == 3 }?.0
        }
        return nil
    }
}
