import JSONCore
import Testing

@testable import OrgClient

/// A collection call writes its records' wire form straight to text: the text must be exactly that
/// of the wire value (the record's fields with `attributes.type` and `Id` set over them).
struct SObjectRecordWireTests {
    static let records: [SObjectRecord] = [
        SObjectRecord(objectType: "Account", id: "001000000000001AAA", fields: ["Name": "Acme", "Phone": .null]),
        SObjectRecord(objectType: "Account", fields: [:]),
        SObjectRecord(
            objectType: "Invoice__c",
            fields: [
                "attributes": ["type": "Wrong", "url": "/x"], "Id": "kept without an id", "Zeta": 1, "alpha": 2.5,
                "Émile": "naïve \"quoted\"\n", "Nested": ["b": [1, "two", true], "a": ["x": .null]],
            ]
        ),
        SObjectRecord(objectType: "Contact", id: "003000000000001", fields: ["Id": "overridden", "attributes": 3]),
    ]

    @Test(arguments: records)
    func theWrittenTextIsTheWireValuesText(record: SObjectRecord) {
        var text = ""
        record.writeWire(to: &text)
        #expect(text == record.wireValue.jsonText)
    }
}
