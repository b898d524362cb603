import Testing

@testable import SyncConfig

/// The position-tracking JSON parser: node positions, positions inside strings, duplicates.
struct JSONSourceParserTests {
    private func parse(_ text: String) throws -> (ConfigNode, [SourceFinding]) {
        var parser = JSONSourceParser(bytes: Array(text.utf8))
        let root = try parser.parseDocument()
        return (root, parser.findings)
    }

    @Test func nodesKnowWhereTheyStart() throws {
        let (root, _) = try parse("{\n  \"a\": [1,\n    {\"b\": \"é\"}]\n}")
        guard case .object(let members) = root.value, case .array(let elements) = members[0].value.value,
            case .object(let inner) = elements[1].value
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(root.position == TextPosition(line: 1, column: 1))
        #expect(members[0].keyPosition == TextPosition(line: 2, column: 3))
        #expect(members[0].value.position == TextPosition(line: 2, column: 8))
        #expect(elements[1].position == TextPosition(line: 3, column: 5))
        #expect(inner[0].value.position == TextPosition(line: 3, column: 11))
    }

    @Test func escapesMapBackToTheirSourceColumns() throws {
        // Decoded: a"é😀b — the escapes take 2, 6 and 12 source characters.
        let (root, _) = try parse(#"{"q": "a\"\u00e9\ud83d\ude00b"}"#)
        guard case .object(let members) = root.value, case .scalar(let scalar) = members[0].value.value else {
            Issue.record("unexpected shape")
            return
        }
        #expect(scalar.text == "a\"é😀b")
        let columns = [0, 1, 2, 4, 8].map { scalar.textMap.position(ofUTF8Offset: $0, in: scalar.text).column }
        // Offsets 0 (a), 1 ("), 2 (é, 2 bytes), 4 (😀, 4 bytes), 8 (b).
        #expect(columns == [8, 9, 11, 17, 29])
    }

    @Test func duplicateKeysAreFindingsAndTheFirstValueWins() throws {
        let (root, findings) = try parse(#"{"a": 1, "a": 2}"#)
        guard case .object(let members) = root.value, case .scalar(let scalar) = members[0].value.value else {
            Issue.record("unexpected shape")
            return
        }
        #expect(members.count == 1)
        #expect(scalar.text == "1")
        #expect(findings.map(\.position) == [TextPosition(line: 1, column: 10)])
        #expect(findings.map(\.message) == ["duplicate key 'a'; it is already set on line 1"])
    }

    @Test(arguments: [
        ("{\"a\": 01}", 1, 8, "numbers cannot have leading zeros"),
        ("{\"a\": [1 2]}", 1, 10, "expected ',' or ']' after an array element, found '2'"),
        (
            "{\"a\": \"x\\qy\"}", 1, 10,
            "invalid escape '\\q' in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        ),
        ("{\"a\": nul}", 1, 7, "unexpected 'nul'; expected a value (strings need double quotes)"),
        ("[", 1, 2, "unexpected end of file; expected a value"),
        ("\u{FEFF}{}", 1, 1, ""),
    ])
    func syntaxErrorsPointAtTheOffendingCharacter(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        var parser = JSONSourceParser(bytes: Array(text.utf8))
        do {
            _ = try parser.parseDocument()
            // The byte order mark case parses; the others must not.
            #expect(message.isEmpty)
        } catch {
            #expect(error.position == TextPosition(line: line, column: column))
            #expect(error.message == message)
        }
    }
}
