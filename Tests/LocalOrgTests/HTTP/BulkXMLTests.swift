import Foundation
import Testing

@testable import LocalOrg

/// The Bulk API 1.0 XML reader and writer: what they read, what they refuse, and that writing then
/// reading gives the same tree.
struct BulkXMLTests {
    @Test func readsElementsAttributesEntitiesAndCDATA() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <sObjects xmlns="urn:x" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
              <sObject><Name>O&apos;Neil &amp; Sons &#233;&#x4E2D;</Name><Phone xsi:nil="true"/>
              <Notes><![CDATA[<b>raw</b> & text]]></Notes></sObject>
            </sObjects>
            """
        let root = try BulkXMLReader.parse(Data(text.utf8))
        #expect(root.name == "sObjects")
        let record = try #require(root.child("sObject"))
        #expect(record.childText("Name") == "O'Neil & Sons é中")
        #expect(record.child("Phone")?.isNil == true)
        #expect(record.childText("Notes") == "<b>raw</b> & text")
        let again = try BulkXMLReader.parse(BulkXMLWriter.document(root))
        #expect(again.child("sObject") == record)
    }

    @Test(arguments: [
        "<!DOCTYPE a [<!ENTITY b \"c\">]><a>&b;</a>",  // no DTDs, so no entity expansion
        "<a>&unknown;</a>", "<a><b></a></b>", "<a>", "<a></a><b></b>", "<a x=1/>", "",
        String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40),
    ])
    func refusesWhatItDoesNotRead(_ text: String) {
        #expect(throws: OrgError.self) { try BulkXMLReader.parse(Data(text.utf8)) }
    }

    /// Found by the `bulk-xml` fuzz target: text of control characters only (dropped by the writer)
    /// made `<a></a>`, read back as empty and written `<a/>`; and a name with two colons lost a
    /// prefix on each pass.
    @Test(arguments: ["<a><b>&#12;</b></a>", "<a>\u{7}</a>", "<p:q:r x:y:z=\"1\"/>", "<a:?b/>"])
    func writingWhatWasReadIsStable(_ text: String) throws {
        let written = BulkXMLWriter.document(try BulkXMLReader.parse(Data(text.utf8)))
        #expect(BulkXMLWriter.document(try BulkXMLReader.parse(written)) == written)
    }

    @Test func escapesWhatXMLReserves() throws {
        let element = BulkXMLElement(name: "exceptionMessage", text: "a < b & \"c\" > 'd'\u{1}")
        let written = String(decoding: BulkXMLWriter.document(element), as: UTF8.self)
        #expect(written.hasSuffix(">a &lt; b &amp; &quot;c&quot; &gt; &apos;d&apos;</exceptionMessage>"))
        #expect(try BulkXMLReader.parse(Data(written.utf8)).text == "a < b & \"c\" > 'd'")
    }
}
