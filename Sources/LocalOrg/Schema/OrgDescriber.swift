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
        json["fields"] = .array(object.fields.map { describeField($0, object: object) })
        json["childRelationships"] = .array(
            schema.childRelationships(of: object.name).map { relationship in
                .object([
                    "childSObject": .string(relationship.childObject), "field": .string(relationship.field),
                    "relationshipName": relationship.relationshipName.map { .string($0) } ?? .null,
                    "cascadeDelete": .bool(relationship.isCascadeDelete),
                    "restrictedDelete": .bool(relationship.isRestrictedDelete), "deprecatedAndHidden": false,
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

    private func summaryFields(_ object: OrgObject) -> OrgJSONObject {
        [
            "name": .string(object.name), "label": .string(object.label), "labelPlural": .string(object.labelPlural),
            "keyPrefix": .string(object.keyPrefix), "custom": .bool(object.isCustom),
            "customSetting": false, "queryable": .bool(object.isQueryable), "retrieveable": true,
            "searchable": .bool(object.nameField != nil),
            "createable": .bool(object.isCreateable), "updateable": .bool(object.isUpdateable),
            "deletable": .bool(object.isDeletable), "undeletable": .bool(object.isDeletable),
            "replicateable": true, "layoutable": .bool(object.isWritable), "triggerable": .bool(object.isWritable),
            "mergeable": false, "feedEnabled": false, "deprecatedAndHidden": false,
            "urls": urls(object, full: false),
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

    private func describeField(_ field: OrgField, object: OrgObject) -> OrgJSONValue {
        let isNumeric = field.type.isNumeric
        let isAutoNumber = field.name == "CaseNumber" && !field.isCreateable
        var json: OrgJSONObject = [
            "name": .string(field.name), "label": .string(field.label), "type": .string(field.type.rawValue),
            "soapType": .string(field.type.soapType), "length": .integer(Int64(field.length)),
            "byteLength": .integer(Int64(field.length * 3)),
            "digits": .integer(field.type == .int ? 9 : 0),
            "precision": .integer(isNumeric && field.type != .int ? 18 : 0),
            "scale": .integer(isNumeric && field.type != .int ? 2 : 0),
            "nillable": .bool(field.type == .boolean ? false : field.isNillable),
            "defaultedOnCreate": .bool(field.isDefaultedOnCreate), "createable": .bool(field.isCreateable),
            "updateable": .bool(field.isUpdateable), "calculated": .bool(field.name == "Name" && !field.isCreateable),
            "autoNumber": .bool(isAutoNumber), "externalId": .bool(field.isExternalID),
            "idLookup": .bool(field.isIDLookup),
            "unique": .bool(field.isUnique), "custom": .bool(field.isCustom), "filterable": true,
            "sortable": .bool(field.type != .textarea), "groupable": .bool(field.type != .textarea),
            "caseSensitive": false, "namePointing": .bool(field.referenceTo.count > 1),
            "referenceTo": .array(field.referenceTo.map { .string($0) }),
            "relationshipName": field.relationshipName.map { .string($0) } ?? .null,
            "relationshipOrder": field.relationshipOrder.map { .integer(Int64($0)) } ?? .null,
            "cascadeDelete": .bool(field.isCascadeDelete), "restrictedDelete": .bool(field.isRestrictedDelete),
            "defaultValue": field.defaultValue ?? .null, "deprecatedAndHidden": false,
            "nameField": .bool(field.name == object.nameField?.name),
            "picklistValues": .array(
                field.picklistValues.map { value in
                    .object([
                        "value": .string(value), "label": .string(value), "active": true,
                        "defaultValue": .bool(field.defaultValue == .string(value)), "validFor": .null,
                    ])
                }
            ),
        ]
        if field.type == .id { json["nillable"] = false }
        return .object(json)
    }
}
