/// Decodes a syncs config from the positioned tree, reporting every problem of every entry.
struct SyncsConfigDecoder {
    let context: DecodingContext
    let registry: TargetImplRegistry

    static let syncKeys = ["syncName", "syncType", "soupName", "target", "options", "dependsOn"]
    static let optionKeys = [
        "mergeMode", "fieldlist", "cleanGhosts", "mask", "maxConcurrentRequests", "minApiShare", "stopApiShare",
    ]

    /// The decoded config plus what the cross-item checks need.
    struct Result {
        var config: SyncsConfig
        var sources: [SyncSource]
        var file: String
    }

    func decode(_ root: ConfigNode) -> Result {
        var result = Result(config: SyncsConfig(syncs: []), sources: [], file: context.file)
        guard var reader = ObjectReader(root, path: .root, context: context) else { return result }
        let syncs = reader.topLevelArray("syncs")
        var syncNames = Declarations(context: context, .duplicateSyncName, message: ConfigMessages.duplicateSyncName)
        for (index, node) in syncs.enumerated() {
            let path = ConfigPath.root.appending("syncs").appending(index: index)
            var source = decodeSync(node, path: path)
            if let name = source.name, let namePosition = source.namePosition,
                syncNames.isDuplicate(name, declaredBy: node, at: namePosition, path: path.appending("syncName"))
            {
                source.definition = nil
            }
            if let definition = source.definition { result.config.syncs.append(definition) }
            result.sources.append(source)
        }
        return result
    }

    /// A C0 or C1 control character, DEL, or a bidirectional override or isolate: what a terminal
    /// obeys instead of printing.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    private func decodeSync(_ node: ConfigNode, path: ConfigPath) -> SyncSource {
        var source = SyncSource(path: path, position: node.position)
        guard var sync = ObjectReader(node, path: path, context: context) else { return source }
        let errorsBefore = context.log.errorCount
        let name = sync.nonEmptyString("syncName", required: true)
        source.name = name
        source.namePosition = sync.position(of: "syncName")
        let type = sync.enumeration("syncType", SyncType.self, what: "sync type", required: true)
        let soupName = sync.nonEmptyString("soupName")
        for (key, value) in [("syncName", name), ("soupName", soupName)] {
            guard let value, let control = value.unicodeScalars.first(where: Self.isControl) else { continue }
            context.warning(
                .controlCharacter,
                at: sync.position(of: key),
                path: path.appending(key),
                ConfigMessages.controlCharacter(key, control)
            )
        }
        var target: SyncTarget?
        var soqlQuery: (text: String, node: ConfigNode)?
        if var targetReader = sync.object("target", required: true), let type {
            switch type {
            case .syncDown:
                let decoder = SyncDownTargetDecoder(context: context, registry: registry)
                if let decoded = decoder.decode(&targetReader, sync: sync, syncSoupName: soupName, source: &source) {
                    target = .down(decoded.target)
                    soqlQuery = decoded.soqlQuery
                }
            case .syncUp:
                let decoder = SyncUpTargetDecoder(context: context, registry: registry)
                target = decoder.decode(&targetReader, sync: sync, syncSoupName: soupName, source: &source).map(
                    SyncTarget.up
                )
            }
        }
        if soupName == nil, !sync.contains("soupName"), !isBriefcase(target) {
            sync.reportMissing("soupName")
        } else if sync.contains("soupName"), sync.value("soupName") == nil, !isBriefcase(target) {
            let position = sync.position(of: "soupName")
            context.error(
                .typeMismatch,
                at: position,
                path: path.appending("soupName"),
                ConfigMessages.expectedNull("a string")
            )
        } else if let soupName, !isBriefcase(target) {
            source.soupReferences.insert(
                .init(name: soupName, position: sync.position(of: "soupName"), path: path.appending("soupName")),
                at: 0
            )
        }
        let options = decodeOptions(&sync)
        let dependsOn = sync.stringArrayNodes("dependsOn") ?? []
        source.dependencies = dependsOn.enumerated().map { index, entry in
            .init(
                name: entry.text,
                position: entry.node.position,
                path: path.appending("dependsOn").appending(index: index)
            )
        }
        let extras = sync.extraKeys(known: Self.syncKeys)
        if case .down(.endpoint(let endpoint))? = target, endpoint.idsRequest == nil, options?.cleanGhosts == true {
            context.warning(
                .ghostCleaningWithoutIDs,
                at: sync.position(of: "options"),
                path: path.appending("options").appending("cleanGhosts"),
                "'cleanGhosts' is true but the endpoint target declares no 'idsRequest', so the clean-ghosts step "
                    + "will be refused; add 'idsRequest' (a request listing every id) or turn 'cleanGhosts' off"
            )
        }
        if let soqlQuery, case .down(let down)? = target {
            SOQLCheck(context: context).check(
                soqlQuery.text,
                node: soqlQuery.node,
                path: path.appending("target").appending("query"),
                target: down,
                cleanGhosts: options?.cleanGhosts ?? false
            )
        }
        guard context.log.errorCount == errorsBefore, let name, let type, let target, let options else { return source }
        source.definition = SyncDefinition(
            name: name,
            type: type,
            soupName: soupName ?? "",
            target: target,
            options: options,
            dependsOn: dependsOn.map(\.text),
            extraKeys: extras,
            location: context.location(node.position)
        )
        return source
    }

    private func isBriefcase(_ target: SyncTarget?) -> Bool {
        if case .down(.briefcase)? = target { return true }
        return false
    }

    private func decodeOptions(_ sync: inout ObjectReader) -> SyncOptions? {
        guard var reader = sync.object("options") else {
            // Absent or null: the defaults, as iOS does; a value of another type was reported.
            guard sync.value("options") == nil else { return nil }
            context.warning(.missingMergeMode, at: sync.node.position, path: sync.path, ConfigMessages.missingMergeMode)
            return SyncOptions()
        }
        let errorsBefore = context.log.errorCount
        let mergeMode = reader.enumeration("mergeMode", MergeMode.self, what: "merge mode")
        if !reader.contains("mergeMode") {
            context.warning(
                .missingMergeMode,
                at: reader.node.position,
                path: reader.path,
                ConfigMessages.missingMergeMode
            )
        }
        let fieldlist = reader.stringArray("fieldlist")
        let cleanGhosts = reader.bool("cleanGhosts")
        let mask = decodeMask(&reader)
        let maxConcurrentRequests = reader.clampedInteger(
            "maxConcurrentRequests",
            range: SyncOptions.maxConcurrentRequestsRange
        )
        let minApiShare = reader.clampedInteger("minApiShare", range: 0...100)
        let stopApiShare = reader.clampedInteger("stopApiShare", range: 0...100)
        let extras = reader.extraKeys(known: Self.optionKeys)
        guard context.log.errorCount == errorsBefore else { return nil }
        return SyncOptions(
            fieldlist: fieldlist,
            mergeMode: mergeMode ?? .overwrite,
            cleanGhosts: cleanGhosts ?? false,
            mask: mask,
            maxConcurrentRequests: maxConcurrentRequests ?? SyncOptions.defaultMaxConcurrentRequests,
            minApiShare: minApiShare ?? SyncOptions.defaultMinApiShare,
            stopApiShare: stopApiShare ?? SyncOptions.defaultStopApiShare,
            extraKeys: extras
        )
    }

    /// `options.mask`: field name → a kind's name, or `{"fixed": "text"}`. Says once that masks
    /// apply to `migrate` only.
    private func decodeMask(_ options: inout ObjectReader) -> [String: FieldMask] {
        guard var reader = options.object("mask") else { return [:] }
        var mask: [String: FieldMask] = [:]
        for field in reader.keys {
            guard let node = reader.value(field) else {
                context.error(
                    .unknownMask,
                    at: reader.position(of: field),
                    path: reader.path.appending(field),
                    "a mask cannot be null; write \"null\" (a quoted string in YAML) to clear the field, or leave the field "
                        + "out"
                )
                continue
            }
            let path = reader.path.appending(field)
            switch node.value {
            case .scalar:
                guard let text = ValueReader.string(node, path: path, context: context) else { continue }
                if let kind = FieldMask.names[text] {
                    mask[field] = kind
                } else {
                    context.error(
                        .unknownMask,
                        at: node.position,
                        path: path,
                        ConfigMessages.unknownMask(text, allowed: FieldMask.names.keys.sorted())
                    )
                }
            case .object:
                guard var fixed = ObjectReader(node, path: path, context: context) else { continue }
                if let text = fixed.string("fixed", required: true) { mask[field] = .fixed(text) }
                _ = fixed.extraKeys(known: ["fixed"])
            case .array:
                context.error(
                    .unknownMask,
                    at: node.position,
                    path: path,
                    ConfigMessages.unknownMask(nil, allowed: FieldMask.names.keys.sorted())
                )
            }
        }
        if !mask.isEmpty {
            context.warning(
                .maskForMigrateOnly,
                at: options.position(of: "mask"),
                path: options.path.appending("mask"),
                "masks apply to 'syncrun migrate' only: 'run' and 'sync' write the app's own data unmasked"
            )
        }
        return mask
    }
}
