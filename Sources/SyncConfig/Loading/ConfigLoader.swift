import Foundation

/// Loads store and syncs configs from JSON or YAML, reporting every problem of every file in
/// one pass as ``Diagnostic``s instead of stopping at the first.
///
/// ```swift
/// let loaded = try ConfigLoader().load(ConfigFiles.locate(in: directory))
/// for diagnostic in loaded.diagnostics { print(diagnostic) }
/// guard !loaded.hasErrors, let syncs = loaded.userSyncs else { return }
/// ```
public struct ConfigLoader: Sendable {
    /// Which custom target classes have plug-ins.
    public var registry: TargetImplRegistry

    /// Creates a loader.
    public init(registry: TargetImplRegistry = TargetImplRegistry()) {
        self.registry = registry
    }

    /// Loads the given files: each store config, then each syncs config checked against the
    /// store config of the same scope (user / global) when there is one.
    ///
    /// - Throws: ``SyncConfigError`` when a file cannot be read. Bad content never throws.
    public func load(_ files: ConfigFiles) throws -> LoadedConfig {
        let log = DiagnosticLog()
        files.diagnostics.forEach(log.append)
        var loaded = LoadedConfig()
        let userStore = try files.userStore.map { try decodeStore(at: $0, log: log) }
        let userSyncs = try files.userSyncs.map { try decodeSyncs(at: $0, log: log) }
        let globalStore = try files.globalStore.map { try decodeStore(at: $0, log: log) }
        let globalSyncs = try files.globalSyncs.map { try decodeSyncs(at: $0, log: log) }
        let validator = ConfigValidator(log: log)
        if let syncs = userSyncs ?? nil { validator.validate(syncs: syncs, store: userStore ?? nil) }
        if let syncs = globalSyncs ?? nil { validator.validate(syncs: syncs, store: globalStore ?? nil) }
        loaded.userStore = (userStore ?? nil)?.config
        loaded.userSyncs = (userSyncs ?? nil)?.config
        loaded.globalStore = (globalStore ?? nil)?.config
        loaded.globalSyncs = (globalSyncs ?? nil)?.config
        loaded.files = [files.userStore, files.userSyncs, files.globalStore, files.globalSyncs]
            .compactMap { $0.map(Self.displayName(of:)) }
        loaded.diagnostics = Self.sorted(log.diagnostics, fileOrder: loaded.files)
        return loaded
    }

    /// Loads a store config and a syncs config named directly (the user scope).
    ///
    /// - Throws: ``SyncConfigError`` when a file cannot be read.
    public func load(storeConfig: URL?, syncsConfig: URL?) throws -> LoadedConfig {
        try load(ConfigFiles(userStore: storeConfig, userSyncs: syncsConfig))
    }

    /// How a file is named in diagnostics: the path as given, without a leading `./`.
    static func displayName(of url: URL) -> String {
        let path = url.relativePath
        return path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    // MARK: - Decoding

    private func decodeStore(at url: URL, log: DiagnosticLog) throws -> StoreConfigDecoder.Result? {
        let file = Self.displayName(of: url)
        guard let root = try parse(url, file: file, log: log) else { return nil }
        return StoreConfigDecoder(context: DecodingContext(file: file, log: log)).decode(root)
    }

    private func decodeSyncs(at url: URL, log: DiagnosticLog) throws -> SyncsConfigDecoder.Result? {
        let file = Self.displayName(of: url)
        guard let root = try parse(url, file: file, log: log) else { return nil }
        return SyncsConfigDecoder(context: DecodingContext(file: file, log: log), registry: registry).decode(root)
    }

    /// Reads and parses one file into the positioned tree; syntax problems become diagnostics.
    func parse(_ url: URL, file: String, log: DiagnosticLog) throws -> ConfigNode? {
        let context = DecodingContext(file: file, log: log)
        // Checked before reading, so a huge file is never loaded into memory.
        // `stat` rather than FileManager's attributes, which also look up the owner's and group's
        // names (reading /etc/passwd and /etc/group) for every file.
        var info = stat()
        let size = stat(url.path, &info) == 0 ? Int(info.st_size) : 0
        if size > ConfigLimits.maximumBytes {
            context.error(
                .fileTooLarge,
                at: TextPosition(line: 1, column: 1),
                path: .root,
                ConfigMessages.fileTooLarge(bytes: size, limit: ConfigLimits.maximumBytes)
            )
            return nil
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SyncConfigError.unreadable(file, underlying: error)
        }
        if let what = Self.notAConfig(data) {
            context.error(
                .notAConfig,
                at: TextPosition(line: 1, column: 1),
                path: .root,
                ConfigMessages.notAConfig(what)
            )
            return nil
        }
        if let invalid = Self.firstInvalidUTF8([UInt8](data)) {
            context.error(.encoding, at: invalid, path: .root, ConfigMessages.notUTF8)
            return nil
        }
        // Credentials are masked in the raw text before any lexer sees it, so that no message
        // (a syntax error quoting a token, an unknown key) can hold one or a fragment of one.
        let scan = CredentialMask.scan(String(decoding: data, as: UTF8.self), mask: CredentialMask.sourceMaskCharacter)
        var root: ConfigNode
        do {
            switch ConfigFormat(fileExtension: url.pathExtension) {
            case .json:
                var parser = JSONSourceParser(bytes: Array(scan.masked.utf8))
                root = try parser.parseDocument()
                report(parser.findings, context: context)
            case .yaml:
                var parser = YAMLSourceParser(text: scan.masked)
                root = try parser.parseDocument()
                report(parser.findings, context: context)
            }
        } catch {
            context.error(error.code, at: error.position, path: .root, error.message)
            return nil
        }
        if case .scalar = root.value {
            let what = scan.findings.first.map(\.kind.phrase) ?? ConfigMessages.singleValue
            context.error(.notAConfig, at: root.position, path: .root, ConfigMessages.notAConfig(what))
            return nil
        }
        var check = CredentialCheck(context: context, rawFindings: scan.findings)
        root = check.masking(root, path: .root)
        check.reportUnattributed()
        return root
    }

    /// What a file is when it is plainly not a config (binary data, a PEM block, an auth URL),
    /// judged without printing any of it.
    private static func notAConfig(_ data: Data) -> String? {
        if data.contains(0) { return "binary data (a NUL byte)" }
        let head = String(decoding: data.prefix(64), as: UTF8.self)
            .drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if head.hasPrefix("-----BEGIN ") { return CredentialMask.Kind.pemBlock.phrase }
        if head.lowercased().hasPrefix("force://") { return CredentialMask.Kind.sfdxAuthURL.phrase }
        return nil
    }

    private func report(_ findings: [SourceFinding], context: DecodingContext) {
        for finding in findings {
            context.error(finding.code, at: finding.position, path: finding.path, finding.message)
        }
    }

    /// Where the first byte that is not UTF-8 is, if any.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> TextPosition? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var position = TextPosition(line: 1, column: 1)
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    position = TextPosition(line: position.line + 1, column: 1)
                } else {
                    position.column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return position
            }
        }
    }

    /// Diagnostics by file (in load order), then line, then column; stable otherwise.
    static func sorted(_ diagnostics: [Diagnostic], fileOrder: [String]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let left = (fileOrder.firstIndex(of: lhs.element.file) ?? -1, lhs.element.line, lhs.element.column)
            let right = (fileOrder.firstIndex(of: rhs.element.file) ?? -1, rhs.element.line, rhs.element.column)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
