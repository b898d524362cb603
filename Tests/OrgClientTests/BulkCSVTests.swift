import Foundation
import OrgClient
import Testing

/// The streaming RFC 4180 parser and the CSV → REST record shaper of the Bulk client.
struct BulkCSVTests {
    @Test func quotedFieldsWithDelimitersQuotesAndLineBreaksSurviveAnyChunking() throws {
        let csv = "\"Id\",\"Name\",\"Note\"\r\n\"1\",\"a, \"\"b\"\"\",\"x\ny\"\n2,,plain\n\"3\",\"\",\"Ü 東\""
        let bytes = Array(csv.utf8)
        for chunk in [1, 2, 3, 7, bytes.count] {
            var parser = CSVParser()
            var records: [[CSVField]] = []
            var start = 0
            while start < bytes.count {
                records += try parser.feed(bytes[start..<min(start + chunk, bytes.count)])
                start += chunk
            }
            records += try parser.finish()
            #expect(
                records.map { $0.map(\.text) } == [
                    ["Id", "Name", "Note"], ["1", "a, \"b\"", "x\ny"], ["2", "", "plain"], ["3", "", "Ü 東"],
                ]
            )
            #expect(records[2][1].isQuoted == false && records[3][1].isQuoted == true)
        }
    }

    @Test func malformedCSVIsAnError() {
        var open = CSVParser()
        #expect(throws: CSVError.self) {
            _ = try open.feed("\"never closed".utf8)
            _ = try open.finish()
        }
        var stray = CSVParser()
        #expect(throws: CSVError.self) { _ = try stray.feed("a\"b\n".utf8) }
    }

    @Test func rowsBecomeRESTRecordsTypedByKind() throws {
        let shaper = try BulkRecordShaper(
            header: ["Id", "Name", "Count__c", "Active__c", "When__c", "Account__r.Name", "Account__r.Id"],
            objectType: "Gadget__c",
            apiVersion: "59.0",
            kinds: ["Count__c": .number, "Active__c": .boolean, "When__c": .datetime],
            relationships: [.init(path: "Account__r", objectType: "Account")],
            hidden: ["Account__r.Id"]
        )
        let csv = """
            "Id","Name","Count__c","Active__c","When__c","Account__r.Name","Account__r.Id"
            "a01","Say ""hi""\nthere","-12.5","true","2026-03-01T10:00:00.000Z","Acme","001"
            "a02","",,,,,

            """
        let page = try shaper.jsonArray(csv: csv)
        #expect(page.count == 2)
        let first =
            #"{"attributes":{"type":"Gadget__c","url":"/services/data/v59.0/sobjects/Gadget__c/a01"},"Id":"a01","#
            + #""Name":"Say \"hi\"\nthere","Count__c":-12.5,"Active__c":true,"When__c":"2026-03-01T10:00:00.000+0000","#
            + #""Account__r":{"attributes":{"type":"Account","url":"/services/data/v59.0/sobjects/Account/001"},"#
            + #""Name":"Acme"}}"#
        let second =
            #"{"attributes":{"type":"Gadget__c","url":"/services/data/v59.0/sobjects/Gadget__c/a02"},"Id":"a02","#
            + #""Name":null,"Count__c":null,"Active__c":null,"When__c":null,"Account__r":null}"#
        #expect(page.json == "[" + first + "," + second + "]")
        #expect(throws: OrgClientError.self) { _ = try shaper.jsonArray(csv: "\"Other\"\n\"x\"\n") }
    }
}
