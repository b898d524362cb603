import JSONCore
import Testing

struct JSONReaderTests {
    private func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            return try reader.readDocument()
        }
    }

    private func failure(_ text: String, maximumDepth: Int = 512) -> JSONSyntaxError? {
        var text = text
        return text.withUTF8 { bytes -> JSONSyntaxError? in
            var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
            do throws(JSONSyntaxError) {
                try reader.validateDocument()
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func readsEveryKindKeepingKeyOrder() throws {
        let value = try parse(
            #" {"z": null, "b": true, "c": [1, -2.5e1, "x\ny", {}], "a": {"é": "\u00e9\ud83d\ude00"}} "#
        )
        #expect(value == ["z": .null, "b": true, "c": [1, -25.0, "x\ny", [:]], "a": ["é": "é😀"]])
        #expect(value.orderedObjectValue?.keys == ["z", "b", "c", "a"])
        #expect(try parse("10") == .integer(10))
        #expect(try parse("10.0") == .number(10))
        #expect(try parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
    }

    @Test func aRepeatedKeyKeepsItsFirstPlaceAndLastValue() throws {
        let value = try parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.orderedObjectValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
    }

    @Test(arguments: [
        ("", 1, 1, "the text is empty; expected a JSON value"),
        ("{", 1, 2, "unexpected end of file; the object opened at line 1, column 1 is not closed"),
        ("[1,]", 1, 4, "trailing comma before ']'; remove the last ','"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key 'a', found '1'"),
        ("tru", 1, 1, "unexpected 'tru'; expected a value (strings need double quotes)"),
        ("1 2", 1, 3, "unexpected '2' after the end of the JSON document"),
        ("\"ab", 1, 1, "unterminated string; add the closing '\"'"),
        ("-", 1, 2, "expected a digit, found end of file"),
        ("[01]", 1, 3, "numbers cannot have leading zeros"),
        ("{\"a\":1,}", 1, 8, "trailing comma before '}'; remove the last ','"),
        ("[\"\\x\"]", 1, 4, #"invalid escape '\x' in a string; valid escapes are \" \\ \/ \b \f \n \r \t \uXXXX"#),
        ("[\"\\ud800\"]", 1, 9, #"unpaired surrogate \uD800 in a string"#),
        ("\n  [1\n  2]", 3, 3, "expected ',' or ']' after an array element, found '2'"),
        ("{\"é\": x}", 1, 7, "unexpected 'x'; expected a value (strings need double quotes)"),
        ("[\"a\u{01}\"]", 1, 4, "control character U+0001 in a string; escape it"),
        ("// c\n{}", 1, 1, "comments are not allowed in JSON; remove them or use YAML"),
    ])
    func reportsTheFirstErrorWithItsPosition(text: String, line: Int, column: Int, message: String) {
        let error = failure(text)
        #expect(error?.message == message)
        #expect(error.map { [$0.line, $0.column] } == [line, column])
    }

    @Test func invalidUTF8InAStringIsAnError() {
        var bytes: [UInt8] = Array("[\"ok\",\n \"a".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        let error = bytes.withUnsafeMutableBufferPointer { buffer in
            var reader = JSONReader(bytes: UnsafeBufferPointer(buffer))
            return Result { () throws(JSONSyntaxError) in try reader.validateDocument() }
        }
        guard case .failure(let failure) = error else {
            Issue.record("expected an error")
            return
        }
        #expect(failure.message == "invalid UTF-8 in a string")
        #expect([failure.line, failure.column] == [2, 4])
    }

    @Test func nestingBeyondTheLimitIsAPositionedErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = failure(deep)
        #expect(error?.kind == .tooDeep)
        #expect(error?.offset == 512)
        #expect(error.map { [$0.line, $0.column] } == [1, 513])
        let objects = String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        #expect(failure(objects)?.kind == .tooDeep)
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(failure(atLimit) == nil)
        #expect(failure("[[[]]]", maximumDepth: 2)?.offset == 2)
    }

    @Test func aByteOrderMarkIsSkippedAndNotCounted() throws {
        #expect(try parse("\u{FEFF}{\"a\": 1}") == ["a": 1])
        #expect(failure("\u{FEFF}{x}").map { [$0.line, $0.column] } == [1, 2])
    }

    @Test func tokensLetACallerSkipWithoutDecoding() throws {
        var text = #"{"records": [{"Id": "1", "n": [1, {"x": "]"}]}], "totalSize": 1, "done": true}"#
        let fields = try text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            var found: [String: JSONValue] = [:]
            try reader.readObject { reader, key in
                if key == "records" {
                    try reader.skipValue()
                } else {
                    found[key] = try reader.readValue()
                }
            }
            return found
        }
        #expect(fields == ["totalSize": 1, "done": true])
    }

    @Test func stringScalarOffsetsPointAtTheirSource() throws {
        var text = #"["a\nb😀c"]"#
        let (decoded, offsets) = text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            _ = try? reader.next()
            guard case .string(let token)? = try? reader.next() else { return ("", [Int]()) }
            var offsets: [Int] = []
            return (reader.string(token, scalarOffsets: &offsets), offsets)
        }
        #expect(decoded == "a\nb😀c")
        #expect(offsets == [2, 3, 5, 6, 10, 11])
    }
}
