import JSONCore

extension OrgShape {
    /// The field types the local org's schema file accepts (describes' spelling): every type of a
    /// real describe's field entries, compound `address` and `location` included; a field of another
    /// type is left out of a pulled file.
    public static let schemaFileFieldTypes: Set<String> = [
        "id", "string", "textarea", "email", "phone", "url", "picklist", "multipicklist", "boolean", "int",
        "double", "currency", "percent", "date", "datetime", "reference", "combobox", "anyType", "location",
        "address", "base64", "time", "encryptedstring", "json",
    ]

    /// This shape as an exact-mode schema file document (the local org's format): objects,
    /// fields, child relationship names and record types, without ids or anything volatile.
    public func schemaFileDocument() -> JSONValue {
        .object(["mode": "exact", "objects": .array(objects.map(schemaFileObject))])
    }

    private func schemaFileObject(_ object: ObjectShape) -> JSONValue {
        var json: [String: JSONValue] = [
            "name": .string(object.name), "label": .string(object.label), "labelPlural": .string(object.labelPlural),
            "custom": .bool(object.isCustom), "queryable": .bool(object.isQueryable),
            "createable": .bool(object.isCreateable), "updateable": .bool(object.isUpdateable),
            "deletable": .bool(object.isDeletable),
            "fields": .array(
                object.fields.filter { Self.schemaFileFieldTypes.contains($0.type) }
                    .map { schemaFileField($0, of: object) }
            ),
        ]
        if let prefix = object.keyPrefix { json["keyPrefix"] = .string(prefix) }
        if !object.recordTypes.isEmpty {
            json["recordTypes"] = .array(
                object.recordTypes.map { recordType in
                    .object([
                        "developerName": .string(recordType.developerName), "name": .string(recordType.name),
                        "active": .bool(recordType.isActive), "default": .bool(recordType.isDefault),
                    ])
                }
            )
        }
        return .object(json)
    }

    private func schemaFileField(_ field: FieldShape, of object: ObjectShape) -> JSONValue {
        var json: [String: JSONValue] = [
            "name": .string(field.name), "type": .string(field.type), "label": .string(field.label),
            "length": .integer(Int64(field.length)), "nillable": .bool(field.isNillable),
            "externalId": .bool(field.isExternalID), "unique": .bool(field.isUnique),
            "createable": .bool(field.isCreateable), "updateable": .bool(field.isUpdateable),
            "defaultedOnCreate": .bool(field.isDefaultedOnCreate), "custom": .bool(field.isCustom),
        ]
        if !field.referenceTo.isEmpty {
            json["referenceTo"] = .array(field.referenceTo.map { .string($0) })
            json["relationshipName"] = field.relationshipName.map { .string($0) } ?? .null
            // Real field entries say `cascadeDelete: false`; the delete rules are on the parents'
            // `childRelationships`, so they come from there.
            let relationships = field.referenceTo.compactMap { self.object(named: $0) }
                .compactMap { parent in
                    parent.childRelationships.first {
                        $0.childObject.lowercased() == object.name.lowercased()
                            && $0.field.lowercased() == field.name.lowercased()
                    }
                }
            json["childRelationshipName"] = relationships.first?.relationshipName.map { .string($0) } ?? .null
            json["cascadeDelete"] = .bool(field.isCascadeDelete || relationships.contains(where: \.isCascadeDelete))
            json["restrictedDelete"] = .bool(
                field.isRestrictedDelete || relationships.contains(where: \.isRestrictedDelete)
            )
            if let order = field.relationshipOrder { json["relationshipOrder"] = .integer(Int64(order)) }
        }
        if !field.picklistValues.isEmpty { json["picklistValues"] = .array(field.picklistValues.map { .string($0) }) }
        if let value = field.defaultValue { json["defaultValue"] = value }
        return .object(json)
    }
}
