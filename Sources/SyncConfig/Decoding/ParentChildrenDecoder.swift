/// Decodes the `parent` and `children` objects shared by both parent-children targets.
struct ParentChildrenDecoder {
    let context: DecodingContext

    func parent(_ reader: inout ObjectReader, source: inout SyncSource) -> ParentInfo? {
        guard var info = reader.object("parent", required: true) else { return nil }
        let sobjectType = info.nonEmptyString("sobjectType", required: true)
        let soupName = soupReference(&info, source: &source)
        let names = info.fieldNames()
        let externalId = info.nonEmptyString("externalIdFieldName")
        let extras = info.extraKeys(known: TargetKeys.parentInfo)
        guard let sobjectType, let soupName else { return nil }
        return ParentInfo(
            sobjectType: sobjectType,
            soupName: soupName,
            idFieldName: names.id,
            modificationDateFieldName: names.modificationDate,
            externalIdFieldName: externalId,
            extraKeys: extras
        )
    }

    func children(_ reader: inout ObjectReader, source: inout SyncSource) -> ChildrenInfo? {
        guard var info = reader.object("children", required: true) else { return nil }
        let sobjectType = info.nonEmptyString("sobjectType", required: true)
        let plural = info.nonEmptyString("sobjectTypePlural", required: true)
        let soupName = soupReference(&info, source: &source)
        let parentIdFieldName = info.nonEmptyString("parentIdFieldName", required: true)
        let names = info.fieldNames()
        let externalId = info.nonEmptyString("externalIdFieldName")
        let extras = info.extraKeys(known: TargetKeys.childrenInfo)
        guard let sobjectType, let plural, let soupName, let parentIdFieldName else { return nil }
        return ChildrenInfo(
            sobjectType: sobjectType,
            sobjectTypePlural: plural,
            soupName: soupName,
            parentIdFieldName: parentIdFieldName,
            idFieldName: names.id,
            modificationDateFieldName: names.modificationDate,
            externalIdFieldName: externalId,
            extraKeys: extras
        )
    }

    /// Reads a required `relationshipType` and, once the parent is read, checks the sync's
    /// `soupName` against the parent's: the last steps of both parent-children targets.
    func relationshipType(
        _ target: inout ObjectReader,
        parent: ParentInfo?,
        syncSoupName: String?,
        sync: ObjectReader
    ) -> RelationshipType? {
        let relationship = target.enumeration(
            "relationshipType",
            RelationshipType.self,
            what: "relationship type",
            required: true
        )
        if let parent { checkParentSoup(parent, syncSoupName: syncSoupName, sync: sync) }
        return relationship
    }

    /// Reads a required `soupName` and records it for the undeclared-soup check.
    func soupReference(_ reader: inout ObjectReader, source: inout SyncSource) -> String? {
        guard let name = reader.nonEmptyString("soupName", required: true) else { return nil }
        source.soupReferences.append(
            .init(
                name: name,
                position: reader.position(of: "soupName"),
                path: reader.path.appending("soupName")
            )
        )
        return name
    }

    /// Checks `soupName` of the sync against `parent.soupName`.
    private func checkParentSoup(_ parent: ParentInfo, syncSoupName: String?, sync: ObjectReader) {
        guard let syncSoupName, syncSoupName != parent.soupName else { return }
        context.error(
            .parentSoupMismatch,
            at: sync.position(of: "soupName"),
            path: sync.path.appending("soupName"),
            ConfigMessages.parentSoupMismatch(soupName: syncSoupName, parentSoupName: parent.soupName)
        )
    }
}
