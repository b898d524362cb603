import JSONCore

/// A line and column in one file (1-based; columns in Unicode scalars).
struct TextPosition: Sendable, Hashable, Comparable {
    var line: Int
    var column: Int

    static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// The positioned tree both loaders produce: JSON and YAML documents become the same shape,
/// every node remembering where it starts, so the model is decoded once for both formats.
struct ConfigNode: Sendable {
    /// The content of a node.
    enum Value: Sendable {
        case object([Member])
        case array([ConfigNode])
        case scalar(Scalar)
    }

    /// One key of an object, with where the key itself is written.
    struct Member: Sendable {
        var key: String
        var keyPosition: TextPosition
        var value: ConfigNode
    }

    /// A leaf. JSON scalars know their type; YAML plain scalars are ``Kind/plain`` and are typed
    /// only by what the model expects at that place (so `on` stays a string where a string is
    /// expected).
    struct Scalar: Sendable {
        enum Kind: Sendable {
            /// A JSON string, or a quoted / block YAML scalar, or one tagged `!!str`.
            case string
            /// A JSON number (its text is the literal).
            case number
            /// A JSON `true` / `false`.
            case bool
            /// A JSON `null`.
            case null
            /// A plain (unquoted) YAML scalar: typed by context.
            case plain
        }

        var text: String
        var kind: Kind
        /// Where each character of ``text`` is in the file, for pointing into strings.
        var textMap: TextMap
    }

    var value: Value
    var position: TextPosition

    /// The members when this is an object, else none.
    var objectMembers: [Member] {
        if case .object(let members) = value { return members }
        return []
    }

    /// A short noun phrase for messages: "an object", "a string", "the number 12".
    var typeDescription: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .scalar(let scalar):
            switch scalar.kind {
            case .string: return "a string"
            case .number: return "the number \(scalar.text)"
            case .bool: return "'\(scalar.text)'"
            case .null: return "null"
            case .plain: return YAMLCoreSchema.isNull(scalar.text) ? "null" : "'\(scalar.text)'"
            }
        }
    }
}

/// Where each Unicode scalar of a decoded string is in its file, so a problem found inside the
/// string (a SOQL error) can be reported at the exact line and column.
struct TextMap: Sendable {
    /// One position per Unicode scalar of the decoded text, plus one for its end.
    var positions: [TextPosition]

    /// A map that puts every character at `position` (used when the exact mapping is unknown).
    static func fixed(at position: TextPosition) -> TextMap {
        TextMap(positions: [position])
    }

    /// The position of the character starting at `utf8Offset` in `text`.
    func position(ofUTF8Offset utf8Offset: Int, in text: String) -> TextPosition {
        var offset = 0
        var index = 0
        for scalar in text.unicodeScalars {
            if offset >= utf8Offset { break }
            offset += String(scalar).utf8.count
            index += 1
        }
        return positions[min(index, positions.count - 1)]
    }
}
