extension OrgSchema {
    /// The built-in standard objects: Account, Contact, Lead, Opportunity, Case, Task, User,
    /// Organization and RecordType, with their usual fields, labels, key prefixes, relationships and
    /// the delete rules of a real org: deleting an Account deletes its Contacts and Opportunities and
    /// is refused while it has Cases or closed-won Opportunities; activities go with their records.
    public static let standard = OrgSchema(objects: [
        account, contact, lead, opportunity, caseObject, task, user, organization, recordType,
    ])

    /// The objects the local org itself needs (record owners, its own record, record types), added
    /// to an exact-mode schema that leaves them out.
    static let systemObjects = [user, organization, recordType]

    /// The fields every object has: `Id`, the audit fields and `IsDeleted`.
    static func systemFields() -> [OrgField] {
        [
            OrgField(
                name: "Id",
                label: "Record ID",
                type: .id,
                isCreateable: false,
                isUpdateable: false,
                isNillable: false,
                isDefaultedOnCreate: true,
                isCustom: false
            ),
            .system("IsDeleted", .boolean),
            .system("CreatedDate", .datetime),
            .system(
                "CreatedById",
                .reference,
                referenceTo: ["User"],
                relationshipName: "CreatedBy",
                label: "Created By ID"
            ),
            .system("LastModifiedDate", .datetime),
            .system(
                "LastModifiedById",
                .reference,
                referenceTo: ["User"],
                relationshipName: "LastModifiedBy",
                label: "Last Modified By ID"
            ),
            .system("SystemModstamp", .datetime),
        ]
    }

    /// `OwnerId`, writable and defaulted to the org's user.
    static func ownerField() -> OrgField {
        OrgField(
            name: "OwnerId",
            label: "Owner ID",
            type: .reference,
            referenceTo: ["User"],
            relationshipName: "Owner",
            isNillable: false,
            isDefaultedOnCreate: true,
            isCustom: false
        )
    }

    /// The fields every custom object gets: system fields, `OwnerId` and `Name`.
    static func customObjectBaseFields() -> [OrgField] {
        systemFields() + [ownerField(), OrgField(name: "Name", type: .string, length: 80, isCustom: false)]
    }

    private static func text(_ name: String, _ length: Int = 255, required: Bool = false) -> OrgField {
        OrgField(name: name, type: .string, length: length, isNillable: !required)
    }

    /// A lookup, labelled as a real org labels it (`AccountId` → `Account ID`).
    private static func lookup(
        _ name: String,
        to targets: [String],
        relationship: String,
        children: String?,
        cascade: Bool = false,
        restricted: Bool = false,
        restrictedWhen: OrgJSONObject? = nil
    ) -> OrgField {
        OrgField(
            name: name,
            label: OrgField.label(for: name) + " ID",
            type: .reference,
            referenceTo: targets,
            relationshipName: relationship,
            childRelationshipName: children,
            isCascadeDelete: cascade,
            isRestrictedDelete: restricted,
            restrictedDeleteWhen: restrictedWhen
        )
    }

    private static func readOnly(_ field: OrgField) -> OrgField {
        var field = field
        field.isCreateable = false
        field.isUpdateable = false
        field.isDefaultedOnCreate = true
        return field
    }

    private static func defaulted(_ field: OrgField, _ value: OrgJSONValue) -> OrgField {
        var field = field
        field.isDefaultedOnCreate = true
        field.isNillable = false
        field.defaultValue = value
        return field
    }

    /// The compound `Name` of a person (`FirstName LastName`), maintained by the server.
    private static func personName() -> OrgField {
        readOnly(OrgField(name: "Name", label: "Full Name", type: .string, length: 121))
    }

    private static let account = OrgObject(
        name: "Account",
        keyPrefix: "001",
        fields: systemFields() + [
            ownerField(),
            OrgField(name: "Name", label: "Account Name", type: .string, length: 255, isNillable: false),
            text("AccountNumber", 40),
            OrgField(name: "Type", label: "Account Type", type: .picklist),
            OrgField(name: "Industry", type: .picklist),
            OrgField(name: "Rating", type: .picklist),
            OrgField(name: "Phone", type: .phone, length: 40),
            OrgField(name: "Fax", type: .phone, length: 40),
            OrgField(name: "Website", type: .url),
            text("Site", 80),
            OrgField(name: "Description", type: .textarea),
            OrgField(name: "NumberOfEmployees", label: "Employees", type: .int),
            OrgField(name: "AnnualRevenue", type: .currency),
            OrgField(name: "BillingStreet", type: .textarea),
            text("BillingCity", 40), text("BillingState", 80), text("BillingPostalCode", 20),
            text("BillingCountry", 80),
            OrgField(name: "ShippingStreet", type: .textarea),
            text("ShippingCity", 40), text("ShippingState", 80), text("ShippingPostalCode", 20),
            text("ShippingCountry", 80),
            lookup("ParentId", to: ["Account"], relationship: "Parent", children: "ChildAccounts"),
        ]
    )

    private static let contact = OrgObject(
        name: "Contact",
        keyPrefix: "003",
        fields: systemFields() + [
            ownerField(),
            lookup("AccountId", to: ["Account"], relationship: "Account", children: "Contacts", cascade: true),
            OrgField(name: "Salutation", type: .picklist, length: 40),
            text("FirstName", 40),
            text("LastName", 80, required: true),
            personName(),
            text("Title", 128),
            text("Department", 80),
            OrgField(name: "Email", type: .email),
            OrgField(name: "Phone", label: "Business Phone", type: .phone, length: 40),
            OrgField(name: "MobilePhone", type: .phone, length: 40),
            OrgField(name: "Birthdate", type: .date),
            OrgField(name: "LeadSource", type: .picklist),
            defaulted(OrgField(name: "HasOptedOutOfEmail", label: "Email Opt Out", type: .boolean), false),
            OrgField(name: "Description", type: .textarea),
            OrgField(name: "MailingStreet", type: .textarea),
            text("MailingCity", 40), text("MailingState", 80), text("MailingPostalCode", 20),
            text("MailingCountry", 80),
            lookup("ReportsToId", to: ["Contact"], relationship: "ReportsTo", children: nil),
        ]
    )

    private static let lead = OrgObject(
        name: "Lead",
        keyPrefix: "00Q",
        fields: systemFields() + [
            ownerField(),
            text("FirstName", 40),
            text("LastName", 80, required: true),
            personName(),
            text("Company", 255, required: true),
            text("Title", 128),
            OrgField(name: "Email", type: .email),
            OrgField(name: "Phone", type: .phone, length: 40),
            defaulted(OrgField(name: "Status", type: .picklist), "Open - Not Contacted"),
            OrgField(name: "Industry", type: .picklist),
            OrgField(name: "LeadSource", type: .picklist),
            OrgField(name: "Rating", type: .picklist),
            OrgField(name: "AnnualRevenue", type: .currency),
            OrgField(name: "NumberOfEmployees", type: .int),
            text("City", 40), text("Country", 80),
            readOnly(defaulted(OrgField(name: "IsConverted", label: "Converted", type: .boolean), false)),
            OrgField(name: "Description", type: .textarea),
        ]
    )

    private static let opportunity = OrgObject(
        name: "Opportunity",
        labelPlural: "Opportunities",
        keyPrefix: "006",
        fields: systemFields() + [
            ownerField(),
            lookup(
                "AccountId",
                to: ["Account"],
                relationship: "Account",
                children: "Opportunities",
                cascade: true,
                restrictedWhen: ["IsWon": true]
            ),
            text("Name", 120, required: true),
            OrgField(
                name: "StageName",
                label: "Stage",
                type: .picklist,
                isNillable: false,
                picklistValues: openStages + closedStages
            ),
            OrgField(name: "CloseDate", type: .date, isNillable: false),
            OrgField(name: "Amount", type: .currency),
            OrgField(name: "Probability", type: .percent),
            OrgField(name: "Type", label: "Opportunity Type", type: .picklist),
            OrgField(name: "LeadSource", type: .picklist),
            readOnly(defaulted(OrgField(name: "IsClosed", label: "Closed", type: .boolean), false)),
            readOnly(defaulted(OrgField(name: "IsWon", label: "Won", type: .boolean), false)),
            OrgField(name: "Description", type: .textarea),
        ]
    )

    private static let caseObject = OrgObject(
        name: "Case",
        keyPrefix: "500",
        fields: systemFields() + [
            ownerField(),
            readOnly(OrgField(name: "CaseNumber", type: .string, length: 30)),
            lookup("AccountId", to: ["Account"], relationship: "Account", children: "Cases", restricted: true),
            lookup("ContactId", to: ["Contact"], relationship: "Contact", children: "Cases"),
            text("Subject"),
            OrgField(name: "Description", type: .textarea),
            defaulted(OrgField(name: "Status", type: .picklist), "New"),
            defaulted(OrgField(name: "Priority", type: .picklist), "Medium"),
            OrgField(name: "Origin", label: "Case Origin", type: .picklist),
            OrgField(name: "Type", label: "Case Type", type: .picklist),
            readOnly(defaulted(OrgField(name: "IsClosed", label: "Closed", type: .boolean), false)),
            readOnly(OrgField(name: "ClosedDate", type: .datetime)),
        ]
    )

    /// The open stages of the standard sales process.
    static let openStages = [
        "Prospecting", "Qualification", "Needs Analysis", "Value Proposition", "Id. Decision Makers",
        "Perception Analysis", "Proposal/Price Quote", "Negotiation/Review",
    ]
    /// The closed stages: `Closed Won` (closed and won) and `Closed Lost`.
    static let closedStages = ["Closed Won", "Closed Lost"]

    private static let task = OrgObject(
        name: "Task",
        keyPrefix: "00T",
        fields: systemFields() + [
            ownerField(),
            lookup("WhoId", to: ["Contact", "Lead"], relationship: "Who", children: "Tasks", cascade: true),
            lookup(
                "WhatId",
                to: ["Account", "Opportunity", "Case"],
                relationship: "What",
                children: "Tasks",
                cascade: true
            ),
            OrgField(name: "Subject", type: .picklist),
            OrgField(name: "ActivityDate", label: "Due Date Only", type: .date),
            defaulted(OrgField(name: "Status", type: .picklist), "Not Started"),
            defaulted(OrgField(name: "Priority", type: .picklist), "Normal"),
            OrgField(name: "Description", type: .textarea),
            readOnly(defaulted(OrgField(name: "IsClosed", label: "Closed", type: .boolean), false)),
        ]
    )

    private static let user = OrgObject(
        name: "User",
        keyPrefix: "005",
        fields: systemFields() + [
            OrgField(name: "Username", type: .string, length: 80, isUnique: true, isNillable: false),
            text("FirstName", 40),
            text("LastName", 80, required: true),
            personName(),
            OrgField(name: "Email", type: .email, isNillable: false),
            text("Alias", 8),
            text("CommunityNickname", 40),
            text("Title", 80),
            OrgField(name: "Phone", type: .phone, length: 40),
            defaulted(OrgField(name: "IsActive", label: "Active", type: .boolean), true),
            defaulted(OrgField(name: "TimeZoneSidKey", label: "Time Zone", type: .picklist, length: 40), "GMT"),
        ]
    )

    private static let organization = OrgObject(
        name: "Organization",
        keyPrefix: "00D",
        isWritable: false,
        fields: systemFields() + [
            text("Name", 80),
            readOnly(defaulted(OrgField(name: "IsSandbox", type: .boolean), false)),
            readOnly(OrgField(name: "OrganizationType", label: "Edition", type: .picklist, length: 40)),
            readOnly(OrgField(name: "InstanceName", type: .string, length: 5)),
            readOnly(OrgField(name: "NamespacePrefix", type: .string, length: 15)),
            text("Country", 80),
            defaulted(OrgField(name: "LanguageLocaleKey", label: "Language", type: .picklist, length: 40), "en_US"),
            defaulted(OrgField(name: "DefaultLocaleSidKey", label: "Locale", type: .picklist, length: 40), "en_US"),
            defaulted(OrgField(name: "TimeZoneSidKey", label: "Time Zone", type: .picklist, length: 40), "GMT"),
        ]
    )
}

extension OrgSchema {
    /// `RecordType`: the record types the schema file declares, one record each, read-only through
    /// the API as record types are metadata on a real org.
    private static let recordType = OrgObject(
        name: "RecordType",
        keyPrefix: "012",
        isWritable: false,
        fields: systemFields() + [
            OrgField(name: "Name", label: "Record Type Label", type: .string, length: 80, isNillable: false),
            OrgField(name: "DeveloperName", label: "Record Type Name", type: .string, length: 80, isNillable: false),
            OrgField(name: "NamespacePrefix", label: "Namespace Prefix", type: .string, length: 15),
            OrgField(name: "Description", type: .string, length: 255),
            OrgField(name: "SobjectType", label: "SObject Type Name", type: .picklist, length: 40, isNillable: false),
            defaulted(OrgField(name: "IsActive", label: "Active", type: .boolean), true),
        ]
    )

    /// The `RecordTypeId` field an object with record types gets.
    static func recordTypeField() -> OrgField {
        OrgField(
            name: "RecordTypeId",
            label: "Record Type ID",
            type: .reference,
            referenceTo: ["RecordType"],
            relationshipName: "RecordType",
            isDefaultedOnCreate: true,
            isCustom: false
        )
    }
}
