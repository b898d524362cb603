extension ObjectReader {
    /// A string member that must be one of `T`'s raw values, compared exactly; an unknown value
    /// is reported with a suggestion (`code`, default from `what`).
    mutating func enumeration<T: RawRepresentable & CaseIterable>(
        _ key: String,
        _ type: T.Type,
        what: String,
        code: Diagnostic.Code? = nil,
        required: Bool = false
    ) -> T? where T.RawValue == String {
        guard let (text, node) = stringNode(key, required: required) else { return nil }
        if let value = T(rawValue: text) { return value }
        let allowed = T.allCases.map(\.rawValue)
        context.error(
            code ?? Self.code(for: T.self),
            at: node.position,
            path: path.appending(key),
            ConfigMessages.unknownValue(what, text, allowed: allowed)
        )
        return nil
    }

    private static func code<T>(for type: T.Type) -> Diagnostic.Code {
        switch type {
        case is IndexType.Type: .unknownIndexType
        case is SyncType.Type: .unknownSyncType
        case is MergeMode.Type: .unknownMergeMode
        case is RelationshipType.Type: .unknownRelationshipType
        default: .unknownTargetType
        }
    }
}
