import SoupStore
import SyncConfig

/// The soups of a store config (`userstore`) as the store registers them: the one conversion
/// `store init`, every sync session and `migrate` use.
extension SoupSpec {
    /// The soup as the store config declares it.
    ///
    /// - Throws: ``SoupStore/SoupStoreError`` (`invalidSoupSpec`) for an index type the store
    ///   does not know.
    public init(declared soup: SoupDefinition) throws {
        self.init(
            name: soup.name,
            indexes: try soup.indexes.map { index in
                IndexSpec(path: index.path, type: try SoupIndexType(configName: index.type.rawValue, soup: soup.name))
            }
        )
    }
}

extension SoupStore {
    /// Registers the soups of `config` that the store lacks; existing soups are left untouched,
    /// as MobileSync does (`store init` alters them instead).
    ///
    /// - Throws: ``SoupStore/SoupStoreError`` for a soup that cannot be registered.
    public func registerMissingSoups(of config: StoreConfig?) throws {
        guard let config else { return }
        try write { writer in
            for soup in config.soups where try !writer.reader.hasSoup(soup.name) {
                try writer.registerSoup(try SoupSpec(declared: soup))
            }
        }
    }
}
