extension OrgSchema {
    /// The built-in standard objects: Account, Contact, Lead, Opportunity, Case, Task, Event, User,
    /// Group (queues and public groups), QueueSobject (the objects a queue may own), Organization
    /// and RecordType, with their usual fields, labels, key prefixes, relationships and
    /// the delete rules of a real org: deleting an Account deletes its Contacts and Opportunities and
    /// is refused while it has Cases or closed-won Opportunities; activities go with their records.
    public static let standard = OrgSchema(objects: [
        account, contact, lead, opportunity, caseObject, task, event, user, group, queueSobject, organization,
        recordType,
    ])

    /// The objects the local org itself needs (record owners, its own record, record types), added
    /// to an exact-mode schema that leaves them out.
    static let systemObjects = [user, organization, recordType]

    /// The fields every object has: `Id`, the audit fields and `IsDeleted`.
    static func systemFields(idLabel: String = "Record ID") -> [OrgField] {
        [
            OrgField(
                name: "Id",
                label: idLabel,
                type: .id,
                isCreateable: false,
                isUpdateable: false,
                isNillable: false,
                isDefaultedOnCreate: true,
                isCustom: false
            ),
            {
                var field = OrgField.system("IsDeleted", .boolean, label: "Deleted")
                field.defaultValue = false
                return field
            }(),
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

    /// The owners real describes list that a schema may leave out (`Group`: queues, in an
    /// exact-mode schema without it).
    static let unservedOwners: Set<String> = ["Group"]

    /// `OwnerId`, writable and defaulted to the org's user. Objects whose records queues may own
    /// (Lead, Case, Task) point it at `[Group, User]`, as real describes do: a queue (a `Group` of
    /// type `Queue`) may own them, and `Owner.` paths reach either (the polymorphic `Name` fields).
    static func ownerField(queues: Bool = false) -> OrgField {
        OrgField(
            name: "OwnerId",
            label: "Owner ID",
            type: .reference,
            referenceTo: queues ? ["Group", "User"] : ["User"],
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

    private static func text(_ name: String, _ length: Int = 255, label: String? = nil, required: Bool = false)
        -> OrgField
    {
        OrgField(name: name, label: label, type: .string, length: length, isNillable: !required)
    }

    /// A lookup, labelled as a real org labels it (`AccountId` → `Account ID`).
    private static func lookup(
        _ name: String,
        label: String? = nil,
        to targets: [String],
        relationship: String,
        children: String?,
        cascade: Bool = false,
        restricted: Bool = false,
        restrictedWhen: OrgJSONObject? = nil
    ) -> OrgField {
        OrgField(
            name: name,
            label: label ?? OrgField.label(for: name) + " ID",
            type: .reference,
            referenceTo: targets,
            relationshipName: relationship,
            childRelationshipName: children,
            isCascadeDelete: cascade,
            isRestrictedDelete: restricted,
            restrictedDeleteWhen: restrictedWhen
        )
    }

    /// `item` with `change` made to it: what the field and object modifiers below do.
    private static func changed<Item>(_ item: Item, _ change: (inout Item) -> Void) -> Item {
        var item = item
        change(&item)
        return item
    }

    private static func readOnly(_ field: OrgField) -> OrgField {
        changed(field) {
            $0.isCreateable = false
            $0.isUpdateable = false
            $0.isDefaultedOnCreate = true
        }
    }

    /// A field defaulted on create that cannot be cleared (`Opportunity.Probability`…).
    private static func defaulted(_ field: OrgField, _ value: OrgJSONValue) -> OrgField {
        changed(optionalDefaulted(field, value)) { $0.isNillable = false }
    }

    /// The compound `Name` of a person (`FirstName LastName`), maintained by the server.
    private static func personName() -> OrgField {
        var field = OrgField(name: "Name", label: "Full Name", type: .string, length: 121, isNillable: false)
        field.isCreateable = false
        field.isUpdateable = false
        field.extraTypeInfo = "personname"
        return field
    }

    /// A component of a person's compound `Name` (`FirstName`, `LastName`, `Salutation`).
    private static func nameComponent(_ field: OrgField) -> OrgField {
        changed(field) {
            $0.compoundFieldName = "Name"
            $0.extraTypeInfo = "personname"
        }
    }

    /// The components of an address compound field (`BillingAddress` from `Billing`), labelled
    /// and sized as real describes give them.
    private static func address(_ prefix: String, compound: String? = nil, label: String? = nil) -> [OrgField] {
        let labelPrefix = label ?? (prefix.isEmpty ? "" : prefix + " ")
        let parts: [(String, String, OrgFieldType, Int)] = [
            ("Street", "Street", .textarea, 255), ("City", "City", .string, 40),
            ("State", "State/Province", .string, 80), ("PostalCode", "Zip/Postal Code", .string, 20),
            ("Country", "Country", .string, 80),
        ]
        return parts.map { name, partLabel, type, length in
            var field = OrgField(name: prefix + name, label: labelPrefix + partLabel, type: type, length: length)
            field.compoundFieldName = compound ?? prefix + "Address"
            return field
        }
    }

    /// A field upserts may match records by (describe's `idLookup`).
    private static func idLookup(_ field: OrgField) -> OrgField {
        changed(field) { $0.declaredIDLookup = true }
    }

    /// A number field with describe's `digits` or `precision`/`scale`.
    private static func number(
        _ name: String,
        label: String? = nil,
        _ type: OrgFieldType,
        digits: Int? = nil,
        precision: Int? = nil,
        scale: Int? = nil
    ) -> OrgField {
        var field = OrgField(name: name, label: label, type: type)
        field.digits = digits
        field.precision = precision
        field.scale = scale
        return field
    }

    /// A long text area (32,000 characters): neither filterable, sortable nor groupable.
    private static func longText(_ label: String = "Description") -> OrgField {
        OrgField(name: "Description", label: label, type: .textarea, length: 32000)
    }

    /// The fields and describe values of the standard objects follow Salesforce's object reference
    /// and real describes recorded in CumulusCI's shared cassettes (kept in
    /// `Tests/Fixtures/describes`, sources in its README).
    private static let account = standardObject(
        OrgObject(
            name: "Account",
            keyPrefix: "001",
            fields: systemFields(idLabel: "Account ID") + [
                ownerField(),
                {
                    var field = OrgField(
                        name: "Name",
                        label: "Account Name",
                        type: .string,
                        length: 255,
                        isNillable: false
                    )
                    field.extraTypeInfo = "switchablepersonname"
                    field.compoundFieldName = "Name"
                    return field
                }(),
                text("AccountNumber", 40, label: "Account Number"),
                OrgField(name: "Type", label: "Account Type", type: .picklist, length: 40),
                OrgField(name: "Industry", type: .picklist, length: 40),
                OrgField(name: "Rating", label: "Account Rating", type: .picklist, length: 40),
                OrgField(name: "Phone", label: "Account Phone", type: .phone, length: 40),
                OrgField(name: "Fax", label: "Account Fax", type: .phone, length: 40),
                OrgField(name: "Website", type: .url),
                text("Site", 80, label: "Account Site"),
                longText("Account Description"),
                number("NumberOfEmployees", label: "Employees", .int, digits: 8),
                number("AnnualRevenue", .currency, precision: 18, scale: 0),
            ] + address("Billing") + address("Shipping") + [
                lookup(
                    "ParentId",
                    label: "Parent Account ID",
                    to: ["Account"],
                    relationship: "Parent",
                    children: "ChildAccounts"
                )
            ]
        ),
        mergeable: true
    )

    private static let contact = standardObject(
        OrgObject(
            name: "Contact",
            keyPrefix: "003",
            fields: systemFields(idLabel: "Contact ID") + [
                ownerField(),
                lookup("AccountId", to: ["Account"], relationship: "Account", children: "Contacts", cascade: true),
                nameComponent(OrgField(name: "Salutation", type: .picklist, length: 40)),
                nameComponent(text("FirstName", 40)),
                nameComponent(text("LastName", 80, required: true)),
                personName(),
                text("Title", 128),
                text("Department", 80),
                idLookup(OrgField(name: "Email", type: .email)),
                OrgField(name: "Phone", label: "Business Phone", type: .phone, length: 40),
                OrgField(name: "MobilePhone", type: .phone, length: 40),
                OrgField(name: "Birthdate", type: .date),
                OrgField(name: "LeadSource", type: .picklist),
                defaulted(OrgField(name: "HasOptedOutOfEmail", label: "Email Opt Out", type: .boolean), false),
                longText("Contact Description"),
            ] + address("Mailing") + [
                lookup("ReportsToId", to: ["Contact"], relationship: "ReportsTo", children: nil)
            ]
        ),
        mergeable: true
    )

    private static let lead = standardObject(
        OrgObject(
            name: "Lead",
            keyPrefix: "00Q",
            fields: systemFields(idLabel: "Lead ID") + [
                ownerField(queues: true),
                nameComponent(text("FirstName", 40)),
                nameComponent(text("LastName", 80, required: true)),
                personName(),
                text("Company", 255, required: true),
                text("Title", 128),
                idLookup(OrgField(name: "Email", type: .email)),
                OrgField(name: "Phone", type: .phone, length: 40),
                defaulted(OrgField(name: "Status", type: .picklist), "Open - Not Contacted"),
                OrgField(name: "Industry", type: .picklist),
                OrgField(name: "LeadSource", type: .picklist),
                OrgField(name: "Rating", type: .picklist),
                number("AnnualRevenue", .currency, precision: 18, scale: 0),
                number("NumberOfEmployees", label: "Employees", .int, digits: 8),
            ] + address("", compound: "Address").filter { ["City", "Country"].contains($0.name) } + [
                {
                    var field = defaulted(OrgField(name: "IsConverted", label: "Converted", type: .boolean), false)
                    field.isUpdateable = false
                    return field
                }(),
                longText(),
            ]
        ),
        mergeable: true
    )

    private static let opportunity = standardObject(
        OrgObject(
            name: "Opportunity",
            labelPlural: "Opportunities",
            keyPrefix: "006",
            fields: systemFields(idLabel: "Opportunity ID") + [
                ownerField(),
                lookup(
                    "AccountId",
                    to: ["Account"],
                    relationship: "Account",
                    children: "Opportunities",
                    cascade: true,
                    restrictedWhen: ["IsWon": true]
                ),
                idLookup(text("Name", 120, required: true)),
                OrgField(
                    name: "StageName",
                    label: "Stage",
                    type: .picklist,
                    isNillable: false,
                    picklistValues: openStages + closedStages
                ),
                OrgField(name: "CloseDate", type: .date, isNillable: false),
                number("Amount", .currency, precision: 18, scale: 2),
                {
                    var field = number("Probability", label: "Probability (%)", .percent, precision: 3, scale: 0)
                    field.isDefaultedOnCreate = true
                    return field
                }(),
                OrgField(name: "Type", label: "Opportunity Type", type: .picklist),
                OrgField(name: "LeadSource", type: .picklist),
                readOnly(defaulted(OrgField(name: "IsClosed", label: "Closed", type: .boolean), false)),
                readOnly(defaulted(OrgField(name: "IsWon", label: "Won", type: .boolean), false)),
                longText(),
            ]
        ),
        deepCloneable: true
    )

    private static let caseObject = standardObject(
        OrgObject(
            name: "Case",
            keyPrefix: "500",
            fields: systemFields(idLabel: "Case ID") + [
                ownerField(queues: true),
                {
                    var field = idLookup(readOnly(OrgField(name: "CaseNumber", type: .string, length: 30)))
                    field.isNillable = false
                    field.isAutoNumber = true
                    return field
                }(),
                lookup("AccountId", to: ["Account"], relationship: "Account", children: "Cases", restricted: true),
                lookup("ContactId", to: ["Contact"], relationship: "Contact", children: "Cases", restricted: true),
                text("Subject"),
                longText(),
                {
                    var field = optionalDefaulted(OrgField(name: "Status", type: .picklist, length: 40), "New")
                    field.declaredPermissionable = false
                    return field
                }(),
                optionalDefaulted(OrgField(name: "Priority", type: .picklist, length: 40), "Medium"),
                OrgField(name: "Origin", label: "Case Origin", type: .picklist, length: 40),
                OrgField(name: "Type", label: "Case Type", type: .picklist, length: 40),
                readOnly(defaulted(OrgField(name: "IsClosed", label: "Closed", type: .boolean), false)),
                {
                    var field = OrgField(name: "ClosedDate", type: .datetime, isCreateable: false, isUpdateable: false)
                    field.declaredPermissionable = true
                    return field
                }(),
            ]
        )
    )

    /// A standard object with the describe values real orgs give the sales and service objects:
    /// a feed, a recently-viewed list.
    private static func standardObject(
        _ object: OrgObject,
        mergeable: Bool = false,
        deepCloneable: Bool = false
    ) -> OrgObject {
        changed(object) {
            $0.isFeedEnabled = true
            $0.declaredMRUEnabled = true
            $0.isMergeable = mergeable
            $0.isDeepCloneable = deepCloneable
        }
    }

    /// A picklist defaulted on create that may still be cleared (`Case.Status`, `Case.Priority`).
    private static func optionalDefaulted(_ field: OrgField, _ value: OrgJSONValue) -> OrgField {
        changed(field) {
            $0.isDefaultedOnCreate = true
            $0.defaultValue = value
        }
    }

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
            ownerField(queues: true),
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
            longText(),
            readOnly(defaulted(OrgField(name: "IsClosed", label: "Closed", type: .boolean), false)),
        ]
    )

    /// Event: the calendar activity, with Task's polymorphic `WhoId` and `WhatId` (the `What`
    /// types the local org serves) and `Events` child relationships, as the recorded describe.
    private static let event = standardObject(
        OrgObject(
            name: "Event",
            keyPrefix: "00U",
            fields: systemFields() + [
                ownerField(),
                lookup("WhoId", to: ["Contact", "Lead"], relationship: "Who", children: "Events", cascade: true),
                lookup(
                    "WhatId",
                    to: ["Account", "Opportunity", "Case"],
                    relationship: "What",
                    children: "Events",
                    cascade: true
                ),
                OrgField(name: "Subject", type: .picklist),
                OrgField(name: "StartDateTime", label: "Start Date Time", type: .datetime),
                OrgField(name: "EndDateTime", label: "End Date Time", type: .datetime),
                OrgField(name: "Location", type: .string, length: 255),
                longText(),
            ]
        ),
        mergeable: true
    )

    /// Group: queues (`Type` `Queue`) and public groups (`Regular`); a queue is matched across orgs
    /// by its `DeveloperName`.
    private static let group = OrgObject(
        name: "Group",
        keyPrefix: "00G",
        fields: systemFields(idLabel: "Group ID") + [
            OrgField(name: "Name", type: .string, length: 40, isNillable: false),
            idLookup(OrgField(name: "DeveloperName", label: "Developer Name", type: .string, length: 80)),
            defaulted(OrgField(name: "Type", type: .picklist, length: 40), "Regular"),
            OrgField(name: "Email", type: .email, length: 255),
        ]
    )

    /// QueueSobject: one row per object a queue may own records of.
    private static let queueSobject = OrgObject(
        name: "QueueSobject",
        keyPrefix: "03g",
        fields: systemFields(idLabel: "Queue Sobject ID") + [
            {
                var field = lookup("QueueId", label: "Group ID", to: ["Group"], relationship: "Queue", children: nil)
                field.isNillable = false
                return field
            }(),
            OrgField(name: "SobjectType", label: "Sobject Type", type: .picklist, length: 40, isNillable: false),
        ]
    )

    /// User: records are deactivated, never deleted (describe's `deletable: false`).
    private static let user: OrgObject = {
        var user = standardObject(
            OrgObject(
                name: "User",
                keyPrefix: "005",
                fields: systemFields(idLabel: "User ID") + [
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
        )
        user.isDeletable = false
        return user
    }()

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
