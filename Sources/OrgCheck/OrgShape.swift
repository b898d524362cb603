import Foundation
import JSONCore

/// The shape of an org as far as a sync config cares: its objects, their fields, child
/// relationships and record types, with the describe properties `org check` reads.
public struct OrgShape: Sendable, Hashable {
    /// The objects, in the order they were added.
    public private(set) var objects: [ObjectShape]

    /// Creates a shape.
    public init(objects: [ObjectShape] = []) {
        self.objects = []
        objects.forEach { add($0) }
    }

    /// The object named `name`, compared case-insensitively as Salesforce does.
    public func object(named name: String) -> ObjectShape? {
        let lowered = name.lowercased()
        return objects.first { $0.name.lowercased() == lowered }
    }

    /// Adds an object, replacing one of the same name.
    public mutating func add(_ object: ObjectShape) {
        let lowered = object.name.lowercased()
        if let index = objects.firstIndex(where: { $0.name.lowercased() == lowered }) {
            objects[index] = object
        } else {
            objects.append(object)
        }
    }
}

/// One sObject of an ``OrgShape``.
public struct ObjectShape: Sendable, Hashable {
    public var name: String
    public var label: String
    public var labelPlural: String
    public var keyPrefix: String?
    public var isCustom: Bool
    public var isQueryable: Bool
    public var isCreateable: Bool
    public var isUpdateable: Bool
    public var isDeletable: Bool
    public var fields: [FieldShape]
    public var childRelationships: [ChildRelationshipShape]
    public var recordTypes: [RecordTypeShape]

    /// The field named `name`, compared case-insensitively.
    public func field(named name: String) -> FieldShape? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }
    }

    /// The reference field whose `relationshipName` is `name` (case-insensitive).
    public func field(relationshipName name: String) -> FieldShape? {
        let lowered = name.lowercased()
        return fields.first { $0.relationshipName?.lowercased() == lowered }
    }
}

/// One field of an ``ObjectShape``, with the describe properties.
public struct FieldShape: Sendable, Hashable {
    public var name: String
    public var label: String
    public var type: String
    public var length: Int
    public var isCreateable: Bool
    public var isUpdateable: Bool
    public var isNillable: Bool
    public var isDefaultedOnCreate: Bool
    public var defaultValue: JSONValue?
    public var isExternalID: Bool
    public var isIDLookup: Bool
    public var isUnique: Bool
    public var isCustom: Bool
    public var referenceTo: [String]
    public var relationshipName: String?
    public var relationshipOrder: Int?
    public var isCascadeDelete: Bool
    public var isRestrictedDelete: Bool
    public var picklistValues: [String]

    /// Whether a create must set it: createable, not nillable, not defaulted, no default value.
    public var isRequiredOnCreate: Bool {
        isCreateable && !isNillable && !isDefaultedOnCreate && (defaultValue == nil || defaultValue == .null)
    }
}

/// A relationship from a child object to an ``ObjectShape`` (describe `childRelationships`).
public struct ChildRelationshipShape: Sendable, Hashable {
    public var childObject: String
    public var field: String
    public var relationshipName: String?
    public var isCascadeDelete: Bool
    public var isRestrictedDelete: Bool
}

/// A record type of an ``ObjectShape`` (describe `recordTypeInfos`, the master one left out).
public struct RecordTypeShape: Sendable, Hashable {
    public var developerName: String
    public var name: String
    public var isActive: Bool
    public var isDefault: Bool
    /// The org's id of the record type (differs between orgs; never written to schema files).
    public var recordTypeID: String?
}

/// A describe document that is not JSON or lacks the object's name.
public struct OrgShapeError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension ObjectShape {
    /// Decodes the sObject describe (`GET /sobjects/{Type}/describe`) as Salesforce and the local
    /// org return it.
    ///
    /// - Throws: ``OrgShapeError`` when `data` is not JSON or has no `name`.
    public init(describeJSON data: Data, source: String) throws {
        let value: JSONValue
        do {
            value = try data.withUnsafeBytes { raw throws(JSONSyntaxError) -> JSONValue in
                var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self))
                return try reader.readDocument()
            }
        } catch {
            throw OrgShapeError(message: "\(source): the describe is not valid JSON: \(error)")
        }
        try self.init(describe: value, source: source)
    }

    /// Decodes a parsed sObject describe.
    ///
    /// - Throws: ``OrgShapeError`` when it has no `name`.
    public init(describe value: JSONValue, source: String) throws {
        guard let name = value["name"]?.stringValue, !name.isEmpty else {
            throw OrgShapeError(message: "\(source): the describe has no 'name'")
        }
        self.name = name
        label = value["label"]?.stringValue ?? name
        labelPlural = value["labelPlural"]?.stringValue ?? label
        keyPrefix = value["keyPrefix"]?.stringValue
        isCustom = value["custom"]?.boolValue ?? name.hasSuffix("__c")
        isQueryable = value["queryable"]?.boolValue ?? false
        isCreateable = value["createable"]?.boolValue ?? false
        isUpdateable = value["updateable"]?.boolValue ?? false
        isDeletable = value["deletable"]?.boolValue ?? false
        fields = (value["fields"]?.arrayValue ?? []).compactMap(FieldShape.init(describe:))
        childRelationships = (value["childRelationships"]?.arrayValue ?? []).compactMap { item in
            guard let child = item["childSObject"]?.stringValue, let field = item["field"]?.stringValue else {
                return nil
            }
            return ChildRelationshipShape(
                childObject: child,
                field: field,
                relationshipName: item["relationshipName"]?.stringValue,
                isCascadeDelete: item["cascadeDelete"]?.boolValue ?? false,
                isRestrictedDelete: item["restrictedDelete"]?.boolValue ?? false
            )
        }
        recordTypes = (value["recordTypeInfos"]?.arrayValue ?? []).compactMap { info in
            guard info["master"]?.boolValue != true, let developerName = info["developerName"]?.stringValue else {
                return nil
            }
            return RecordTypeShape(
                developerName: developerName,
                name: info["name"]?.stringValue ?? developerName,
                isActive: info["active"]?.boolValue ?? true,
                isDefault: info["defaultRecordTypeMapping"]?.boolValue ?? false,
                recordTypeID: info["recordTypeId"]?.stringValue
            )
        }
    }
}

extension FieldShape {
    init?(describe value: JSONValue) {
        guard let name = value["name"]?.stringValue else { return nil }
        self.name = name
        label = value["label"]?.stringValue ?? name
        type = value["type"]?.stringValue ?? "string"
        length = Int(value["length"]?.integerValue ?? 0)
        isCreateable = value["createable"]?.boolValue ?? false
        isUpdateable = value["updateable"]?.boolValue ?? false
        isNillable = value["nillable"]?.boolValue ?? true
        isDefaultedOnCreate = value["defaultedOnCreate"]?.boolValue ?? false
        defaultValue = value["defaultValue"].flatMap { $0.isNull ? nil : $0 }
        isExternalID = value["externalId"]?.boolValue ?? false
        isIDLookup = value["idLookup"]?.boolValue ?? false
        isUnique = value["unique"]?.boolValue ?? false
        isCustom = value["custom"]?.boolValue ?? name.hasSuffix("__c")
        referenceTo = (value["referenceTo"]?.arrayValue ?? []).compactMap(\.stringValue)
        relationshipName = value["relationshipName"]?.stringValue
        relationshipOrder = value["relationshipOrder"]?.integerValue.map { Int($0) }
        isCascadeDelete = value["cascadeDelete"]?.boolValue ?? false
        isRestrictedDelete = value["restrictedDelete"]?.boolValue ?? false
        picklistValues = (value["picklistValues"]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }
    }
}
