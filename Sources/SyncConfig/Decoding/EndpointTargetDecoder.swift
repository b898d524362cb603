import JSONCore

/// Decodes the keys of `endpoint` targets (sync down and sync up) with positioned diagnostics:
/// methods, paths (a path of the org, nothing that could change the host or leave the path),
/// query parameters, placeholders, dot paths and paging.
struct EndpointTargetDecoder {
    let context: DecodingContext

    static let requestKeys = ["method", "path", "query"]
    static let syncDownKeys = ["request", "recordsPath", "nextPage", "since", "idsRequest"]
    static let syncUpKeys = ["create", "update", "delete", "modificationDate", "batch"]

    /// The sync down keys of `target`; `nil` when one is missing or wrong (reported).
    func syncDown(_ target: inout ObjectReader, idFieldName: String, modificationDate: String)
        -> EndpointSyncDownTarget?
    {
        let request = requestObject(&target, "request", defaultMethod: .get, placeholders: false, body: false) ?? nil
        let recordsPath = dotPath(&target, "recordsPath", required: true, allowEmpty: true)
        let nextPage = target.object("nextPage") { self.nextPage(&$0) }
        let since = target.object("since") { self.since(&$0) }
        let ids = target.object("idsRequest") { self.idsRequest(&$0) }
        guard let request, let recordsPath else { return nil }
        if case .some(.none) = nextPage { return nil }
        if case .some(.none) = since { return nil }
        if case .some(.none) = ids { return nil }
        let extra = target.extraKeys(known: TargetKeys.syncDown(.endpoint))
        return EndpointSyncDownTarget(
            request: request,
            recordsPath: recordsPath,
            nextPage: nextPage ?? nil,
            since: since ?? nil,
            idsRequest: ids ?? nil,
            idFieldName: idFieldName,
            modificationDateFieldName: modificationDate,
            extraKeys: extra
        )
    }

    /// The sync up keys of `target`; `nil` when one is missing or wrong (reported).
    func syncUp(_ target: inout ObjectReader) -> EndpointSyncUpInfo? {
        let create = target.object("create", required: true) { reader in
            let request = self.request(&reader, defaultMethod: .post, placeholders: true, body: true)
            let idPath = dotPath(&reader, "idPath", required: false, allowEmpty: false) ?? "id"
            _ = reader.extraKeys(known: Self.requestKeys + ["body", "idPath"])
            return request.map { EndpointCreate(request: $0, idPath: idPath) }
        }
        let update = requestObject(&target, "update", defaultMethod: .patch, placeholders: true, body: true)
        let delete = requestObject(&target, "delete", defaultMethod: .delete, placeholders: true, body: true)
        let modificationDate = target.object("modificationDate") { reader in
            let request =
                requestObject(&reader, "request", defaultMethod: .get, placeholders: true, body: false) ?? nil
            let path = dotPath(&reader, "path", required: true, allowEmpty: false)
            _ = reader.extraKeys(known: ["request", "path"])
            guard let request, let path else { return EndpointModificationDate?.none }
            return EndpointModificationDate(request: request, path: path)
        }
        let batch = target.object("batch") { reader in
            let request = self.request(&reader, defaultMethod: .post, placeholders: false, body: false)
            let size = reader.clampedInteger("maxBatchSize", range: 1...EndpointBatch.maxBatchSizeCap)
            _ = reader.extraKeys(known: ["method", "path", "maxBatchSize"])
            return request.map {
                EndpointBatch(request: $0, maxBatchSize: size ?? EndpointBatch.defaultMaxBatchSize)
            }
        }
        guard let create = create ?? nil, let update = update ?? nil, let delete = delete ?? nil else { return nil }
        if case .some(.none) = modificationDate { return nil }
        if case .some(.none) = batch { return nil }
        return EndpointSyncUpInfo(
            create: create,
            update: update,
            delete: delete,
            modificationDate: modificationDate ?? nil,
            batch: batch ?? nil
        )
    }

    /// The request object `key` of `target` (`method`, `path`, `query`, and `body` when allowed; no
    /// other key): `nil` when absent, `.some(nil)` when wrong (reported).
    private func requestObject(
        _ target: inout ObjectReader,
        _ key: String,
        defaultMethod: EndpointMethod,
        placeholders: Bool,
        body: Bool
    ) -> EndpointRequest?? {
        target.object(key, required: true) { reader in
            let request = self.request(&reader, defaultMethod: defaultMethod, placeholders: placeholders, body: body)
            _ = reader.extraKeys(known: Self.requestKeys + (body ? ["body"] : []))
            return request
        }
    }

    /// `method`, `path`, `query` (and `body` when allowed) of a request object.
    private func request(
        _ reader: inout ObjectReader,
        defaultMethod: EndpointMethod,
        placeholders: Bool,
        body allowsBody: Bool
    ) -> EndpointRequest? {
        let errorsBefore = context.log.errorCount
        let method =
            reader.enumeration("method", EndpointMethod.self, what: "HTTP method", code: .invalidEndpoint)
            ?? defaultMethod
        let path = reader.stringNode("path", required: true).flatMap { text, node in
            self.path(text, node: node, at: reader.path.appending("path"), placeholders: placeholders)
        }
        var query: [EndpointQueryParameter] = []
        if var queryReader = reader.object("query") {
            for name in queryReader.keys {
                let namePath = queryReader.path.appending(name)
                if name.isEmpty || name.contains(where: { "{}&=#".contains($0) }) {
                    context.error(
                        .invalidEndpoint,
                        at: queryReader.keyPosition(of: name),
                        path: namePath,
                        "query parameter name '\(name)' is empty or holds '{', '}', '&', '=' or '#'; "
                            + "write the plain parameter name"
                    )
                    continue
                }
                guard let (text, node) = queryReader.stringNode(name) else { continue }
                if let value = template(text, node: node, at: namePath, placeholders: placeholders) {
                    query.append(EndpointQueryParameter(name: name, value: value))
                }
            }
        }
        var body: JSONValue?
        if allowsBody, let node = reader.value("body") {
            body = ValueReader.jsonValue(node)
            checkBody(node, at: reader.path.appending("body"))
        }
        guard context.log.errorCount == errorsBefore, let path else { return nil }
        return EndpointRequest(method: method, path: path, query: query, body: body)
    }

    /// Reports malformed placeholders in the strings of a body template.
    private func checkBody(_ node: ConfigNode, at path: ConfigPath) {
        switch node.value {
        case .object(let members):
            for member in members { checkBody(member.value, at: path.appending(member.key)) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { checkBody(element, at: path.appending(index: index)) }
        case .scalar(let scalar):
            guard scalar.kind == .string || scalar.kind == .plain else { return }
            _ = template(scalar.text, node: node, at: path, placeholders: true)
        }
    }

    /// A template; reports malformed placeholders, and placeholders where none are allowed.
    private func template(_ text: String, node: ConfigNode, at path: ConfigPath, placeholders: Bool)
        -> EndpointTemplate?
    {
        switch EndpointTemplate.parse(text) {
        case .failure(let error):
            context.error(.invalidEndpoint, at: position(in: node, utf8Offset: error.offset), path: path, error.reason)
            return nil
        case .success(let template):
            if !placeholders, let name = template.placeholders.first {
                let offset =
                    text.utf8.count - (text.range(of: "{\(name)}").map { text[$0.lowerBound...].utf8.count } ?? 0)
                context.error(
                    .invalidEndpoint,
                    at: position(in: node, utf8Offset: offset),
                    path: path,
                    "'{\(name)}' is a placeholder, but this request is not about one record; "
                        + "placeholders are for sync up requests (write the value itself)"
                )
                return nil
            }
            return template
        }
    }

    /// A path template: a path of the org, so that nothing, written or substituted, can change the
    /// host or leave the path.
    private func path(_ text: String, node: ConfigNode, at path: ConfigPath, placeholders: Bool) -> EndpointTemplate? {
        guard let template = template(text, node: node, at: path, placeholders: placeholders) else { return nil }
        let fail = { (offset: Int, problem: String) -> EndpointTemplate? in
            context.error(
                .invalidEndpoint,
                at: position(in: node, utf8Offset: offset),
                path: path,
                "the path \(problem); write a path of the org such as '/services/apexrest/widgets/{Id}'"
            )
            return nil
        }
        guard text.hasPrefix("/") else { return fail(0, "must start with '/' (no scheme or host)") }
        var offset = 0
        for part in template.parts {
            guard case .literal(let literal) = part else {
                offset += Self.utf8Count(of: part)
                continue
            }
            var scalars = Array(literal.unicodeScalars)[...]
            var local = 0
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                let allowed =
                    scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-._~/:@!$&'()*+,;=%".unicodeScalars.contains(scalar))
                if !allowed {
                    return fail(
                        offset + local,
                        "holds '\(scalar.escaped(asASCII: true))', which is not allowed in a path"
                    )
                }
                if scalar == "%" {
                    let hex = scalars.prefix(2)
                    guard hex.count == 2, hex.allSatisfy({ $0.properties.isASCIIHexDigit }) else {
                        return fail(offset + local, "holds a '%' that is not followed by two hex digits")
                    }
                }
                local += String(scalar).utf8.count
            }
            offset += literal.utf8.count
        }
        // Segments written entirely in the config: no empty, '.' or '..' segment (a trailing '/' is fine).
        var segmentStart = 0
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            defer { segmentStart += segment.utf8.count + 1 }
            guard index > 0, !(segment.isEmpty && index == segments.count - 1 && index > 1) else { continue }
            if ["", ".", ".."].contains(segment) {
                return fail(segmentStart, "has an empty, '.' or '..' segment")
            }
        }
        return template
    }

    /// A dot path into a JSON response (`data.records`); `""` (the response itself) when allowed.
    private func dotPath(_ reader: inout ObjectReader, _ key: String, required: Bool, allowEmpty: Bool) -> String? {
        guard let (text, node) = reader.stringNode(key, required: required) else { return nil }
        if text.isEmpty {
            if allowEmpty { return text }
            context.error(
                .emptyValue,
                at: node.position,
                path: reader.path.appending(key),
                ConfigMessages.emptyValue(key)
            )
            return nil
        }
        if text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            context.error(
                .invalidEndpoint,
                at: node.position,
                path: reader.path.appending(key),
                "'\(key)' '\(text)' has an empty name; write names joined by '.', such as 'data.records'"
            )
            return nil
        }
        return text
    }

    /// `nextPage`: `{urlPath}` or `{cursorPath, cursorParam}`.
    private func nextPage(_ reader: inout ObjectReader) -> EndpointNextPage? {
        let urlPath = dotPath(&reader, "urlPath", required: false, allowEmpty: false)
        let cursorPath = dotPath(&reader, "cursorPath", required: false, allowEmpty: false)
        let cursorParam = reader.nonEmptyString("cursorParam")
        _ = reader.extraKeys(known: ["urlPath", "cursorPath", "cursorParam"])
        let hasURL = reader.contains("urlPath")
        let hasCursor = reader.contains("cursorPath") || reader.contains("cursorParam")
        if hasURL == hasCursor {
            context.error(
                .invalidEndpoint,
                at: reader.node.position,
                path: reader.path,
                "'nextPage' needs either 'urlPath' (where the next page's URL is) or 'cursorPath' and "
                    + "'cursorParam' (where the cursor is, and the parameter that sends it back), not "
                    + (hasURL ? "both" : "neither")
            )
            return nil
        }
        if let urlPath { return .urlPath(urlPath) }
        guard hasCursor else { return nil }
        if cursorPath == nil, !reader.contains("cursorPath") { reader.reportMissing("cursorPath") }
        if cursorParam == nil, !reader.contains("cursorParam") { reader.reportMissing("cursorParam") }
        guard let cursorPath, let cursorParam else { return nil }
        return .cursor(path: cursorPath, param: cursorParam)
    }

    /// `since`: `{param, format}`.
    private func since(_ reader: inout ObjectReader) -> EndpointSince? {
        let param = reader.nonEmptyString("param", required: true)
        let format = reader.enumeration("format", EndpointDateFormat.self, what: "date format", code: .invalidEndpoint)
        let formatBad = reader.contains("format") && format == nil
        _ = reader.extraKeys(known: ["param", "format"])
        guard let param, !formatBad else { return nil }
        return EndpointSince(param: param, format: format ?? .iso8601)
    }

    /// `idsRequest`: a request plus `recordsPath` and optional `nextPage`.
    private func idsRequest(_ reader: inout ObjectReader) -> EndpointIDsRequest? {
        let request = self.request(&reader, defaultMethod: .get, placeholders: false, body: false)
        let recordsPath = dotPath(&reader, "recordsPath", required: true, allowEmpty: true)
        let nextPage = reader.object("nextPage") { self.nextPage(&$0) }
        _ = reader.extraKeys(known: Self.requestKeys + ["recordsPath", "nextPage"])
        guard let request, let recordsPath else { return nil }
        if case .some(.none) = nextPage { return nil }
        return EndpointIDsRequest(request: request, recordsPath: recordsPath, nextPage: nextPage ?? nil)
    }

    private static func utf8Count(of part: EndpointTemplate.Part) -> Int {
        switch part {
        case .literal(let text): text.utf8.count
        case .placeholder(let name): name.utf8.count + 2
        }
    }

    private func position(in node: ConfigNode, utf8Offset: Int) -> TextPosition {
        guard case .scalar(let scalar) = node.value else { return node.position }
        return scalar.textMap.position(ofUTF8Offset: utf8Offset, in: scalar.text)
    }
}
