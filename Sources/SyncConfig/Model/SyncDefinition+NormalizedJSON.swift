import JSONCore

/// The JSON form of a definition as MobileSync persists it (sync-semantics §1.5, §3.2), so a
/// definition written by syncrun can be read by an SDK app, and read back by syncrun unchanged.
extension SyncDefinition {
    /// The whole definition in config-file form: `syncName`, `syncType`, `soupName`, the
    /// normalised `target` and `options`, `dependsOn` when not empty, and unknown keys verbatim.
    public var normalizedJSON: JSONValue {
        var members = extraKeys
        members["syncName"] = .string(name)
        members["syncType"] = .string(type.rawValue)
        members["soupName"] = .string(soupName)
        members["target"] = normalizedTargetJSON
        members["options"] = normalizedOptionsJSON
        if !dependsOn.isEmpty { members["dependsOn"] = .array(dependsOn.map(JSONValue.string)) }
        return .object(members)
    }

    /// The target as persisted: `idFieldName`, `modificationDateFieldName`, `type` (sync down),
    /// both impl keys (sync up), the kind's own keys with defaults applied, unknown keys verbatim.
    public var normalizedTargetJSON: JSONValue {
        switch target {
        case .down(let down): down.normalizedJSON
        case .up(let up): up.normalizedJSON
        }
    }

    /// The options as persisted: `mergeMode`, `fieldlist` when set, `cleanGhosts` when true,
    /// `maxConcurrentRequests`, `minApiShare` and `stopApiShare` when not the default, unknown keys
    /// verbatim.
    public var normalizedOptionsJSON: JSONValue {
        var members = options.extraKeys
        members["mergeMode"] = .string(options.mergeMode.rawValue)
        if let fieldlist = JSONValue.strings(options.fieldlist) { members["fieldlist"] = fieldlist }
        if options.cleanGhosts { members["cleanGhosts"] = .bool(true) }
        if options.maxConcurrentRequests != SyncOptions.defaultMaxConcurrentRequests {
            members["maxConcurrentRequests"] = .integer(Int64(options.maxConcurrentRequests))
        }
        if options.minApiShare != SyncOptions.defaultMinApiShare {
            members["minApiShare"] = .integer(Int64(options.minApiShare))
        }
        if options.stopApiShare != SyncOptions.defaultStopApiShare {
            members["stopApiShare"] = .integer(Int64(options.stopApiShare))
        }
        if !options.mask.isEmpty {
            members["mask"] = .object(
                options.mask.mapValues { mask in
                    if case .fixed(let text) = mask { return .object(["fixed": .string(text)]) }
                    return .string(mask.name)
                }
            )
        }
        return .object(members)
    }
}

extension SyncDownTarget {
    /// The target as persisted (see ``SyncDefinition/normalizedTargetJSON``).
    public var normalizedJSON: JSONValue {
        var members = extraKeys
        members["type"] = .string(kind.rawValue)
        members["idFieldName"] = .string(idFieldName)
        members["modificationDateFieldName"] = .string(modificationDateFieldName)
        switch self {
        case .soql(let target):
            members["query"] = .string(target.query)
            members["maxBatchSize"] = .integer(Int64(target.maxBatchSize))
            // Written only when not the default, so definitions stored before these keys existed
            // do not look changed.
            if target.api != .auto { members["api"] = .string(target.api.rawValue) }
            if target.bulkThreshold != SyncAPI.defaultBulkThreshold {
                members["bulkThreshold"] = .integer(Int64(target.bulkThreshold))
            }
        case .sosl(let target):
            members["query"] = .string(target.query)
        case .mru(let target):
            members["sobjectType"] = .string(target.sobjectType)
            members["fieldlist"] = JSONValue.strings(target.fieldlist)
        case .refresh(let target):
            members["sobjectType"] = .string(target.sobjectType)
            members["fieldlist"] = JSONValue.strings(target.fieldlist)
            members["soupName"] = .string(target.soupName)
            members["countIdsPerSoql"] = .integer(Int64(target.countIdsPerSoql))
        case .parentChildren(let target):
            members["parent"] = target.parent.normalizedJSON
            members["parentFieldlist"] = JSONValue.strings(target.parentFieldlist)
            if let filter = target.parentSoqlFilter { members["parentSoqlFilter"] = .string(filter) }
            members["children"] = target.children.normalizedJSON
            members["childrenFieldlist"] = JSONValue.strings(target.childrenFieldlist)
            members["relationshipType"] = .string(target.relationshipType.rawValue)
        case .briefcase(let target):
            members["infos"] = .array(target.infos.map(\.normalizedJSON))
            members["countIdsPerRetrieve"] = .integer(Int64(target.countIdsPerRetrieve))
        case .layout(let target):
            members["sobjectType"] = .string(target.sobjectType)
            let optional = [
                ("formFactor", target.formFactor), ("layoutType", target.layoutType),
                ("mode", target.mode), ("recordTypeId", target.recordTypeId),
            ]
            for (key, value) in optional { if let value { members[key] = .string(value) } }
        case .metadata(let target):
            members["sobjectType"] = .string(target.sobjectType)
        case .custom(let target):
            if let name = target.iOSImpl { members["iOSImpl"] = .string(name) }
            if let name = target.androidImpl { members["androidImpl"] = .string(name) }
        case .endpoint(let target):
            target.addNormalizedKeys(to: &members)
        }
        return .object(members)
    }
}

extension SyncUpTarget {
    /// The target as persisted (see ``SyncDefinition/normalizedTargetJSON``).
    public var normalizedJSON: JSONValue {
        var members = extraKeys
        members["idFieldName"] = .string(idFieldName)
        members["modificationDateFieldName"] = .string(modificationDateFieldName)
        if let names = TargetImplRegistry.implNames(for: kind) {
            members["iOSImpl"] = .string(names.iOS)
            members["androidImpl"] = .string(names.android)
        } else {
            if let name = iOSImpl { members["iOSImpl"] = .string(name) }
            if let name = androidImpl { members["androidImpl"] = .string(name) }
        }
        if let type = kind.productTypeName { members["type"] = .string(type) }
        if let list = JSONValue.strings(createFieldlist) { members["createFieldlist"] = list }
        if let list = JSONValue.strings(updateFieldlist) { members["updateFieldlist"] = list }
        if let field = externalIdFieldName { members["externalIdFieldName"] = .string(field) }
        if let list = JSONValue.strings(matchFields) { members["matchFields"] = list }
        if api != .auto { members["api"] = .string(api.rawValue) }
        if bulkThreshold != SyncAPI.defaultBulkThreshold { members["bulkThreshold"] = .integer(Int64(bulkThreshold)) }
        switch kind {
        case .batch, .collection: members["maxBatchSize"] = .integer(Int64(maxBatchSize))
        case .single, .parentChildren, .custom, .endpoint: break
        }
        endpoint?.addNormalizedKeys(to: &members)
        if let info = parentChildren {
            members["parent"] = info.parent.normalizedJSON
            members["children"] = info.children.normalizedJSON
            if let list = JSONValue.strings(info.childrenCreateFieldlist) { members["childrenCreateFieldlist"] = list }
            if let list = JSONValue.strings(info.childrenUpdateFieldlist) { members["childrenUpdateFieldlist"] = list }
            members["relationshipType"] = .string(info.relationshipType.rawValue)
        }
        return .object(members)
    }
}

/// The keys every object of a target has (`parent`, `children`, a briefcase entry).
private protocol TargetObjectKeys {
    var sobjectType: String { get }
    var soupName: String { get }
    var idFieldName: String { get }
    var modificationDateFieldName: String { get }
    var extraKeys: [String: JSONValue] { get }
}

extension TargetObjectKeys {
    /// The object's unknown keys with the keys every object has.
    fileprivate var commonMembers: [String: JSONValue] {
        var members = extraKeys
        members["sobjectType"] = .string(sobjectType)
        members["soupName"] = .string(soupName)
        members["idFieldName"] = .string(idFieldName)
        members["modificationDateFieldName"] = .string(modificationDateFieldName)
        return members
    }
}

extension ParentInfo: TargetObjectKeys {
    var normalizedJSON: JSONValue {
        var members = commonMembers
        if let field = externalIdFieldName { members["externalIdFieldName"] = .string(field) }
        return .object(members)
    }
}

extension ChildrenInfo: TargetObjectKeys {
    var normalizedJSON: JSONValue {
        var members = commonMembers
        members["sobjectTypePlural"] = .string(sobjectTypePlural)
        members["parentIdFieldName"] = .string(parentIdFieldName)
        if let field = externalIdFieldName { members["externalIdFieldName"] = .string(field) }
        return .object(members)
    }
}

extension BriefcaseObjectInfo: TargetObjectKeys {
    var normalizedJSON: JSONValue {
        var members = commonMembers
        members["fieldlist"] = JSONValue.strings(fieldlist)
        return .object(members)
    }
}
