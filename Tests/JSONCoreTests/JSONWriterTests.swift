import JSONCore
import Testing

struct JSONWriterTests {
    @Test func theOneEscaperNamesTheShortEscapesAndHexesOtherControls() {
        let text = "q\"\\\n\r\t\u{08}\u{0C}\u{01}\u{1F}/é😀"
        #expect(JSONWriter.quoted(text) == #""q\"\\\n\r\t\b\f\u0001\u001f/é😀""#)
    }

    @Test func terminalTextEscapesEveryControlAndKeepsQuotesAndBackslashes() {
        // ESC (a screen clear), BEL, an OSC title sequence, DEL, a C1 CSI and a right-to-left
        // override: none reaches a terminal raw; quotes, backslashes and other text stay as written.
        let text = "a\u{1B}[2J\u{07}\u{1B}]0;pwned\u{07}\u{7F}\u{9B}31m\u{202E}cba\"q\"\\é東😀\n\t"
        #expect(
            JSONWriter.terminalSafe(text)
                == #"a\u001b[2J\u0007\u001b]0;pwned\u0007\u007f\u009b31m\u202ecba"q"\é東😀\n\t"#
        )
        #expect(JSONWriter.terminalSafeLines("one\u{1B}[1m\ntwo\tthree\r") == "one\\u001b[1m\ntwo\tthree\\r")
        // JSON text is unchanged by the terminal modes' extra escapes.
        #expect(JSONWriter.quoted("\u{7F}\u{9B}\u{202E}") == "\"\u{7F}\u{9B}\u{202E}\"")
    }

    @Test func escapesNextToCombiningMarksAndRunsOfPlainTextKeepEveryScalar() throws {
        // A combining mark after an escaped character makes one grapheme with it: the plain runs
        // around the escape must still be copied scalar for scalar.
        let text = "\"\u{301}a\\\u{301}\n\u{301}é東😀 plain \u{7F}"
        let quoted = JSONWriter.quoted(text)
        #expect(quoted == "\"\\\"\u{301}a\\\\\u{301}\\n\u{301}é東😀 plain \u{7F}\"")
        #expect(JSONWriter.quoted("") == #""""#)
        #expect(JSONWriter.quoted("no escapes at all") == #""no escapes at all""#)
        var copy = quoted
        let parsed = try copy.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            return try reader.readDocument()
        }
        #expect(parsed == .string(text))
    }

    @Test func compactTextSortsKeysByTheirBytes() {
        let value: JSONValue = ["b": [1, 2.5, .null, true], "a": "x", "B": [:], "é": 1]
        #expect(value.jsonText == #"{"B":{},"a":"x","b":[1,2.5,null,true],"é":1}"#)
        #expect(JSONValue.number(.infinity).jsonText == "null")
        #expect(JSONValue.number(2).jsonText == "2.0")
        #expect(JSONValue.number(1e16).jsonText == "1e+16")
    }

    @Test func prettyTextIndentsByTwoSpaces() {
        let value: JSONValue = ["k": ["x", [:]], "e": []]
        #expect(value.jsonText(pretty: true) == "{\n  \"e\": [],\n  \"k\": [\n    \"x\",\n    {}\n  ]\n}")
    }

    @Test func insertionOrderIsKeptWhenAsked() {
        let value: JSONValue = ["z": 1, "a": 2]
        var text = ""
        value.write(to: &text, options: .init(sortedKeys: false))
        #expect(text == #"{"z":1,"a":2}"#)
    }

    @Test func nestedValuesAreWrittenWithTheirBrackets() {
        // The writer keeps its own stack; a much deeper value could not even be released safely
        // (Swift frees nested enums recursively), which is why the reader refuses more than 512 levels.
        var value: JSONValue = .null
        for _ in 0..<1_000 { value = .array([value]) }
        let text = value.jsonText
        #expect(text == String(repeating: "[", count: 1_000) + "null" + String(repeating: "]", count: 1_000))
        #expect(JSONValue.array([["a": [1, 2]], []]).jsonText == #"[{"a":[1,2]},[]]"#)
    }

    @Test func textRoundTrips() throws {
        let value: JSONValue = [
            "Name": "Ünïcødé 😀\u{08}", "Amount": 12.75, "Count": 3, "Tags": ["a", .null, false],
        ]
        var text = value.jsonText
        let parsed = try text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            return try reader.readDocument()
        }
        #expect(parsed == value)
    }
}
