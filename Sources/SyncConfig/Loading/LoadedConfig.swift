/// Everything one load produced: the configs that could be read, and every diagnostic.
///
/// A config is `nil` when its file was not given or does not parse. Syncs with errors are left
/// out of their ``SyncsConfig``; check ``hasErrors`` before running anything.
public struct LoadedConfig: Sendable, Hashable {
    /// The user store config (`userstore` or `--store-config`).
    public var userStore: StoreConfig?
    /// The user syncs config (`usersyncs` or `--syncs-config`).
    public var userSyncs: SyncsConfig?
    /// The global store config (`globalstore`).
    public var globalStore: StoreConfig?
    /// The global syncs config (`globalsyncs`).
    public var globalSyncs: SyncsConfig?
    /// Every problem, sorted by file (load order), line and column.
    public var diagnostics: [Diagnostic]
    /// The files read, as named in diagnostics, in load order.
    public var files: [String]

    /// Creates a loaded config.
    public init(
        userStore: StoreConfig? = nil,
        userSyncs: SyncsConfig? = nil,
        globalStore: StoreConfig? = nil,
        globalSyncs: SyncsConfig? = nil,
        diagnostics: [Diagnostic] = [],
        files: [String] = []
    ) {
        self.userStore = userStore
        self.userSyncs = userSyncs
        self.globalStore = globalStore
        self.globalSyncs = globalSyncs
        self.diagnostics = diagnostics
        self.files = files
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.isError } }

    /// The number of errors.
    public var errorCount: Int { diagnostics.count { $0.isError } }

    /// The number of warnings.
    public var warningCount: Int { diagnostics.count { !$0.isError } }

    /// All syncs, user ones first.
    public var allSyncs: [SyncDefinition] {
        (userSyncs?.syncs ?? []) + (globalSyncs?.syncs ?? [])
    }

    /// All soups, user ones first.
    public var allSoups: [SoupDefinition] {
        (userStore?.soups ?? []) + (globalStore?.soups ?? [])
    }
}
