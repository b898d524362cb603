/// A profile or permission set declared in the schema file: object permissions (read, create,
/// edit, delete) and field-level security (read, edit) for the users it is given to.
///
/// A user's access is the union of its profile and permission sets, as on a real org: an object
/// any of them lets it read is readable, a field any of them lets it edit is editable. An object
/// none of them names is invisible, except `User`, `Organization` and `RecordType`, which every
/// user of a real org reads.
public struct OrgPermissionSet: Sendable, Equatable {
    /// The profile's or permission set's name, unique among its kind.
    public var name: String
    /// The object permissions, in declaration order.
    public var objects: [OrgObjectPermission]

    /// Creates a profile or permission set.
    public init(name: String, objects: [OrgObjectPermission]) {
        self.name = name
        self.objects = objects
    }
}

/// The permissions of a profile or permission set on one object.
public struct OrgObjectPermission: Sendable, Equatable {
    /// The object's API name.
    public var object: String
    /// "Read": the object is described, queried and retrieved.
    public var read: Bool
    /// "Create".
    public var create: Bool
    /// "Edit" (update and upsert of existing records).
    public var edit: Bool
    /// "Delete" (delete and hard delete).
    public var delete: Bool
    /// Field-level security of the fields named here, by field name.
    public var fields: [(name: String, access: OrgFieldAccess)]
    /// The access of the object's fields not named in ``fields``.
    public var otherFields: OrgFieldAccess

    /// Creates an object permission; create, edit and delete imply read, as on a real org.
    public init(
        object: String,
        read: Bool = true,
        create: Bool = false,
        edit: Bool = false,
        delete: Bool = false,
        fields: [(name: String, access: OrgFieldAccess)] = [],
        otherFields: OrgFieldAccess = .edit
    ) {
        self.object = object
        self.read = read || create || edit || delete
        self.create = create
        self.edit = edit
        self.delete = delete
        self.fields = fields
        self.otherFields = otherFields
    }

    /// The access this permission gives to `field`.
    func access(to field: String) -> OrgFieldAccess {
        let lowered = field.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.access ?? otherFields
    }

    public static func == (lhs: OrgObjectPermission, rhs: OrgObjectPermission) -> Bool {
        lhs.object == rhs.object && lhs.read == rhs.read && lhs.create == rhs.create && lhs.edit == rhs.edit
            && lhs.delete == rhs.delete && lhs.otherFields == rhs.otherFields
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.access) == rhs.fields.map(\.access)
    }
}

/// Field-level security of one field for one profile or permission set.
public enum OrgFieldAccess: String, Sendable, Equatable, Comparable, CaseIterable {
    /// Hidden: absent from describes, unknown to SOQL and writes.
    case none
    /// Visible, read-only (`createable` and `updateable` false in the describe).
    case read
    /// Visible and editable (as far as the field itself is).
    case edit

    private var rank: Int {
        switch self {
        case .none: 0
        case .read: 1
        case .edit: 2
        }
    }

    public static func < (lhs: OrgFieldAccess, rhs: OrgFieldAccess) -> Bool { lhs.rank < rhs.rank }
}

/// A user declared in the schema file: a token issued for it (see docs/local-org.md, "Restricted
/// users") sees the org as its profile and permission sets allow.
public struct OrgUser: Sendable, Equatable {
    /// The username (`integration@example.com`), as a JWT assertion's `sub` names it.
    public var username: String
    /// The name of one of the schema's `profiles`.
    public var profile: String
    /// Names of the schema's `permissionSets`.
    public var permissionSets: [String]

    /// Creates a user.
    public init(username: String, profile: String, permissionSets: [String] = []) {
        self.username = username
        self.profile = profile
        self.permissionSets = permissionSets
    }
}

/// What one user may do, resolved from its profile and permission sets: the union of their grants.
struct OrgUserAccess: Sendable, Equatable {
    /// The union of the grants on one object.
    struct Grant: Sendable, Equatable {
        var read = false
        var create = false
        var edit = false
        var delete = false
        /// The permissions naming the object; a field's access is the highest any of them gives.
        var permissions: [OrgObjectPermission] = []

        func access(to field: String) -> OrgFieldAccess {
            permissions.map { $0.access(to: field) }.max() ?? .none
        }
    }

    /// The username.
    let username: String
    /// Grants by lowercased object name.
    private(set) var grants: [String: Grant] = [:]

    /// The objects every user of a real org reads, whatever its profile says.
    static let alwaysReadable: Set<String> = ["user", "organization", "recordtype"]

    /// The access of `user` in `schema` (an unknown profile or permission set grants nothing: the
    /// loader refuses such files, and a stored org whose file changed fails closed).
    init(user: OrgUser, schema: OrgSchema) {
        username = user.username
        let sets =
            schema.profiles.filter { $0.name == user.profile }
            + schema.permissionSets.filter { user.permissionSets.contains($0.name) }
        for permission in sets.flatMap(\.objects) {
            var grant = grants[permission.object.lowercased()] ?? Grant()
            grant.read = grant.read || permission.read
            grant.create = grant.create || permission.create
            grant.edit = grant.edit || permission.edit
            grant.delete = grant.delete || permission.delete
            grant.permissions.append(permission)
            grants[permission.object.lowercased()] = grant
        }
    }

    /// An access that may read nothing but the objects every user reads: for a session whose user
    /// is no longer declared.
    init(nobody username: String) {
        self.username = username
    }

    /// The grant on `object`, `nil` when the user may not read it.
    func grant(on object: String) -> Grant? {
        let lowered = object.lowercased()
        if let grant = grants[lowered], grant.read { return grant }
        if Self.alwaysReadable.contains(lowered) {
            return Grant(read: true, permissions: [OrgObjectPermission(object: object, otherFields: .read)])
        }
        return nil
    }

    /// `schema` as this user sees it: objects it may not read left out; the others' `createable`,
    /// `updateable` and `deletable` limited by its object permissions; fields its field-level
    /// security hides left out, read-only ones not `createable` or `updateable`. Fields that are not
    /// permissionable (`Id`, required and system fields) stay as they are, as on a real org.
    func restrict(_ schema: OrgSchema) -> OrgSchema {
        var view = schema
        for object in schema.objects {
            guard let grant = grant(on: object.name) else {
                view.remove(objectNamed: object.name)
                continue
            }
            var restricted = object
            restricted.isCreateable = object.isCreateable && grant.create
            restricted.isUpdateable = object.isUpdateable && grant.edit
            restricted.isDeletable = object.isDeletable && grant.delete
            restricted.declaredMRUEnabled = object.isMRUEnabled
            for field in object.fields where field.isPermissionable {
                switch grant.access(to: field.name) {
                case .none:
                    restricted.remove(fieldNamed: field.name)
                case .read:
                    var readOnly = field
                    readOnly.declaredPermissionable = true
                    readOnly.isCreateable = false
                    readOnly.isUpdateable = false
                    restricted.addOrReplace(readOnly)
                case .edit:
                    break
                }
            }
            view.addOrReplace(restricted)
        }
        return view
    }
}
