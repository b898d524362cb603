import JSONCore

/// Decodes a sync up target: picks the kind from `iOSImpl` / `androidImpl` / `type` (they must
/// agree), collection when none is given, then reads the kind's keys.
struct SyncUpTargetDecoder {
    let context: DecodingContext
    let registry: TargetImplRegistry

    func decode(_ target: inout ObjectReader, sync: ObjectReader, syncSoupName: String?, source: inout SyncSource)
        -> SyncUpTarget?
    {
        let errorsBefore = context.log.errorCount
        let iOSImpl = target.nonEmptyString("iOSImpl")
        let androidImpl = target.nonEmptyString("androidImpl")
        guard let kind = resolveKind(&target, iOSImpl: iOSImpl, androidImpl: androidImpl) else {
            _ = target.extraKeys(known: TargetKeys.syncUpParentChildren, warn: false)
            return nil
        }
        var (idFieldName, modificationDate) = target.fieldNames()
        let hasOwnFieldNames = (target.contains("idFieldName"), target.contains("modificationDateFieldName"))
        let createFieldlist = target.stringArray("createFieldlist")
        let updateFieldlist = target.stringArray("updateFieldlist")
        let externalId = target.nonEmptyString("externalIdFieldName")
        let matchFields = target.stringArray("matchFields")
        var maxBatchSize: Int?
        let api = target.enumeration("api", SyncAPI.self, what: "api", code: .unknownAPI)
        let threshold = target.clampedInteger("bulkThreshold", range: 1...Int.max)
        switch kind {
        case .batch, .collection:
            maxBatchSize = target.clampedInteger("maxBatchSize", range: 1...kind.maxBatchSizeCap)
        case .single, .parentChildren, .custom, .endpoint:
            _ = target.integer("maxBatchSize")
        }
        var parentChildren: ParentChildrenSyncUpInfo?
        var endpoint: EndpointSyncUpInfo?
        let extras: [String: JSONValue]
        switch kind {
        case .parentChildren:
            let decoder = ParentChildrenDecoder(context: context)
            let parent = decoder.parent(&target, source: &source)
            let children = decoder.children(&target, source: &source)
            let childrenCreate = target.stringArray("childrenCreateFieldlist")
            let childrenUpdate = target.stringArray("childrenUpdateFieldlist")
            let relationship = decoder.relationshipType(
                &target,
                parent: parent,
                syncSoupName: syncSoupName,
                sync: sync
            )
            // As in the SDK, the parent's field names are the target's unless it sets its own.
            if let parent, !hasOwnFieldNames.0 { idFieldName = parent.idFieldName }
            if let parent, !hasOwnFieldNames.1 { modificationDate = parent.modificationDateFieldName }
            if let parent, let children, let relationship {
                parentChildren = ParentChildrenSyncUpInfo(
                    parent: parent,
                    children: children,
                    childrenCreateFieldlist: childrenCreate,
                    childrenUpdateFieldlist: childrenUpdate,
                    relationshipType: relationship
                )
            }
            extras = target.extraKeys(known: TargetKeys.syncUpParentChildren)
        case .endpoint:
            endpoint = EndpointTargetDecoder(context: context).syncUp(&target)
            extras = target.extraKeys(known: TargetKeys.syncUpEndpoint)
        case .custom:
            extras = target.extraKeys(known: [], warn: false)
        case .single, .batch, .collection:
            extras = target.extraKeys(known: TargetKeys.syncUp)
        }
        guard context.log.errorCount == errorsBefore else { return nil }
        var decoded = SyncUpTarget(
            kind: kind,
            createFieldlist: createFieldlist,
            updateFieldlist: updateFieldlist,
            externalIdFieldName: externalId,
            idFieldName: idFieldName,
            modificationDateFieldName: modificationDate,
            maxBatchSize: maxBatchSize,
            iOSImpl: iOSImpl,
            androidImpl: androidImpl,
            parentChildren: parentChildren,
            extraKeys: extras,
            matchFields: matchFields,
            endpoint: endpoint
        )
        decoded.api = api ?? .auto
        decoded.bulkThreshold = threshold ?? SyncAPI.defaultBulkThreshold
        return decoded
    }

    /// The kind every given selector agrees on; reports unknown names and disagreements.
    private func resolveKind(_ target: inout ObjectReader, iOSImpl: String?, androidImpl: String?) -> SyncUpTargetKind?
    {
        var opinions: [(source: String, kind: SyncUpTargetKind)] = []
        var valid = true
        var customNames: [String: String] = [:]
        for (key, name) in [("iOSImpl", iOSImpl), ("androidImpl", androidImpl)] {
            guard let name else { continue }
            if let kind = TargetImplRegistry.builtInImplNames[name] {
                opinions.append(("'\(key)' '\(name)'", kind))
            } else {
                customNames[key] = name
            }
        }
        if !customNames.isEmpty {
            let check = CustomTargetCheck(context: context, registry: registry, syncType: .syncUp)
            let builtIns = Array(TargetImplRegistry.builtInImplNames.keys).sorted()
            if check.check(
                iOSImpl: customNames["iOSImpl"],
                androidImpl: customNames["androidImpl"],
                target: target,
                builtInNames: builtIns
            ) {
                // A plug-in has one class per platform; the iOS name identifies it.
                let key = customNames["iOSImpl"] != nil ? "iOSImpl" : "androidImpl"
                let name = customNames[key] ?? ""
                opinions.append(("'\(key)' '\(name)'", .custom(implName: name)))
            } else {
                valid = false
            }
        }
        if let (text, node) = target.stringNode("type") {
            if let kind = TargetImplRegistry.productTypeNames[text] {
                opinions.append(("'type' '\(text)'", kind))
            } else if text == "custom" {
                if iOSImpl == nil && androidImpl == nil {
                    context.error(
                        .missingKey,
                        at: target.node.position,
                        path: target.path,
                        ConfigMessages.customTargetNeedsImpl
                    )
                    valid = false
                }
            } else if text != "rest" {
                let message =
                    SyncDownTargetKind(rawValue: text) != nil
                    ? ConfigMessages.syncDownTypeInSyncUp(text)
                    : ConfigMessages.unknownValue(
                        "sync up target type",
                        text,
                        allowed: ["rest", "custom"] + TargetImplRegistry.productTypeNames.keys.sorted()
                    )
                context.error(.unknownTargetType, at: node.position, path: target.path.appending("type"), message)
                valid = false
            }
        }
        guard valid else { return nil }
        guard let first = opinions.first else { return .collection }
        if let other = opinions.first(where: { $0.kind != first.kind }) {
            context.error(
                .conflictingTargetImpl,
                at: target.node.position,
                path: target.path,
                ConfigMessages.conflictingTargetImpl(first.source, other.source)
            )
            return nil
        }
        return first.kind
    }
}
