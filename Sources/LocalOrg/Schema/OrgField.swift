/// One field of an sObject in the local org's schema.
///
/// The flags mirror describe (salesforce-rest.md §7.2). A field is required on create when it is
/// createable, not nillable and not defaulted on create.
public struct OrgField: Sendable, Equatable {
    /// API name, e.g. `AccountId`, `Parent__c`.
    public var name: String
    /// Label shown in describe.
    public var label: String
    /// Type.
    public var type: OrgFieldType
    /// Maximum text length (0 for non-text types).
    public var length: Int
    /// For lookups: the objects the field may point to (more than one = polymorphic).
    public var referenceTo: [String]
    /// For lookups: the parent relationship name used in SOQL paths (`Account`, `Parent__r`).
    public var relationshipName: String?
    /// For lookups: the child relationship name on the parent (`Contacts`), if subqueries may use it.
    public var childRelationshipName: String?
    /// For master-detail fields: `0` (the first master) or `1` (the second); `nil` for lookups.
    public var relationshipOrder: Int?
    /// For lookups: deleting the parent deletes the records that point at it through this field.
    public var isCascadeDelete: Bool
    /// For lookups: a parent cannot be deleted while a live record points at it through this field.
    public var isRestrictedDelete: Bool
    /// For cascading lookups: field values (API name → value) of the records that block the parent's
    /// delete instead of being deleted with it (a closed-won Opportunity: `["IsWon": true]`).
    public var restrictedDeleteWhen: OrgJSONObject?
    /// Whether the field is an external ID (an upsert key).
    public var isExternalID: Bool
    /// Whether values must be unique among live records.
    public var isUnique: Bool
    /// Whether create bodies may set the field.
    public var isCreateable: Bool
    /// Whether update bodies may set the field.
    public var isUpdateable: Bool
    /// Whether the field may be empty.
    public var isNillable: Bool
    /// Whether the server fills the field on create when the body omits it.
    public var isDefaultedOnCreate: Bool
    /// Whether the field is custom (`__c`).
    public var isCustom: Bool
    /// Picklist values (describe's `picklistValues`); not enforced.
    public var picklistValues: [String]
    /// The value the server stores on create when the body omits the field.
    public var defaultValue: OrgJSONValue?
    /// Describe's `idLookup` as Salesforce's object reference gives it for a standard field
    /// (`Contact.Email`, `Opportunity.Name`, `Case.CaseNumber`); `nil` follows the rule of
    /// ``isIDLookup``.
    public var declaredIDLookup: Bool?
    /// For a component of a compound field: the compound's name (`BillingAddress`, `Name`).
    public var compoundFieldName: String?
    /// Describe's `extraTypeInfo` (`plaintextarea`, `personname`, `switchablepersonname`).
    public var extraTypeInfo: String?
    /// Describe's `digits` (integers), `precision` and `scale` (decimals); `nil` takes the
    /// type's default.
    public var digits: Int?
    /// See ``digits``.
    public var precision: Int?
    /// See ``digits``.
    public var scale: Int?
    /// Whether the server numbers the field itself (`Case.CaseNumber`).
    public var isAutoNumber: Bool = false
    /// Whether values outside ``picklistValues`` are refused (describe's `restrictedPicklist`).
    public var isRestrictedPicklist: Bool = false
    /// Describe's `permissionable` (whether field-level security applies); `nil` derives it.
    public var declaredPermissionable: Bool?

    /// Creates a field; defaults describe an optional, writable standard field.
    public init(
        name: String,
        label: String? = nil,
        type: OrgFieldType,
        length: Int? = nil,
        referenceTo: [String] = [],
        relationshipName: String? = nil,
        childRelationshipName: String? = nil,
        relationshipOrder: Int? = nil,
        isCascadeDelete: Bool? = nil,
        isRestrictedDelete: Bool = false,
        restrictedDeleteWhen: OrgJSONObject? = nil,
        isExternalID: Bool = false,
        isUnique: Bool = false,
        isCreateable: Bool = true,
        isUpdateable: Bool = true,
        isNillable: Bool = true,
        isDefaultedOnCreate: Bool = false,
        isCustom: Bool? = nil,
        picklistValues: [String] = [],
        defaultValue: OrgJSONValue? = nil
    ) {
        self.name = name
        self.label = label ?? OrgField.label(for: name)
        self.type = type
        self.length = length ?? type.defaultLength
        self.referenceTo = referenceTo
        self.relationshipName = relationshipName
        self.childRelationshipName = childRelationshipName
        self.relationshipOrder = relationshipOrder
        self.isCascadeDelete = isCascadeDelete ?? (relationshipOrder != nil)
        self.isRestrictedDelete = isRestrictedDelete
        self.restrictedDeleteWhen = restrictedDeleteWhen
        self.isExternalID = isExternalID
        self.isUnique = isUnique
        self.isCreateable = isCreateable
        self.isUpdateable = isUpdateable
        self.isNillable = isNillable
        self.isDefaultedOnCreate = isDefaultedOnCreate
        self.isCustom = isCustom ?? name.hasSuffix("__c")
        self.picklistValues = picklistValues
        self.defaultValue = defaultValue
    }

    /// Whether the field is the detail side of a master-detail relationship.
    public var isMasterDetail: Bool { type == .reference && relationshipOrder != nil }

    /// Whether SOQL may filter on the field (describe's `filterable`): every field but a long
    /// text area (more than 255 characters), as on a real org.
    public var isFilterable: Bool {
        !(type == .textarea && length > 255) && ![.base64, .encryptedString, .anyType, .json].contains(type)
    }

    /// Whether SOQL may sort on the field (describe's `sortable`): not compound fields either (the
    /// recorded Contact describe's `OtherAddress` is filterable, not sortable or groupable).
    public var isSortable: Bool { isFilterable && !type.isCompound }

    /// Whether SOQL may group by the field (describe's `groupable`): not date-times, currency,
    /// percent, double or auto-numbers either.
    public var isGroupable: Bool {
        isSortable && !isAutoNumber && ![.datetime, .currency, .percent, .double, .time].contains(type)
    }

    /// Describe's `permissionable`: whether field-level security applies (optional, writable
    /// fields; not required, system or person-name fields).
    public var isPermissionable: Bool {
        declaredPermissionable
            ?? ((isNillable || (type == .boolean && isUpdateable)) && isCreateable
                && (extraTypeInfo ?? (type == .textarea ? "plaintextarea" : nil)) != "personname")
    }

    /// Whether a create body must give a value.
    public var isRequiredOnCreate: Bool { isCreateable && !isNillable && !isDefaultedOnCreate }

    /// A read-only system field maintained by the server.
    static func system(
        _ name: String,
        _ type: OrgFieldType,
        referenceTo: [String] = [],
        relationshipName: String? = nil,
        label: String? = nil
    ) -> OrgField {
        OrgField(
            name: name,
            label: label,
            type: type,
            referenceTo: referenceTo,
            relationshipName: relationshipName,
            isCreateable: false,
            isUpdateable: false,
            isNillable: false,
            isDefaultedOnCreate: true,
            isCustom: false
        )
    }

    /// A label from an API name: `LastModifiedDate` → `Last Modified Date`, `Region__c` → `Region`.
    static func label(for name: String) -> String {
        var base = name
        for suffix in ["__c", "__r"] where base.hasSuffix(suffix) { base.removeLast(3) }
        if base.hasSuffix("Id"), base.count > 2 { base.removeLast(2) }
        var label = ""
        var previous: Character?
        for character in base {
            if character == "_" {
                label.append(" ")
            } else {
                if character.isUppercase, let previous, previous.isLowercase { label.append(" ") }
                label.append(character)
            }
            previous = character
        }
        return label
    }
}
