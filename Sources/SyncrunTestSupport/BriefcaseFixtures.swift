import LocalOrg

/// The briefcase the tests prime with.
public enum BriefcaseFixtures {
    /// The standard schema plus briefcase `FieldSales`: rule 1 selects the accounts of industry
    /// `Energy`, rule 2 the contacts matching `contactFilter` (every contact when `nil`).
    public static func schema(contactFilter: String? = nil) -> OrgSchema {
        var schema = OrgSchema.standard
        schema.briefcases = [
            OrgBriefcase(
                name: "FieldSales",
                rules: [
                    OrgBriefcase.Rule(object: "Account", filter: "Industry = 'Energy'"),
                    OrgBriefcase.Rule(object: "Contact", filter: contactFilter),
                ]
            )
        ]
        return schema
    }
}
