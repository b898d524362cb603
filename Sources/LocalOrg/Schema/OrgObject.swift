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
    /// Whether records can be created, updated and deleted through the API.
    public var isWritable: Bool
    /// The fields in describe order; `Id` first.
    public private(set) var fields: [OrgField]
    private var fieldIndex: [String: Int]

    /// Creates an object. Fields are kept in the given order; lookups ignore case.
    public init(
        name: String, label: String? = nil, labelPlural: String? = nil, keyPrefix: String, isCustom: Bool? = nil,
        isWritable: Bool = true, fields: [OrgField]
    ) {
        self.name = name
        let singular = label ?? OrgField.label(for: name)
        self.label = singular
        self.labelPlural = labelPlural ?? (singular.hasSuffix("y") ? String(singular.dropLast()) + "ies" : singular + "s")
        self.keyPrefix = keyPrefix
        self.isCustom = isCustom ?? name.hasSuffix("__c")
        self.isWritable = isWritable
        self.fields = []
        self.fieldIndex = [:]
        for field in fields { addOrReplace(field) }
    }

    /// The field named `name`, ignoring case.
    public func field(named name: String) -> OrgField? {
        fieldIndex[name.lowercased()].map { fields[$0] }
    }

    /// The lookup field whose relationship name is `name`, ignoring case.
    public func field(forRelationship name: String) -> OrgField? {
        let lowered = name.lowercased()
        return fields.first { $0.relationshipName?.lowercased() == lowered }
    }

    /// Adds a field or replaces the one with the same name.
    public mutating func addOrReplace(_ field: OrgField) {
        if let index = fieldIndex[field.name.lowercased()] {
            fields[index] = field
        } else {
            fieldIndex[field.name.lowercased()] = fields.count
            fields.append(field)
        }
    }

    /// The field shown as the record's name (`Name`, or `LastName` where there is no `Name`).
    var nameField: OrgField? { field(named: "Name") ?? field(named: "Subject") ?? field(named: "CaseNumber") }

    public static func == (lhs: OrgObject, rhs: OrgObject) -> Bool {
        lhs.name == rhs.name && lhs.label == rhs.label && lhs.labelPlural == rhs.labelPlural
            && lhs.keyPrefix == rhs.keyPrefix && lhs.isCustom == rhs.isCustom && lhs.fields == rhs.fields
    }
}
