/// The key names of targets, for reading and for "did you mean" suggestions.
enum TargetKeys {
    static let common = ["idFieldName", "modificationDateFieldName", "type", "iOSImpl", "androidImpl"]
    static let parentInfo = [
        "sobjectType", "soupName", "idFieldName", "modificationDateFieldName", "externalIdFieldName",
    ]
    static let childrenInfo = parentInfo + ["sobjectTypePlural", "parentIdFieldName"]
    static let briefcaseInfo = ["sobjectType", "soupName", "fieldlist", "idFieldName", "modificationDateFieldName"]

    static func syncDown(_ kind: SyncDownTargetKind) -> [String] {
        switch kind {
        case .soql: common + ["query", "maxBatchSize", "api", "bulkThreshold"]
        case .sosl: common + ["query"]
        case .mru: common + ["sobjectType", "fieldlist"]
        case .refresh: common + ["sobjectType", "fieldlist", "soupName", "countIdsPerSoql", "coundIdsPerSoql"]
        case .layout: common + ["sobjectType", "formFactor", "layoutType", "mode", "recordTypeId"]
        case .metadata: common + ["sobjectType"]
        case .parentChildren:
            common + [
                "parent", "parentFieldlist", "parentSoqlFilter", "children", "childrenFieldlist", "relationshipType",
            ]
        case .briefcase: common + ["infos", "countIdsPerRetrieve"]
        case .custom: common
        case .endpoint: common + EndpointTargetDecoder.syncDownKeys
        }
    }

    static let syncUp =
        common + [
            "createFieldlist", "updateFieldlist", "externalIdFieldName", "maxBatchSize", "matchFields", "api",
            "bulkThreshold",
        ]
    static let syncUpEndpoint = syncUp + EndpointTargetDecoder.syncUpKeys
    static let syncUpParentChildren =
        syncUp + [
            "parent", "children", "childrenCreateFieldlist", "childrenUpdateFieldlist", "relationshipType",
        ]
}
