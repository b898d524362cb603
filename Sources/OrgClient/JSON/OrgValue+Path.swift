extension OrgValue {
    /// The value at a dotted path (`Account.Name`) of a record: each name is a member of the
    /// object before it; `nil` when a member is missing or is not an object.
    ///
    /// With `ignoringCase`, a name that no member spells exactly takes the member whose name
    /// differs only in case (Salesforce field names are case-insensitive). The record is looked
    /// into as it is, without building an object value from it: this runs for every field of
    /// every record a sync up or a migration sends.
    public static func value(
        atPath path: String,
        in record: [String: OrgValue],
        ignoringCase: Bool = false
    ) -> OrgValue? {
        func member(_ name: Substring, of object: [String: OrgValue]) -> OrgValue? {
            let key = String(name)
            if let value = object[key] { return value }
            guard ignoringCase else { return nil }
            let lowered = key.lowercased()
            return object.first { $0.key.lowercased() == lowered }?.value
        }
        guard path.utf8.contains(UInt8(ascii: ".")) else { return member(path[...], of: record) }
        var components = path.split(separator: ".", omittingEmptySubsequences: false)[...]
        guard let first = components.popFirst(), var current = member(first, of: record) else { return nil }
        for component in components {
            guard let object = current.objectValue, let next = member(component, of: object) else { return nil }
            current = next
        }
        return current
    }
}
