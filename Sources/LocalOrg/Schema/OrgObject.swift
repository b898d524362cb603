/// One sObject type of the local org's schema: its names, key prefix and fields.
public struct OrgObject: Sendable, Equatable {
    /// API name (`Account`, `Invoice__c`).
    public var name: String
    /// Singular label.
    public var label: String
    /// Plural label.
    public var labelPlural: String
    /// The three-character ID prefix (`001`, `a01`).
    public var keyPrefix: String
    /// Whether the object is custom.
    public var isCustom: Bool
    /// Whether records can be created through the API (describe's `createable`).
    public var isCreateable: Bool
    /// Whether records can be updated through the API (describe's `updateable`).
    public var isUpdateable: Bool
    /// Whether records can be deleted through the API (describe's `deletable`).
    public var isDeletable: Bool
    /// Whether SOQL may query the object (describe's `queryable`).
    public var isQueryable: Bool
    /// The record types besides the master one, in declaration order.
    public var recordTypes: [OrgRecordType]
    /// Whether records can be merged (describe's `mergeable`: Account, Contact, Lead).
    public var isMergeable = false
    /// Whether records can be cloned with their children (describe's `deepCloneable`: Opportunity).
    public var isDeepCloneable = false
    /// Whether the object has a Chatter feed (describe's `feedEnabled`).
    public var isFeedEnabled = false
    /// Whether the object keeps a recently-viewed list (describe's `mruEnabled`, which
    /// CumulusCI's "set recently viewed" step reads); `nil` follows ``isWritable``.
    public var declaredMRUEnabled: Bool?
    /// Whether the org publishes change events for the object (schema file: `changeDataCapture`,
    /// default `true`: every object is selected for Change Data Capture).
    public var isChangeDataCaptureEnabled = true
    /// The fields in describe order; `Id` first.
    public private(set) var fields: [OrgField]
    private var fieldIndex = NameIndex()

    /// Creates an object. Fields are kept in the given order; lookups ignore case.
    public init(
        name: String,
        label: String? = nil,
        labelPlural: String? = nil,
        keyPrefix: String,
        isCustom: Bool? = nil,
        isWritable: Bool = true,
        fields: [OrgField],
        recordTypes: [OrgRecordType] = []
    ) {
        self.name = name
        let singular = label ?? OrgField.label(for: name)
        self.label = singular
        self.labelPlural =
            labelPlural ?? (singular.hasSuffix("y") ? String(singular.dropLast()) + "ies" : singular + "s")
        self.keyPrefix = keyPrefix
        self.isCustom = isCustom ?? name.hasSuffix("__c")
        self.isCreateable = isWritable
        self.isUpdateable = isWritable
        self.isDeletable = isWritable
        self.isQueryable = true
        self.recordTypes = recordTypes
        self.fields = []
        for field in fields { addOrReplace(field) }
    }

    /// Whether any write is allowed through the API; setting it sets `createable`, `updateable` and
    /// `deletable` together.
    public var isWritable: Bool {
        get { isCreateable || isUpdateable || isDeletable }
        set {
            isCreateable = newValue
            isUpdateable = newValue
            isDeletable = newValue
        }
    }

    /// The record type records created without a `RecordTypeId` get: the one marked default, else
    /// the first active one; `nil` when the object has none.
    public var defaultRecordType: OrgRecordType? {
        recordTypes.first { $0.isDefault && $0.isActive } ?? recordTypes.first { $0.isActive }
    }

    /// The field named `name`, ignoring case.
    public func field(named name: String) -> OrgField? {
        fieldIndex[name].map { fields[$0] }
    }

    /// The lookup field whose relationship name is `name`, ignoring case.
    public func field(forRelationship name: String) -> OrgField? {
        let lowered = name.lowercased()
        return fields.first { $0.relationshipName?.lowercased() == lowered }
    }

    /// Adds a field or replaces the one with the same name.
    public mutating func addOrReplace(_ field: OrgField) {
        fieldIndex.addOrReplace(field, named: field.name, in: &fields)
    }

    /// Removes the field named `name` (ignoring case), if any.
    mutating func remove(fieldNamed name: String) {
        fieldIndex.remove(named: name, from: &fields, nameOf: \.name)
    }

    /// Describe's `mruEnabled`.
    public var isMRUEnabled: Bool { declaredMRUEnabled ?? isWritable }

    /// The field shown as the record's name (`Name`, or `LastName` where there is no `Name`).
    var nameField: OrgField? { field(named: "Name") ?? field(named: "CaseNumber") ?? field(named: "Subject") }

    public static func == (lhs: OrgObject, rhs: OrgObject) -> Bool {
        lhs.name == rhs.name && lhs.label == rhs.label && lhs.labelPlural == rhs.labelPlural
            && lhs.keyPrefix == rhs.keyPrefix && lhs.isCustom == rhs.isCustom && lhs.fields == rhs.fields
            && lhs.isCreateable == rhs.isCreateable && lhs.isUpdateable == rhs.isUpdateable
            && lhs.isDeletable == rhs.isDeletable && lhs.isQueryable == rhs.isQueryable
            && lhs.recordTypes == rhs.recordTypes && lhs.isMergeable == rhs.isMergeable
            && lhs.isDeepCloneable == rhs.isDeepCloneable && lhs.isFeedEnabled == rhs.isFeedEnabled
            && lhs.declaredMRUEnabled == rhs.declaredMRUEnabled
    }
}
