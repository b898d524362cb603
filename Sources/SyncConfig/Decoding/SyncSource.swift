/// What the cross-item checks need to know about one decoded sync: where its parts are.
struct SyncSource {
    /// A name written in the sync (a soup it uses, a `dependsOn` entry), with where.
    struct Reference {
        var name: String
        var position: TextPosition
        var path: ConfigPath
    }

    var path: ConfigPath
    var position: TextPosition
    var name: String?
    var namePosition: TextPosition?
    var soupReferences: [Reference] = []
    var dependencies: [Reference] = []
    /// The decoded definition; `nil` when the entry had errors.
    var definition: SyncDefinition?
}
