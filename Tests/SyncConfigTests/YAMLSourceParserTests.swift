import Testing

@testable import SyncConfig

/// The YAML reader: scalar kinds without coercion and positions inside scalars.
struct YAMLSourceParserTests {
    private func scalar(_ yaml: String) throws -> ConfigNode.Scalar {
        var parser = YAMLSourceParser(text: yaml)
        let root = try parser.parseDocument()
        guard case .object(let members) = root.value, case .scalar(let scalar) = members[0].value.value else {
            Issue.record("unexpected shape")
            return ConfigNode.Scalar(text: "", kind: .null, textMap: .fixed(at: TextPosition(line: 0, column: 0)))
        }
        return scalar
    }

    @Test(arguments: [
        ("k: on", ConfigNode.Scalar.Kind.plain, "on"),
        ("k: 'on'", .string, "on"),
        ("k: !!str 12", .string, "12"),
        ("k: 2024-01-01", .plain, "2024-01-01"),
        ("k: |\n  text\n", .string, "text\n"),
    ])
    func scalarsKeepTheirTextAndKind(_ yaml: String, _ kind: ConfigNode.Scalar.Kind, _ text: String) throws {
        let value = try scalar(yaml)
        #expect(value.kind == kind)
        #expect(value.text == text)
    }

    @Test func positionsFollowQuotingAndFolding() throws {
        let single = try scalar("k: 'it''s x'")
        // Decoded "it's x": the doubled quote is two source characters.
        #expect(single.textMap.position(ofUTF8Offset: 5, in: single.text) == TextPosition(line: 1, column: 11))
        let folded = try scalar("k: one\n  two")
        #expect(folded.text == "one two")
        #expect(folded.textMap.position(ofUTF8Offset: 4, in: folded.text) == TextPosition(line: 2, column: 3))
        let escaped = try scalar(#"k: "\u00e9\tz""#)
        #expect(escaped.textMap.position(ofUTF8Offset: 3, in: escaped.text) == TextPosition(line: 1, column: 13))
    }

    @Test func duplicateKeysPointAtTheSecondOccurrence() {
        var parser = YAMLSourceParser(text: "a: 1\nb: 2\na: 3\n")
        do {
            _ = try parser.parseDocument()
            Issue.record("expected a duplicate key error")
        } catch {
            #expect(error.code == .duplicateKey)
            #expect(error.position == TextPosition(line: 3, column: 1))
            #expect(error.message == "duplicate key 'a'; it is already set on line 1")
        }
    }
}
