import JSONCore

/// Encoding and checking of the pieces the client puts into URLs.
package enum PathComponents {
    /// Percent-encodes everything except RFC 3986 unreserved characters, so the result is safe in
    /// a path segment and in a query value (`+` in SOQL becomes `%2B`, space `%20`).
    package static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += byte < 16 ? "%0\(hex)" : "%\(hex)"
            }
        }
        return result
    }

    /// Checks an sObject or field API name (`Account`, `Invoice__c`, `ns__Ext_Id__c`).
    static func checkName(_ name: String, kind: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 255,
            name.utf8.allSatisfy({ isASCIILetterOrDigit($0) || $0 == UInt8(ascii: "_") })
        else {
            throw OrgClientError.invalidArgument(
                "'\(name)' is not a valid \(kind) name; use its API name, for example 'Account'"
            )
        }
        return name
    }

    /// Checks a record ID by the package's one rule (``SalesforceID``): 15 or 18 letters and
    /// digits, the last 3 of 18 a checksum of the first 15. Returns `id` as given.
    static func checkRecordID(_ id: String) throws -> String {
        if let problem = SalesforceID.problem(with: id) {
            throw OrgClientError.invalidArgument("'\(id)' is not a record ID; \(problem)")
        }
        return id
    }

    /// `0`–`9`, `a`–`z`, `A`–`Z` (byte checks: these run for every record sent).
    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
