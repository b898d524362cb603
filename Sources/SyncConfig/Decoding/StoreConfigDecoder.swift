/// Decodes a store config from the positioned tree, reporting every problem.
struct StoreConfigDecoder {
    let context: DecodingContext

    /// Where each soup was declared, for diagnostics other checks attach to a soup.
    struct SoupSource {
        var position: TextPosition
        var path: ConfigPath
    }

    /// The decoded config plus the soups' positions (by soup name).
    struct Result {
        var config: StoreConfig
        var sources: [String: SoupSource]
        var file: String
        /// Every soup name declared, including soups left out for errors in their indexes, so
        /// one mistake is not reported again as "soup not declared" at every sync using it.
        var declaredNames: Set<String> = []
    }

    func decode(_ root: ConfigNode) -> Result {
        var result = Result(config: StoreConfig(soups: []), sources: [:], file: context.file)
        guard var reader = ObjectReader(root, path: .root, context: context) else { return result }
        let soups = reader.topLevelArray("soups")
        var soupNames = Declarations(context: context, .duplicateSoupName, message: ConfigMessages.duplicateSoupName)
        for (index, node) in soups.enumerated() {
            let path = ConfigPath.root.appending("soups").appending(index: index)
            if case .object(let members) = node.value, let nameNode = members.first(where: { $0.key == "soupName" }),
                case .scalar(let scalar) = nameNode.value.value
            {
                result.declaredNames.insert(scalar.text)
            }
            guard let soup = decodeSoup(node, path: path),
                !soupNames.isDuplicate(soup.name, declaredBy: node, path: path.appending("soupName"))
            else { continue }
            result.config.soups.append(soup)
            result.sources[soup.name] = SoupSource(position: node.position, path: path)
        }
        return result
    }

    private func decodeSoup(_ node: ConfigNode, path: ConfigPath) -> SoupDefinition? {
        guard var reader = ObjectReader(node, path: path, context: context) else { return nil }
        let name = reader.nonEmptyString("soupName", required: true)
        let indexNodes = reader.array("indexes", required: true)
        _ = reader.extraKeys(known: ["soupName", "indexes"])
        var indexes: [IndexDefinition] = []
        var valid = name != nil && indexNodes != nil
        var paths = Declarations(context: context, .duplicateIndexPath, message: ConfigMessages.duplicateIndexPath)
        for (index, indexNode) in (indexNodes ?? []).enumerated() {
            let indexPath = path.appending("indexes").appending(index: index)
            guard let definition = decodeIndex(indexNode, path: indexPath),
                !paths.isDuplicate(definition.path, declaredBy: indexNode, path: indexPath.appending("path"))
            else {
                valid = false
                continue
            }
            indexes.append(definition)
        }
        if let name, let indexNodes, indexNodes.isEmpty {
            context.error(
                .emptyIndexes,
                at: reader.position(of: "indexes"),
                path: path.appending("indexes"),
                ConfigMessages.emptyIndexes(name)
            )
            valid = false
        }
        guard valid, let name else { return nil }
        return SoupDefinition(name: name, indexes: indexes, location: context.location(node.position))
    }

    private func decodeIndex(_ node: ConfigNode, path: ConfigPath) -> IndexDefinition? {
        guard var reader = ObjectReader(node, path: path, context: context) else { return nil }
        let indexPath = reader.nonEmptyString("path", required: true)
        let type = reader.enumeration("type", IndexType.self, what: "index type", required: true)
        // `columnName` is written by the SDK's own alter bookkeeping; configs may carry it.
        _ = reader.value("columnName")
        _ = reader.extraKeys(known: ["path", "type", "columnName"])
        guard let indexPath, let type else { return nil }
        return IndexDefinition(path: indexPath, type: type)
    }
}
