import JSONCore

/// Decodes a sync down target by its `type`.
struct SyncDownTargetDecoder {
    let context: DecodingContext
    let registry: TargetImplRegistry

    /// The target, plus the `query` node of a SOQL target for the SOQL checks.
    struct Result {
        var target: SyncDownTarget
        var soqlQuery: (text: String, node: ConfigNode)?
    }

    func decode(_ target: inout ObjectReader, sync: ObjectReader, syncSoupName: String?, source: inout SyncSource)
        -> Result?
    {
        let iOSImpl = target.nonEmptyString("iOSImpl")
        let androidImpl = target.nonEmptyString("androidImpl")
        let kind: SyncDownTargetKind
        if let (text, node) = target.stringNode("type") {
            guard let known = SyncDownTargetKind(rawValue: text) else {
                let message =
                    TargetImplRegistry.productTypeNames[text] != nil
                    ? ConfigMessages.syncUpTypeInSyncDown(text)
                    : ConfigMessages.unknownValue(
                        "sync down target type",
                        text,
                        allowed: SyncDownTargetKind.allCases.map(\.rawValue)
                    )
                context.error(.unknownTargetType, at: node.position, path: target.path.appending("type"), message)
                return nil
            }
            kind = known
        } else if target.contains("type") {
            return nil  // wrong type already reported
        } else if iOSImpl != nil || androidImpl != nil {
            kind = .custom  // iOS: a class named by iOSImpl wins over `type`
        } else {
            target.reportMissing("type")
            return nil
        }
        let (idFieldName, modificationDate) = target.fieldNames()
        let errorsBefore = context.log.errorCount
        var result: Result?
        switch kind {
        case .soql:
            let query = target.stringNode("query", required: true)
            let batch = target.clampedInteger("maxBatchSize", range: SOQLSyncDownTarget.maxBatchSizeRange)
            let api = target.enumeration("api", SyncAPI.self, what: "api", code: .unknownAPI)
            let threshold = target.clampedInteger("bulkThreshold", range: 1...Int.max)
            if let query, query.text.isEmpty {
                context.error(
                    .emptyValue,
                    at: query.node.position,
                    path: target.path.appending("query"),
                    ConfigMessages.emptyValue("query")
                )
            }
            let extra = extras(target, kind)
            if let query, !query.text.isEmpty {
                var soql = SOQLSyncDownTarget(
                    query: query.text,
                    maxBatchSize: batch ?? SOQLSyncDownTarget.defaultMaxBatchSize,
                    idFieldName: idFieldName,
                    modificationDateFieldName: modificationDate,
                    extraKeys: extra
                )
                soql.api = api ?? .auto
                soql.bulkThreshold = threshold ?? SyncAPI.defaultBulkThreshold
                if soql.api == .bulk, let reason = BulkCheck.refusal(query.text) {
                    context.warning(
                        .bulkNotPossible,
                        at: target.position(of: "api"),
                        path: target.path.appending("api"),
                        ConfigMessages.bulkNotPossible(reason)
                    )
                }
                result = Result(target: .soql(soql), soqlQuery: query)
            }
        case .sosl:
            let query = target.nonEmptyString("query", required: true)
            let extra = extras(target, kind)
            if let query {
                result = Result(
                    target: .sosl(
                        SOSLSyncDownTarget(
                            query: query,
                            idFieldName: idFieldName,
                            modificationDateFieldName: modificationDate,
                            extraKeys: extra
                        )
                    )
                )
            }
        case .mru:
            let sobjectType = target.nonEmptyString("sobjectType", required: true)
            let fieldlist = target.stringArray("fieldlist", required: true)
            let extra = extras(target, kind)
            if let sobjectType, let fieldlist {
                result = Result(
                    target: .mru(
                        MRUSyncDownTarget(
                            sobjectType: sobjectType,
                            fieldlist: fieldlist,
                            idFieldName: idFieldName,
                            modificationDateFieldName: modificationDate,
                            extraKeys: extra
                        )
                    )
                )
            }
        case .refresh:
            result = refresh(&target, idFieldName: idFieldName, modificationDate: modificationDate, source: &source)
        case .layout:
            let sobjectType = target.nonEmptyString("sobjectType", required: true)
            let formFactor = target.string("formFactor")
            let layoutType = target.string("layoutType")
            let mode = target.string("mode")
            let recordTypeId = target.string("recordTypeId")
            let extra = extras(target, kind)
            if let sobjectType {
                result = Result(
                    target: .layout(
                        LayoutSyncDownTarget(
                            sobjectType: sobjectType,
                            formFactor: formFactor,
                            layoutType: layoutType,
                            mode: mode,
                            recordTypeId: recordTypeId,
                            idFieldName: idFieldName,
                            modificationDateFieldName: modificationDate,
                            extraKeys: extra
                        )
                    )
                )
            }
        case .metadata:
            let sobjectType = target.nonEmptyString("sobjectType", required: true)
            let extra = extras(target, kind)
            if let sobjectType {
                result = Result(
                    target: .metadata(
                        MetadataSyncDownTarget(
                            sobjectType: sobjectType,
                            idFieldName: idFieldName,
                            modificationDateFieldName: modificationDate,
                            extraKeys: extra
                        )
                    )
                )
            }
        case .parentChildren:
            result = parentChildren(&target, sync: sync, syncSoupName: syncSoupName, source: &source)
        case .briefcase:
            result = briefcase(&target, idFieldName: idFieldName, modificationDate: modificationDate, source: &source)
        case .endpoint:
            result = EndpointTargetDecoder(context: context)
                .syncDown(&target, idFieldName: idFieldName, modificationDate: modificationDate)
                .map { Result(target: .endpoint($0)) }
        case .custom:
            guard
                CustomTargetCheck(context: context, registry: registry, syncType: .syncDown).check(
                    iOSImpl: iOSImpl,
                    androidImpl: androidImpl,
                    target: target
                )
            else {
                _ = target.extraKeys(known: [], warn: false)
                return nil
            }
            result = Result(
                target: .custom(
                    CustomSyncDownTarget(
                        iOSImpl: iOSImpl,
                        androidImpl: androidImpl,
                        idFieldName: idFieldName,
                        modificationDateFieldName: modificationDate,
                        extraKeys: target.extraKeys(known: [], warn: false)
                    )
                )
            )
        }
        guard context.log.errorCount == errorsBefore else { return nil }
        return result
    }

    /// The unknown keys of a built-in kind, warned about; impl names are kept without a warning
    /// (the SDK writes them when it persists a target).
    private func extras(_ target: ObjectReader, _ kind: SyncDownTargetKind) -> [String: JSONValue] {
        var reader = target
        var kept: [String: JSONValue] = [:]
        for key in ["iOSImpl", "androidImpl"] {
            if let value = reader.value(key) { kept[key] = ValueReader.jsonValue(value) }
        }
        return reader.extraKeys(known: TargetKeys.syncDown(kind)).merging(kept) { first, _ in first }
    }

    private func refresh(
        _ target: inout ObjectReader,
        idFieldName: String,
        modificationDate: String,
        source: inout SyncSource
    ) -> Result? {
        let sobjectType = target.nonEmptyString("sobjectType", required: true)
        let fieldlist = target.stringArray("fieldlist", required: true)
        let soupName = ParentChildrenDecoder(context: context).soupReference(&target, source: &source)
        // iOS reads the misspelt `coundIdsPerSoql`; accept both, prefer the correct spelling.
        let key =
            target.contains("countIdsPerSoql") || !target.contains("coundIdsPerSoql")
            ? "countIdsPerSoql" : "coundIdsPerSoql"
        let count = target.clampedInteger(key, range: 1...RefreshSyncDownTarget.defaultCountIdsPerSoql)
        if key == "countIdsPerSoql" { _ = target.value("coundIdsPerSoql") }
        let extra = extras(target, .refresh)
        guard let sobjectType, let fieldlist, let soupName else { return nil }
        return Result(
            target: .refresh(
                RefreshSyncDownTarget(
                    sobjectType: sobjectType,
                    fieldlist: fieldlist,
                    soupName: soupName,
                    countIdsPerSoql: count ?? RefreshSyncDownTarget.defaultCountIdsPerSoql,
                    idFieldName: idFieldName,
                    modificationDateFieldName: modificationDate,
                    extraKeys: extra
                )
            )
        )
    }

    private func parentChildren(
        _ target: inout ObjectReader,
        sync: ObjectReader,
        syncSoupName: String?,
        source: inout SyncSource
    ) -> Result? {
        let decoder = ParentChildrenDecoder(context: context)
        let parent = decoder.parent(&target, source: &source)
        let parentFieldlist = target.stringArray("parentFieldlist", required: true)
        let filterNode = target.stringNode("parentSoqlFilter")
        let filter = filterNode?.text
        let children = decoder.children(&target, source: &source)
        let childrenFieldlist = target.stringArray("childrenFieldlist", required: true)
        let relationship = decoder.relationshipType(&target, parent: parent, syncSoupName: syncSoupName, sync: sync)
        if let parent, let filterNode {
            SOQLCheck(context: context).checkParentFilter(
                filterNode.text,
                node: filterNode.node,
                path: target.path.appending("parentSoqlFilter"),
                parent: parent
            )
        }
        let extra = extras(target, .parentChildren)
        guard let parent, let parentFieldlist, let children, let childrenFieldlist, let relationship else { return nil }
        return Result(
            target: .parentChildren(
                ParentChildrenSyncDownTarget(
                    parent: parent,
                    parentFieldlist: parentFieldlist,
                    parentSoqlFilter: filter,
                    children: children,
                    childrenFieldlist: childrenFieldlist,
                    relationshipType: relationship,
                    extraKeys: extra
                )
            )
        )
    }

    private func briefcase(
        _ target: inout ObjectReader,
        idFieldName: String,
        modificationDate: String,
        source: inout SyncSource
    ) -> Result? {
        let nodes = target.array("infos", required: true)
        let count = target.clampedInteger(
            "countIdsPerRetrieve",
            range: 1...BriefcaseSyncDownTarget.defaultCountIdsPerRetrieve
        )
        if let nodes, nodes.isEmpty {
            context.error(
                .emptyValue,
                at: target.position(of: "infos"),
                path: target.path.appending("infos"),
                ConfigMessages.emptyInfos
            )
        }
        var infos: [BriefcaseObjectInfo] = []
        for (index, node) in (nodes ?? []).enumerated() {
            guard
                var info = ObjectReader(
                    node,
                    path: target.path.appending("infos").appending(index: index),
                    context: context
                )
            else { continue }
            let sobjectType = info.nonEmptyString("sobjectType", required: true)
            let soupName = ParentChildrenDecoder(context: context).soupReference(&info, source: &source)
            let fieldlist = info.stringArray("fieldlist", required: true)
            let (infoID, infoDate) = info.fieldNames()
            let extras = info.extraKeys(known: TargetKeys.briefcaseInfo)
            guard let sobjectType, let soupName, let fieldlist else { continue }
            infos.append(
                BriefcaseObjectInfo(
                    sobjectType: sobjectType,
                    soupName: soupName,
                    fieldlist: fieldlist,
                    idFieldName: infoID,
                    modificationDateFieldName: infoDate,
                    extraKeys: extras
                )
            )
        }
        let extra = extras(target, .briefcase)
        guard let nodes, !nodes.isEmpty else { return nil }
        return Result(
            target: .briefcase(
                BriefcaseSyncDownTarget(
                    infos: infos,
                    countIdsPerRetrieve: count ?? BriefcaseSyncDownTarget.defaultCountIdsPerRetrieve,
                    idFieldName: idFieldName,
                    modificationDateFieldName: modificationDate,
                    extraKeys: extra
                )
            )
        )
    }
}
