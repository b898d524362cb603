import Foundation

extension OrgSchema {
    /// The sObject describe of `name` as a local org made from this schema serves it, so a schema
    /// file can be checked offline exactly as the served org would be. Record type ids, which each
    /// org draws, are placeholders (`012` and the record type's position). `nil` when the schema
    /// has no such object.
    package func describeData(_ name: String, apiVersion: String = "62.0") -> Data? {
        guard let object = object(named: name) else { return nil }
        var placeholders: [String: String] = [:]
        for (index, recordType) in object.recordTypes.enumerated() {
            let number = String(index + 1)
            placeholders[recordType.developerName] = "012" + String(repeating: "0", count: 12 - number.count) + number
        }
        let describer = OrgDescriber(schema: self, apiVersion: apiVersion, recordTypeIDs: placeholders)
        return try? describer.describe(name).encoded()
    }

    /// The describe global a local org made from this schema serves (`GET /sobjects`).
    package func describeGlobalData(apiVersion: String = "62.0") -> Data? {
        OrgDescriber(schema: self, apiVersion: apiVersion).describeGlobal().encoded()
    }

    /// A schema read from a schema file (JSON or YAML; merged onto the standard objects, or exact).
    ///
    /// - Throws: ``OrgError`` naming the file, object and field at fault.
    package static func fromFile(_ url: URL) throws -> OrgSchema {
        try OrgSchema.standard.merging(contentsOf: url)
    }
}
