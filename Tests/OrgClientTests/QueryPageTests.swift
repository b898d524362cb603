import Testing

@testable import OrgClient

struct QueryPageTests {
    @Test func readsCountersBeforeRecords() throws {
        let text =
            #"{"totalSize": 3, "done": false, "nextRecordsUrl": "/services/data/v62.0/query/01gX-2", "records": [{"Id": "1"}]}"#
        let page = try QueryPage(scanning: RawJSON(text))
        #expect(page.totalSize == 3)
        #expect(!page.isDone)
        #expect(page.nextRecordsURL == "/services/data/v62.0/query/01gX-2")
        #expect(page.body.text == text)
    }

    @Test func readsCountersAfterRecordsAndIgnoresNestedLookalikes() throws {
        // Child subqueries carry their own totalSize/done/nextRecordsUrl; only top-level keys count.
        let text = """
            {"records":[{"attributes":{"type":"Account","url":"/x"},"Name":"a \\"}] done",
              "Contacts":{"totalSize":9,"done":false,"nextRecordsUrl":"/services/data/v62.0/query/child-1",
              "records":[{"LastName":"[{"}]}}],
             "totalSize":1,"done":true}
            """
        let page = try QueryPage(scanning: RawJSON(text))
        #expect(page.totalSize == 1)
        #expect(page.isDone)
        #expect(page.nextRecordsURL == nil)
    }

    @Test func treatsANullNextRecordsURLAsAbsent() throws {
        let page = try QueryPage(scanning: RawJSON(#"{"totalSize":0,"done":true,"nextRecordsUrl":null,"records":[]}"#))
        #expect(page.nextRecordsURL == nil)
        #expect(page.totalSize == 0)
    }

    @Test(arguments: [
        (
            #"[{"message":"x","errorCode":"MALFORMED_QUERY"}]"#,
            "the org sent a query response that is not a query page: it is not a JSON object"
        ),
        (
            #"{"done":true,"records":[]}"#,
            "the org sent a query response that is not a query page: it has no 'totalSize'"
        ),
        (#"{"totalSize":1,"records":[]}"#, "the org sent a query response that is not a query page: it has no 'done'"),
        (
            #"{"totalSize":1,"done":true,"records":[{"a":"b"]}"#,
            "the org sent a query page that is not valid JSON at byte 48: unexpected end of file; "
                + "the object opened at line 1, column 1 is not closed"
        ),
    ])
    func rejectsOtherShapes(text: String, message: String) {
        let error = #expect(throws: OrgClientError.self) { try QueryPage(scanning: RawJSON(text)) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message == message)
    }

    @Test func rawJSONDescriptionHidesTheText() {
        #expect(RawJSON(#"{"Name":"secret"}"#).description == "RawJSON(17 bytes)")
    }
}
