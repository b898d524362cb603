import JSONCore

extension EndpointRequest {
    /// The request as written in a config (`method`, `path`, `query` when not empty, `body` when
    /// declared).
    var normalizedJSON: JSONObject {
        var members: JSONObject = ["method": .string(method.rawValue), "path": .string(path.description)]
        if !query.isEmpty {
            var parameters = JSONObject()
            for parameter in query { parameters[parameter.name] = .string(parameter.value.description) }
            members["query"] = .object(parameters)
        }
        if let body { members["body"] = body }
        return members
    }
}

extension EndpointNextPage {
    var normalizedJSON: JSONValue {
        switch self {
        case .urlPath(let path): ["urlPath": .string(path)]
        case .cursor(let path, let param): ["cursorPath": .string(path), "cursorParam": .string(param)]
        }
    }
}

extension EndpointSyncDownTarget {
    /// The endpoint keys of the target as persisted.
    func addNormalizedKeys(to members: inout [String: JSONValue]) {
        members["request"] = .object(request.normalizedJSON)
        members["recordsPath"] = .string(recordsPath)
        if let nextPage { members["nextPage"] = nextPage.normalizedJSON }
        if let since { members["since"] = ["param": .string(since.param), "format": .string(since.format.rawValue)] }
        if let idsRequest {
            var ids = idsRequest.request.normalizedJSON
            ids["recordsPath"] = .string(idsRequest.recordsPath)
            if let nextPage = idsRequest.nextPage { ids["nextPage"] = nextPage.normalizedJSON }
            members["idsRequest"] = .object(ids)
        }
    }
}

extension EndpointSyncUpInfo {
    /// The endpoint keys of a sync up target as persisted.
    func addNormalizedKeys(to members: inout [String: JSONValue]) {
        var create = self.create.request.normalizedJSON
        create["idPath"] = .string(self.create.idPath)
        members["create"] = .object(create)
        members["update"] = .object(update.normalizedJSON)
        members["delete"] = .object(delete.normalizedJSON)
        if let modificationDate {
            members["modificationDate"] = [
                "request": .object(modificationDate.request.normalizedJSON), "path": .string(modificationDate.path),
            ]
        }
        if let batch {
            var members2 = batch.request.normalizedJSON
            members2["maxBatchSize"] = .integer(Int64(batch.maxBatchSize))
            members["batch"] = .object(members2)
        }
    }
}
