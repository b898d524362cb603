extension OrgError.Code {
    /// A value outside a restricted picklist's values.
    public static let invalidOrNullForRestrictedPicklist = OrgError.Code("INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST")
}

extension OrgError {
    /// `INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST`: a write gives a restricted picklist a value that is
    /// not one of its `picklistValues`. A real org's message ends with the value ("bad value for
    /// restricted picklist field: Foo"); the local org never echoes a record value, so it names
    /// the field and says what to do instead.
    static func restrictedPicklist(field: String, label: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidOrNullForRestrictedPicklist,
            message:
                "\(label): bad value for restricted picklist field (use one of the field's picklistValues from describe)",
            fields: [field]
        )
    }
}
