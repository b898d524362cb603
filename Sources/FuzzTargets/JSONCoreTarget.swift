import JSONCore

/// JSONCore's reader: the document is read, validated and skipped; a value read is written back
/// and read again; an object read for a few members (`JSONValue.members(of:selecting:)`, what sync
/// up reads of a dirty entry) gives exactly those members of the whole read, and `nil` when the
/// whole read is not an object.
enum JSONCoreTarget {
    /// Names a document may hold plainly, escaped, or as a prefix or extension of another key.
    static let selection = JSONMemberSelection(["Id", "Name", "__local__", "attributes", "a", "é", "\"", ""])

    static func run(_ bytes: [UInt8]) async {
        checkSelectedMembers(String(decoding: bytes, as: UTF8.self))
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer)
            guard let value = try? reader.readDocument() else { return }
            var validator = JSONReader(bytes: buffer)
            try? validator.validateDocument()
            var skipper = JSONReader(bytes: buffer)
            try? skipper.skipValue()
            let text = Array(value.jsonText(pretty: true).utf8)
            text.withUnsafeBufferPointer { written in
                var again = JSONReader(bytes: written)
                _ = try? again.readDocument()
            }
        }
    }

    private static func checkSelectedMembers(_ text: String) {
        let selected = JSONValue.members(of: text, selecting: selection)
        var copy = text
        let whole = copy.withUTF8 { buffer -> JSONValue? in
            var reader = JSONReader(bytes: buffer)
            return try? reader.readDocument()
        }
        if let object = whole?.objectValue {
            precondition(
                selected == object.filter { selection.contains($0.key) },
                "the selected members differ from those of the whole read"
            )
        } else {
            precondition(selected == nil, "members were selected from a document that is not one object")
        }
    }
}
