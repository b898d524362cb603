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

    @Test func aLargeResultsPageIsShapedIntoArraysOfAtMostTheGivenSizeInOrder() throws {
        let shaper = try BulkRecordShaper(
            header: ["Id", "Name", "Amount__c"],
            objectType: "Deal__c",
            apiVersion: "59.0",
            kinds: ["Amount__c": .number],
            relationships: [],
            hidden: []
        )
        // 2,500 rows of ~60 bytes: more than one 64 KB parse slice, with quoted commas, quotes and
        // line breaks that a slice boundary can cut.
        var csv = "\"Id\",\"Name\",\"Amount__c\"\n"
        for row in 0..<2_500 {
            csv += "\"a\(row)\",\"Deal, \"\"\(row)\"\"\nline two\",\"\(row).5\"\n"
        }
        let whole = try shaper.jsonArray(csv: csv)
        #expect(whole.count == 2_500)
        var chunks = shaper.arrayChunks(csv: csv, recordsPerArray: 1_000)
        var arrays: [(json: String, count: Int)] = []
        while let array = try chunks.next() { arrays.append(array) }
        #expect(arrays.map(\.count) == [1_000, 1_000, 500])
        let names = try arrays.flatMap { array in
            try JSONSerialization.jsonObject(with: Data(array.json.utf8)) as? [[String: Any]] ?? []
        }.map { "\($0["Id"] ?? "")|\($0["Name"] ?? "")|\($0["Amount__c"] ?? "")" }
        #expect(names.count == 2_500)
        #expect(names.first == "a0|Deal, \"0\"\nline two|0.5")
        #expect(names.last == "a2499|Deal, \"2499\"\nline two|2499.5")
        // The arrays together are the whole page's array.
        let joined = "[" + arrays.map { String($0.json.dropFirst().dropLast()) }.joined(separator: ",") + "]"
        #expect(joined == whole.json)
        // A page without records gives no array to write, and one empty array whole.
        var empty = shaper.arrayChunks(csv: "\"Id\",\"Name\",\"Amount__c\"\n", recordsPerArray: 1_000)
        #expect(try empty.next() == nil)
        let wholeEmpty = try shaper.jsonArray(csv: "\"Id\",\"Name\",\"Amount__c\"\n")
        #expect(wholeEmpty.count == 0 && wholeEmpty.json == "[]")
    }
}
