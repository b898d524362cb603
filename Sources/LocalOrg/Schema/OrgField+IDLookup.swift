extension OrgField {
    /// Whether upserts may match records by this field (describe's `idLookup`).
    ///
    /// A standard field says so in its declaration, as Salesforce's object reference and recorded
    /// real describes give it (`Contact.Email`, `Lead.Email`, `Opportunity.Name`,
    /// `Case.CaseNumber`; see `Tests/Fixtures/describes/README.md`). Any other field is an
    /// idLookup when it is the record ID, an external ID or unique, as custom fields are on a
    /// real org.
    public var isIDLookup: Bool { declaredIDLookup ?? (type == .id || isExternalID || isUnique) }
}
