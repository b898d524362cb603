extension OrgSchemaCoding {
    private static let permissionSetKeys: Set<String> = ["name", "objects"]
    private static let objectPermissionKeys: Set<String> = [
        "name", "read", "create", "edit", "delete", "fields", "otherFields",
    ]
    private static let userKeys: Set<String> = ["username", "profile", "permissionSets"]

    /// Reads `profiles`, `permissionSets` and `users` (each present key replaces the list declared
    /// before), checking that every object, field, profile and permission set they name exists.
    static func decodeUsers(_ root: OrgJSONObject, into schema: inout OrgSchema, source: String) throws {
        if let value = root["profiles"] {
            schema.profiles = try decodePermissionSets(value, key: "profiles", schema: schema, source: source)
        }
        if let value = root["permissionSets"] {
            schema.permissionSets = try decodePermissionSets(
                value,
                key: "permissionSets",
                schema: schema,
                source: source
            )
        }
        if let value = root["users"] {
            guard let entries = value.arrayValue else {
                throw OrgError.invalidInput("\(source): \"users\" must be an array")
            }
            let declared = schema
            schema.users = try Reader.entries(entries, at: "\(source): users", keys: userKeys) { reader, users in
                let username = try reader.requiredString("username")
                guard !username.isEmpty, !username.contains(where: \.isWhitespace) else {
                    throw reader.failure("\"username\" must be non-empty and without spaces, not '\(username)'")
                }
                if users.contains(where: { $0.username.lowercased() == username.lowercased() }) {
                    throw reader.failure("the username '\(username)' is declared twice")
                }
                let profile = try reader.requiredString("profile")
                guard declared.profiles.contains(where: { $0.name == profile }) else {
                    throw reader.failure(
                        "profile '\(profile)' is not declared; declare it under \"profiles\" (declared: "
                            + "\(declared.profiles.map(\.name).joined(separator: ", ")))"
                    )
                }
                var sets: [String] = []
                for item in try reader.array("permissionSets") ?? [] {
                    guard let name = item.stringValue else {
                        throw reader.failure("\"permissionSets\" must be an array of names")
                    }
                    guard declared.permissionSets.contains(where: { $0.name == name }) else {
                        throw reader.failure(
                            "permission set '\(name)' is not declared; declare it under \"permissionSets\""
                        )
                    }
                    sets.append(name)
                }
                return OrgUser(username: username, profile: profile, permissionSets: sets)
            }
        }
        for user in schema.users where !schema.profiles.contains(where: { $0.name == user.profile }) {
            throw OrgError.invalidInput(
                "\(source): user '\(user.username)' has profile '\(user.profile)', which is no longer declared"
            )
        }
    }

    private static func decodePermissionSets(
        _ value: OrgJSONValue,
        key: String,
        schema: OrgSchema,
        source: String
    ) throws -> [OrgPermissionSet] {
        guard let entries = value.arrayValue else {
            throw OrgError.invalidInput("\(source): \"\(key)\" must be an array")
        }
        return try Reader.entries(entries, at: "\(source): \(key)", keys: permissionSetKeys) { reader, earlier in
            let name = try reader.requiredString("name")
            guard !name.isEmpty else { throw reader.failure("\"name\" is empty") }
            if earlier.contains(where: { $0.name == name }) {
                throw reader.failure("'\(name)' is declared twice")
            }
            let objects = try Reader.entries(
                try reader.array("objects") ?? [],
                at: "\(reader.location).objects",
                keys: objectPermissionKeys
            ) { objectReader, _ in try decodeObjectPermission(objectReader, schema: schema) }
            return OrgPermissionSet(name: name, objects: objects)
        }
    }

    private static func decodeObjectPermission(_ reader: Reader, schema: OrgSchema) throws -> OrgObjectPermission {
        let name = try reader.requiredString("name")
        guard let object = schema.object(named: name) else {
            throw reader.failure("'\(name)' is not an object of the schema")
        }
        func access(_ text: String?, _ what: String) throws -> OrgFieldAccess? {
            guard let text else { return nil }
            guard let access = OrgFieldAccess(rawValue: text) else {
                throw reader.failure("\(what) must be \"edit\", \"read\" or \"none\", not '\(text)'")
            }
            return access
        }
        var fields: [(name: String, access: OrgFieldAccess)] = []
        switch reader.json["fields"] {
        case nil, .null?: break
        case .object(let map)?:
            for (fieldName, value) in map {
                guard let field = object.field(named: fieldName) else {
                    throw reader.failure("field '\(fieldName)' is not a field of '\(object.name)'")
                }
                guard let level = try access(value.stringValue ?? "?", "field '\(fieldName)'") else { continue }
                fields.append((field.name, level))
            }
        default:
            throw reader.failure("\"fields\" must map field names to \"edit\", \"read\" or \"none\"")
        }
        return OrgObjectPermission(
            object: object.name,
            read: try reader.bool("read") ?? false,
            create: try reader.bool("create") ?? false,
            edit: try reader.bool("edit") ?? false,
            delete: try reader.bool("delete") ?? false,
            fields: fields,
            otherFields: try access(try reader.string("otherFields"), "\"otherFields\"") ?? .edit
        )
    }

    /// Writes `profiles`, `permissionSets` and `users` when the schema declares any.
    static func encodeUsers(_ schema: OrgSchema, into root: inout OrgJSONObject) {
        func encode(_ set: OrgPermissionSet) -> OrgJSONValue {
            .object([
                "name": .string(set.name),
                "objects": .array(
                    set.objects.map { permission in
                        .object([
                            "name": .string(permission.object), "read": .bool(permission.read),
                            "create": .bool(permission.create), "edit": .bool(permission.edit),
                            "delete": .bool(permission.delete),
                            "fields": .object(
                                OrgJSONObject(permission.fields.map { ($0.name, .string($0.access.rawValue)) })
                            ),
                            "otherFields": .string(permission.otherFields.rawValue),
                        ])
                    }
                ),
            ])
        }
        if !schema.profiles.isEmpty { root["profiles"] = .array(schema.profiles.map(encode)) }
        if !schema.permissionSets.isEmpty { root["permissionSets"] = .array(schema.permissionSets.map(encode)) }
        if !schema.users.isEmpty {
            root["users"] = .array(
                schema.users.map { user in
                    .object([
                        "username": .string(user.username), "profile": .string(user.profile),
                        "permissionSets": .array(user.permissionSets.map { .string($0) }),
                    ])
                }
            )
        }
    }
}
