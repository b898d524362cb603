import JSONCore

/// One way two org shapes differ: a property of an object or field, its value in A and in B
/// (`null` when the object or field is absent on that side).
public struct ShapeDifference: Sendable, Hashable {
    public var object: String
    /// The field, or `nil` for a property of the object itself.
    public var field: String?
    /// `exists`, a describe property (`createable`, `type`, …), or `recordTypes`.
    public var property: String
    public var a: JSONValue
    public var b: JSONValue

    /// `{"object", "field", "property", "a", "b"}`.
    public var json: JSONValue {
        .object([
            "object": .string(object), "field": field.map { .string($0) } ?? .null, "property": .string(property),
            "a": a, "b": b,
        ])
    }
}

extension ShapeDifference {
    /// `exists` of an object (`field` `nil`) or a field present on one side only.
    fileprivate static func existence(object: String, field: String?, _ a: Bool, _ b: Bool) -> ShapeDifference {
        ShapeDifference(object: object, field: field, property: "exists", a: .bool(a), b: .bool(b))
    }
}

extension OrgShape {
    /// How `other` differs from this shape for the objects `names` (a config's objects).
    public func differences(from other: OrgShape, objects names: [String]) -> [ShapeDifference] {
        var differences: [ShapeDifference] = []
        for name in names {
            let left = object(named: name)
            let right = other.object(named: name)
            guard let left, let right else {
                if left != nil || right != nil {
                    differences.append(
                        .existence(object: left?.name ?? right?.name ?? name, field: nil, left != nil, right != nil)
                    )
                }
                continue
            }
            for (property, a, b) in Self.objectProperties(left, right) where a != b {
                differences.append(ShapeDifference(object: left.name, field: nil, property: property, a: a, b: b))
            }
            var fieldNames = left.fields.map(\.name)
            for field in right.fields where left.field(named: field.name) == nil { fieldNames.append(field.name) }
            for fieldName in fieldNames {
                let fieldA = left.field(named: fieldName)
                let fieldB = right.field(named: fieldName)
                guard let fieldA, let fieldB else {
                    differences.append(.existence(object: left.name, field: fieldName, fieldA != nil, fieldB != nil))
                    continue
                }
                for (property, a, b) in Self.fieldProperties(fieldA, fieldB) where a != b {
                    differences.append(
                        ShapeDifference(object: left.name, field: fieldA.name, property: property, a: a, b: b)
                    )
                }
            }
        }
        return differences
    }

    private static func objectProperties(_ a: ObjectShape, _ b: ObjectShape) -> [(String, JSONValue, JSONValue)] {
        [
            ("queryable", .bool(a.isQueryable), .bool(b.isQueryable)),
            ("createable", .bool(a.isCreateable), .bool(b.isCreateable)),
            ("updateable", .bool(a.isUpdateable), .bool(b.isUpdateable)),
            ("deletable", .bool(a.isDeletable), .bool(b.isDeletable)),
            (
                "recordTypes", .array(a.recordTypes.map { .string($0.developerName) }),
                .array(b.recordTypes.map { .string($0.developerName) })
            ),
        ]
    }

    private static func fieldProperties(_ a: FieldShape, _ b: FieldShape) -> [(String, JSONValue, JSONValue)] {
        [
            ("type", .string(a.type), .string(b.type)),
            ("length", .integer(Int64(a.length)), .integer(Int64(b.length))),
            ("createable", .bool(a.isCreateable), .bool(b.isCreateable)),
            ("updateable", .bool(a.isUpdateable), .bool(b.isUpdateable)),
            ("nillable", .bool(a.isNillable), .bool(b.isNillable)),
            ("defaultedOnCreate", .bool(a.isDefaultedOnCreate), .bool(b.isDefaultedOnCreate)),
            ("externalId", .bool(a.isExternalID), .bool(b.isExternalID)),
            ("idLookup", .bool(a.isIDLookup), .bool(b.isIDLookup)),
            ("unique", .bool(a.isUnique), .bool(b.isUnique)),
            ("referenceTo", .array(a.referenceTo.map { .string($0) }), .array(b.referenceTo.map { .string($0) })),
            (
                "relationshipName", a.relationshipName.map { .string($0) } ?? .null,
                b.relationshipName.map { .string($0) } ?? .null
            ),
            ("cascadeDelete", .bool(a.isCascadeDelete), .bool(b.isCascadeDelete)),
        ]
    }
}
