/// The sObject types of a local org: the built-in standard objects plus custom objects and fields from
/// a schema file (see `OrgSchema+File.swift`).
///
/// ```swift
/// var schema = OrgSchema.standard
/// try schema.merge(contentsOf: URL(fileURLWithPath: "schema.json"))
/// let database = try OrgDatabase(directory: dataDirectory, schema: schema)
/// ```
public struct OrgSchema: Sendable, Equatable {
    /// The objects in definition order.
    public private(set) var objects: [OrgObject]
    private var objectIndex = NameIndex()
    /// The briefcases the priming-records API serves, in order (none by default).
    public var briefcases: [OrgBriefcase]
    /// The custom JSON endpoints the org serves below `/services/apexrest/` (none by default).
    public var endpoints: [OrgCustomEndpoint] = []
    /// Record layouts served as declared by the UI API (none by default: layouts are derived).
    public var layouts: [OrgDeclaredLayout] = []
    /// The profiles restricted users are given (none by default; see ``OrgUser``).
    public var profiles: [OrgPermissionSet] = []
    /// The permission sets restricted users are given (none by default).
    public var permissionSets: [OrgPermissionSet] = []
    /// The restricted users a token may act as (none by default: every token acts as the org's
    /// all-powerful user).
    public var users: [OrgUser] = []

    /// The declared user named `username` (usernames compare ignoring case, as Salesforce's do).
    public func user(named username: String) -> OrgUser? {
        let lowered = username.lowercased()
        return users.first { $0.username.lowercased() == lowered }
    }

    /// Creates a schema from objects; names are unique ignoring case (a later object replaces an earlier one).
    public init(objects: [OrgObject], briefcases: [OrgBriefcase] = []) {
        self.objects = []
        self.briefcases = briefcases
        for object in objects { addOrReplace(object) }
    }

    /// The object named `name`, ignoring case.
    public func object(named name: String) -> OrgObject? {
        objectIndex[name].map { objects[$0] }
    }

    /// The object whose key prefix starts `id`.
    public func object(forID id: String) -> OrgObject? {
        let prefix = id.prefix(3)
        return objects.first { $0.keyPrefix == prefix }
    }

    /// Adds an object or replaces the one with the same name.
    public mutating func addOrReplace(_ object: OrgObject) {
        objectIndex.addOrReplace(object, named: object.name, in: &objects)
    }

    /// Removes the object named `name` (ignoring case), if any.
    mutating func remove(objectNamed name: String) {
        objectIndex.remove(named: name, from: &objects, nameOf: \.name)
    }

    /// The child relationships of `object`: every lookup elsewhere that points at it and has a child
    /// relationship name, in schema order.
    public func childRelationships(of object: String) -> [OrgChildRelationship] {
        let target = object.lowercased()
        var result: [OrgChildRelationship] = []
        for child in objects {
            for field in child.fields where field.referenceTo.contains(where: { $0.lowercased() == target }) {
                result.append(
                    OrgChildRelationship(
                        childObject: child.name,
                        field: field.name,
                        relationshipName: field.childRelationshipName,
                        isCascadeDelete: field.isCascadeDelete,
                        isRestrictedDelete: field.isRestrictedDelete
                    )
                )
            }
        }
        return result
    }

    /// The child relationship of `object` named `name` (ignoring case), as used by a subquery's FROM.
    public func childRelationship(of object: String, named name: String) -> OrgChildRelationship? {
        let lowered = name.lowercased()
        return childRelationships(of: object).first { $0.relationshipName?.lowercased() == lowered }
    }

    /// A key prefix not used by any object, of the form `a01`, `a02`, … `a0Z`, `a10`, ….
    func unusedCustomKeyPrefix() -> String {
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        let used = Set(objects.map(\.keyPrefix))
        for first in digits {
            for second in digits.dropFirst() {
                let prefix = "a\(first)\(second)"
                if !used.contains(prefix) { return prefix }
            }
        }
        return "a00"
    }
}

/// A child relationship: a lookup on `childObject` through `field` that a parent query can follow
/// with a subquery on `relationshipName`.
public struct OrgChildRelationship: Sendable, Equatable {
    /// The child object (`Contact`).
    public var childObject: String
    /// The lookup field on the child (`AccountId`).
    public var field: String
    /// The name a subquery uses (`Contacts`); `nil` when the relationship cannot be queried.
    public var relationshipName: String?
    /// Whether deleting the parent deletes the children.
    public var isCascadeDelete: Bool = false
    /// Whether (some) children block the parent's delete.
    public var isRestrictedDelete: Bool = false
}
