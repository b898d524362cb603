/// Which fields the local org describes as `idLookup` and takes as an upsert key.
///
/// The one rule behind the describe's `"idLookup"` key and every upsert path (REST
/// `PATCH sobjects/{object}/{field}/{value}`, collections upsert, Bulk API 1.0 and 2.0 upsert), so a
/// client that reads the describe and upserts by what it reads is never refused.
extension OrgField {
    /// Whether the field can identify a record in an upsert (the describe's `idLookup`).
    public var isIDLookup: Bool {
        type == .id || isExternalID || isUnique
    }
}
