/// The typed subset of an sObject describe the runner uses (`GET /sobjects/{Type}/describe`).
public struct SObjectDescription: Sendable, Hashable {
    /// The API name, e.g. `Account`.
    public var name: String
    /// The label.
    public var label: String
    /// The three-character ID prefix, when the object has one.
    public var keyPrefix: String?
    /// Whether it is a custom object.
    public var isCustom: Bool
    /// Whether records can be created, updated, deleted, queried.
    public var isCreateable: Bool
    public var isUpdateable: Bool
    public var isDeletable: Bool
    public var isQueryable: Bool
    /// The fields.
    public var fields: [FieldDescription]
    /// Relationships from child objects that point at this one.
    public var childRelationships: [ChildRelationship]

    /// The field named `name`, compared case-insensitively as Salesforce does.
    public func field(named name: String) -> FieldDescription? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }
    }

    init(_ value: OrgValue) {
        name = value["name"]?.stringValue ?? ""
        label = value["label"]?.stringValue ?? name
        keyPrefix = value["keyPrefix"]?.stringValue
        isCustom = value["custom"]?.boolValue ?? false
        isCreateable = value["createable"]?.boolValue ?? false
        isUpdateable = value["updateable"]?.boolValue ?? false
        isDeletable = value["deletable"]?.boolValue ?? false
        isQueryable = value["queryable"]?.boolValue ?? false
        fields = (value["fields"]?.arrayValue ?? []).map(FieldDescription.init)
        childRelationships = (value["childRelationships"]?.arrayValue ?? []).map(ChildRelationship.init)
    }
}

/// One field of an ``SObjectDescription``.
public struct FieldDescription: Sendable, Hashable {
    /// The API name.
    public var name: String
    /// The Salesforce type: `id`, `string`, `boolean`, `double`, `datetime`, `reference`…
    public var type: String
    /// The label.
    public var label: String
    /// The maximum length of text fields.
    public var length: Int?
    /// Whether `null` is allowed.
    public var isNillable: Bool
    /// Whether the org fills it in on create when it is left out.
    public var isDefaultedOnCreate: Bool
    /// Whether it may go into a create body.
    public var isCreateable: Bool
    /// Whether it may go into an update body.
    public var isUpdateable: Bool
    /// Whether it is a formula (read-only).
    public var isCalculated: Bool
    /// Whether it is an auto-number (read-only).
    public var isAutoNumber: Bool
    /// Whether it is an external ID (a valid upsert key).
    public var isExternalID: Bool
    /// Whether it can identify a record in an upsert (`Id` and external IDs).
    public var isIDLookup: Bool
    /// Whether values must be unique.
    public var isUnique: Bool
    /// Whether it is a custom field.
    public var isCustom: Bool
    /// For lookups: the objects it can point at (several for a polymorphic lookup).
    public var referenceTo: [String]
    /// For lookups: the name used to traverse to the parent (`Account` for `AccountId`).
    public var relationshipName: String?

    /// Whether a create must set it: createable, not nillable and not defaulted.
    public var isRequiredOnCreate: Bool { isCreateable && !isNillable && !isDefaultedOnCreate }

    init(_ value: OrgValue) {
        name = value["name"]?.stringValue ?? ""
        type = value["type"]?.stringValue ?? ""
        label = value["label"]?.stringValue ?? name
        length = value["length"]?.integerValue.map(Int.init)
        isNillable = value["nillable"]?.boolValue ?? false
        isDefaultedOnCreate = value["defaultedOnCreate"]?.boolValue ?? false
        isCreateable = value["createable"]?.boolValue ?? false
        isUpdateable = value["updateable"]?.boolValue ?? false
        isCalculated = value["calculated"]?.boolValue ?? false
        isAutoNumber = value["autoNumber"]?.boolValue ?? false
        isExternalID = value["externalId"]?.boolValue ?? false
        isIDLookup = value["idLookup"]?.boolValue ?? false
        isUnique = value["unique"]?.boolValue ?? false
        isCustom = value["custom"]?.boolValue ?? false
        referenceTo = (value["referenceTo"]?.arrayValue ?? []).compactMap(\.stringValue)
        relationshipName = value["relationshipName"]?.stringValue
    }
}

/// A relationship from a child object, as listed in the parent's describe.
public struct ChildRelationship: Sendable, Hashable {
    /// The child object, e.g. `Contact`.
    public var childSObject: String
    /// The child's lookup field, e.g. `AccountId`.
    public var field: String
    /// The name a subquery's FROM uses, e.g. `Contacts`; `nil` when it cannot be traversed.
    public var relationshipName: String?
    /// Whether deleting the parent deletes the children.
    public var isCascadeDelete: Bool

    init(_ value: OrgValue) {
        childSObject = value["childSObject"]?.stringValue ?? ""
        field = value["field"]?.stringValue ?? ""
        relationshipName = value["relationshipName"]?.stringValue
        isCascadeDelete = value["cascadeDelete"]?.boolValue ?? false
    }
}

/// The org's list of sObjects (`GET /sobjects`).
public struct GlobalDescription: Sendable, Hashable {
    /// The most records the org accepts per collection call, when it says.
    public var maxBatchSize: Int?
    /// One entry per sObject.
    public var objects: [SObjectSummary]

    init(_ value: OrgValue) {
        maxBatchSize = value["maxBatchSize"]?.integerValue.map(Int.init)
        objects = (value["sobjects"]?.arrayValue ?? []).map(SObjectSummary.init)
    }
}

/// One sObject in a ``GlobalDescription``.
public struct SObjectSummary: Sendable, Hashable {
    /// The API name.
    public var name: String
    /// The label.
    public var label: String
    /// The three-character ID prefix, when the object has one.
    public var keyPrefix: String?
    /// Whether it is custom, and what may be done with its records.
    public var isCustom: Bool
    public var isQueryable: Bool
    public var isCreateable: Bool
    public var isUpdateable: Bool
    public var isDeletable: Bool

    init(_ value: OrgValue) {
        name = value["name"]?.stringValue ?? ""
        label = value["label"]?.stringValue ?? name
        keyPrefix = value["keyPrefix"]?.stringValue
        isCustom = value["custom"]?.boolValue ?? false
        isQueryable = value["queryable"]?.boolValue ?? false
        isCreateable = value["createable"]?.boolValue ?? false
        isUpdateable = value["updateable"]?.boolValue ?? false
        isDeletable = value["deletable"]?.boolValue ?? false
    }
}
