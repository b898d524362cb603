import Foundation

/// Describe results generated from the schema (salesforce-rest.md §7): describe global, the object
/// summary used by basic info, and the full sObject describe with fields and child relationships.
struct OrgDescriber {
    let schema: OrgSchema
    let apiVersion: String
    /// The IDs of the described object's record types, by developer name (from the org's
    /// `RecordType` records; the IDs differ between orgs).
    var recordTypeIDs: [String: String] = [:]

    /// `{"encoding", "maxBatchSize", "sobjects": [summary…]}`.
    func describeGlobal() -> OrgJSONValue {
        .object([
            "encoding": "UTF-8", "maxBatchSize": 200,
            "sobjects": .array(schema.objects.map { summaryObject($0) }),
        ])
    }

    /// The object summary of describe global. - Throws: `NOT_FOUND` (404).
    func summary(_ name: String) throws -> OrgJSONValue {
        guard let object = schema.object(named: name) else { throw OrgError.notFound() }
        return summaryObject(object)
    }

    /// The sObject describe. - Throws: `NOT_FOUND` (404).
    func describe(_ name: String) throws -> OrgJSONValue {
        guard let object = schema.object(named: name) else { throw OrgError.notFound() }
        var json = summaryFields(object)
        for (key, value) in describeOnlyFields(object) { json[key] = value }
        json["fields"] = .array(object.fields.map { describeField($0, object: object) })
        json["childRelationships"] = .array(
            schema.childRelationships(of: object.name).map { relationship in
                .object([
                    "childSObject": .string(relationship.childObject), "field": .string(relationship.field),
                    "relationshipName": relationship.relationshipName.map { .string($0) } ?? .null,
                    "cascadeDelete": .bool(relationship.isCascadeDelete),
                    "restrictedDelete": .bool(relationship.isRestrictedDelete), "deprecatedAndHidden": false,
                    "junctionIdListNames": [], "junctionReferenceTo": [],
                ])
            }
        )
        json["recordTypeInfos"] = .array(recordTypeInfos(object))
        json["urls"] = urls(object, full: true)
        return .object(json)
    }

    /// The object's record types, then the master record type (the default when no other is).
    private func recordTypeInfos(_ object: OrgObject) -> [OrgJSONValue] {
        let defaultName = object.defaultRecordType?.developerName
        let layouts = "/services/data/v\(apiVersion)/sobjects/\(object.name)/describe/layouts/"
        func info(developerName: String, name: String, id: String, active: Bool, isDefault: Bool, master: Bool)
            -> OrgJSONValue
        {
            .object([
                "active": .bool(active), "available": .bool(active), "defaultRecordTypeMapping": .bool(isDefault),
                "developerName": .string(developerName), "master": .bool(master), "name": .string(name),
                "recordTypeId": .string(id), "urls": .object(["layout": .string(layouts + id)]),
            ])
        }
        var infos: [OrgJSONValue] = []
        for recordType in object.recordTypes {
            guard let id = recordTypeIDs[recordType.developerName] else { continue }
            infos.append(
                info(
                    developerName: recordType.developerName,
                    name: recordType.name,
                    id: id,
                    active: recordType.isActive,
                    isDefault: recordType.developerName == defaultName,
                    master: false
                )
            )
        }
        infos.append(
            info(
                developerName: "Master",
                name: "Master",
                id: OrgRecordType.masterID,
                active: true,
                isDefault: defaultName == nil,
                master: true
            )
        )
        return infos
    }

    private func summaryObject(_ object: OrgObject) -> OrgJSONValue { .object(summaryFields(object)) }

    /// The keys a describe-global entry and an object describe share, with the values recorded
    /// real describes give (`Tests/Fixtures/describes`, from CumulusCI's shared cassettes).
    private func summaryFields(_ object: OrgObject) -> OrgJSONObject {
        [
            "name": .string(object.name), "label": .string(object.label), "labelPlural": .string(object.labelPlural),
            "keyPrefix": .string(object.keyPrefix), "custom": .bool(object.isCustom),
            "customSetting": false, "queryable": .bool(object.isQueryable), "retrieveable": true,
            "searchable": .bool(object.nameField != nil && object.isWritable),
            "createable": .bool(object.isCreateable), "updateable": .bool(object.isUpdateable),
            "deletable": .bool(object.isDeletable), "undeletable": .bool(object.isDeletable),
            "replicateable": true, "layoutable": .bool(object.isWritable), "triggerable": .bool(object.isWritable),
            "mergeable": .bool(object.isMergeable), "feedEnabled": .bool(object.isFeedEnabled),
            "deprecatedAndHidden": false, "activateable": false, "deepCloneable": .bool(object.isDeepCloneable),
            "hasSubtypes": false, "isInterface": false, "isSubtype": false, "mruEnabled": .bool(object.isMRUEnabled),
            "associateEntityType": .null, "associateParentEntity": .null,
            "urls": urls(object, full: false),
        ]
    }

    /// The keys only the full object describe carries.
    private func describeOnlyFields(_ object: OrgObject) -> OrgJSONObject {
        let plural = object.labelPlural.lowercased()
        return [
            "actionOverrides": [], "compactLayoutable": .bool(object.isWritable), "defaultImplementation": .null,
            "extendedBy": .null, "extendsInterfaces": .null, "implementedBy": .null, "implementsInterfaces": .null,
            "listviewable": .null, "lookupLayoutable": .null, "namedLayoutInfos": [], "networkScopeFieldName": .null,
            "searchLayoutable": .bool(object.isWritable), "sobjectDescribeOption": "FULL",
            "supportedScopes": [
                .object(["name": "everything", "label": .string("All \(plural)")]),
                .object(["name": "mine", "label": .string("My \(plural)")]),
            ],
        ]
    }

    private func urls(_ object: OrgObject, full: Bool) -> OrgJSONValue {
        let base = "/services/data/v\(apiVersion)/sobjects/\(object.name)"
        var urls: OrgJSONObject = [
            "sobject": .string(base), "describe": .string(base + "/describe"), "rowTemplate": .string(base + "/{ID}"),
        ]
        if full {
            urls["uiDetailTemplate"] = .null
            urls["defaultValues"] = .string(base + "/defaultValues?recordTypeId&fields")
        }
        return .object(urls)
    }

    /// A field entry with every key real field describes carry (57 at API 48-59), the values
    /// following Salesforce's object reference and recorded real describes.
    private func describeField(_ field: OrgField, object: OrgObject) -> OrgJSONValue {
        let type = field.type
        let isDecimal = type.isNumeric && type != .int
        let isText = type.hasLength
        let extraTypeInfo = field.extraTypeInfo ?? (type == .textarea ? "plaintextarea" : nil)
        let isPermissionable = field.isPermissionable
        let isPolymorphic = field.referenceTo.count > 1
        let json: OrgJSONObject = [
            "name": .string(field.name), "label": .string(field.label), "type": .string(type.wireName),
            "soapType": .string(type.soapType),
            "length": .integer(Int64(isText ? field.length : 0)),
            "byteLength": .integer(Int64(type == .id || type == .reference ? 18 : isText ? field.length * 3 : 0)),
            "digits": .integer(Int64(type == .int ? field.digits ?? 9 : 0)),
            "precision": .integer(Int64(isDecimal ? field.precision ?? 18 : 0)),
            "scale": .integer(Int64(isDecimal ? field.scale ?? 2 : 0)),
            "nillable": .bool(type == .boolean || type == .id ? false : field.isNillable),
            "defaultedOnCreate": .bool(field.isDefaultedOnCreate), "createable": .bool(field.isCreateable),
            "updateable": .bool(field.isUpdateable), "calculated": false, "calculatedFormula": .null,
            "autoNumber": .bool(field.isAutoNumber), "externalId": .bool(field.isExternalID),
            "idLookup": .bool(field.isIDLookup), "unique": .bool(field.isUnique), "custom": .bool(field.isCustom),
            "filterable": .bool(field.isFilterable), "sortable": .bool(field.isSortable),
            "groupable": .bool(field.isGroupable),
            "aggregatable": .bool(field.isFilterable && type != .boolean),
            "caseSensitive": false, "namePointing": .bool(isPolymorphic),
            "polymorphicForeignKey": .bool(isPolymorphic),
            "referenceTo": .array(field.referenceTo.map { .string($0) }),
            "relationshipName": field.relationshipName.map { .string($0) } ?? .null,
            "relationshipOrder": field.relationshipOrder.map { .integer(Int64($0)) } ?? .null,
            // Real field entries carry `cascadeDelete: false` (the cascade shows on the parent's
            // `childRelationships`), except the detail side of a master-detail relationship.
            "cascadeDelete": .bool(field.isMasterDetail && field.isCascadeDelete), "restrictedDelete": false,
            "defaultValue": field.defaultValue ?? .null, "defaultValueFormula": .null,
            "deprecatedAndHidden": false,
            "nameField": .bool(field.name == object.nameField?.name),
            "compoundFieldName": field.compoundFieldName.map { .string($0) } ?? .null,
            "extraTypeInfo": extraTypeInfo.map { .string($0) } ?? .null,
            "permissionable": .bool(isPermissionable),
            "searchPrefilterable": .bool(
                type == .reference && !isPolymorphic && field.isNillable && field.isCreateable
            ),
            "restrictedPicklist": .bool(field.isRestrictedPicklist), "dependentPicklist": false,
            "controllerName": .null, "aiPredictionField": false, "displayLocationInDecimal": false,
            "encrypted": false, "filteredLookupInfo": .null, "formulaTreatNullNumberAsZero": false,
            "highScaleNumber": false, "htmlFormatted": false, "inlineHelpText": .null, "mask": .null,
            "maskType": .null, "queryByDistance": false, "referenceTargetField": .null,
            "writeRequiresMasterRead": false,
            "picklistValues": .array(
                field.picklistValues.map { value in
                    .object([
                        "value": .string(value), "label": .string(value), "active": true,
                        "defaultValue": .bool(field.defaultValue == .string(value)), "validFor": .null,
                    ])
                }
            ),
        ]
        return .object(json)
    }
}
