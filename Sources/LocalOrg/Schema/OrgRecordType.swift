/// A record type of an sObject, declared in the schema file (`recordTypes` of an object).
///
/// The org stores each one as a `RecordType` record with an ID of its own ID space (so the same
/// record type has different IDs in two orgs, as on Salesforce), lists it in describe's
/// `recordTypeInfos` and accepts its ID in the object's `RecordTypeId` field.
public struct OrgRecordType: Sendable, Equatable {
    /// The API name (`DeveloperName`), unique per object and namespace.
    public var developerName: String
    /// The label (`Name`).
    public var name: String
    /// Whether records may be given this record type.
    public var isActive: Bool
    /// Whether records created without a `RecordTypeId` get this one (`defaultRecordTypeMapping`).
    public var isDefault: Bool
    /// The namespace of a packaged record type, or `nil`.
    public var namespacePrefix: String?
    /// A description, or `nil`.
    public var description: String?

    /// Creates a record type; the label defaults to the developer name.
    public init(
        developerName: String,
        name: String? = nil,
        isActive: Bool = true,
        isDefault: Bool = false,
        namespacePrefix: String? = nil,
        description: String? = nil
    ) {
        self.developerName = developerName
        self.name = name ?? developerName
        self.isActive = isActive
        self.isDefault = isDefault
        self.namespacePrefix = namespacePrefix
        self.description = description
    }

    /// The ID every object's master record type has on every org (describe lists it last).
    public static let masterID = "012000000000000AAA"
}
