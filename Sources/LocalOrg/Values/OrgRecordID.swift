import JSONCore

/// Salesforce record IDs: the 18-character case-safe form, its checksum and normalisation of input IDs
/// (salesforce-rest.md §1.6).
///
/// ```swift
/// OrgRecordID.caseSafe("a0BA0000000L2ZC")           // "a0BA0000000L2ZCMA0"
/// try OrgRecordID.normalize("001lm00000ab3xqiar")    // restores the case from the checksum
/// ```
public enum OrgRecordID {
    private static let bodyAlphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    /// The three checksum characters for a 15-character ID (``SalesforceID/checksum(_:)``).
    public static func checksum(_ id15: String) -> String {
        SalesforceID.checksum(id15)
    }

    /// The 18-character form of a 15-character ID (an 18-character ID is returned unchanged).
    public static func caseSafe(_ id: String) -> String {
        id.utf8.count == 15 ? id + checksum(id) : id
    }

    /// The canonical 18-character ID for an input ID of 15 or 18 characters, by the package's one
    /// rule (``SalesforceID``).
    ///
    /// An 18-character ID is matched ignoring case: the case of its first 15 characters is restored
    /// from the checksum, so `001lm00000ab3xqiar` and `001Lm00000Ab3xQIAR` name the same record.
    /// Returns `nil` when `id` is not well formed or its checksum cannot be right.
    public static func normalize(_ id: String) -> String? {
        SalesforceID(id)?.caseSafe
    }

    /// A new ID: the object's key prefix, `Lo` (the local org's "pod"), a 10-character base-62 counter
    /// and the checksum.
    static func make(prefix: String, counter: Int64) -> String {
        var value = counter
        var digits: [Character] = []
        for _ in 0..<10 {
            digits.append(bodyAlphabet[Int(value % 62)])
            value /= 62
        }
        let body = prefix + "Lo" + String(digits.reversed())
        return body + checksum(body)
    }
}
