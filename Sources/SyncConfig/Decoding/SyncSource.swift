/// What the cross-item checks need to know about one decoded sync: where its parts are.
struct SyncSource {
    /// A soup named somewhere in the sync, with where.
    struct SoupReference {
        var name: String
        var position: TextPosition
        var path: ConfigPath
    }

    /// A `dependsOn` entry, with where.
    struct Dependency {
        var name: String
        var position: TextPosition
        var path: ConfigPath
    }

    var path: ConfigPath
    var position: TextPosition
    var name: String?
    var namePosition: TextPosition?
    var soupReferences: [SoupReference] = []
    var dependencies: [Dependency] = []
    /// The decoded definition; `nil` when the entry had errors.
    var definition: SyncDefinition?
}
