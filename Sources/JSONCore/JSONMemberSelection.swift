/// Top-level member names to read from JSON objects, matched against a document's keys as bytes:
/// a key that is not one of them is skipped without making a string of it.
///
/// ```swift
/// let selection = JSONMemberSelection(["Id", "Name"])
/// let members = JSONValue.members(of: #"{"Id":"001","Other":[1,2],"Name":"Acme"}"#, selecting: selection)
/// // ["Id": "001", "Name": "Acme"]
/// ```
public struct JSONMemberSelection: Sendable {
    /// The names by UTF-8 length, each with its bytes.
    private let byLength: [Int: [(bytes: [UInt8], name: String)]]
    /// How many names.
    public let count: Int

    /// A selection of `names`.
    public init(_ names: Set<String>) {
        count = names.count
        var byLength: [Int: [(bytes: [UInt8], name: String)]] = [:]
        for name in names.sorted() { byLength[name.utf8.count, default: []].append((Array(name.utf8), name)) }
        self.byLength = byLength
    }

    /// Whether `name` is selected.
    public func contains(_ name: String) -> Bool {
        byLength[name.utf8.count]?.contains { $0.name == name } ?? false
    }

    /// The selected name spelled by the unescaped key bytes `key`, if any.
    func name(matching key: UnsafeBufferPointer<UInt8>) -> String? {
        guard let candidates = byLength[key.count] else { return nil }
        return candidates.first { $0.bytes.elementsEqual(key) }?.name
    }
}

extension JSONValue {
    /// The members of the JSON object `text` named in `selection`, reading the others past without
    /// building them (but checking them: a repeated key keeps its last value, and the answer is
    /// `nil` exactly when ``JSONReader/readDocument()`` would not give an object; read it whole
    /// for the error).
    public static func members(of text: String, selecting selection: JSONMemberSelection) -> [String: JSONValue]? {
        var text = text
        return text.withUTF8 { bytes -> [String: JSONValue]? in
            var reader = JSONReader(bytes: bytes)
            guard (try? reader.next()) == .objectStart else { return nil }
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(selection.count)
            do {
                while let token = try reader.next() {
                    switch token {
                    case .key(let key):
                        let name: String?
                        if key.hasEscapes {
                            let decoded = reader.string(key)
                            name = selection.contains(decoded) ? decoded : nil
                        } else {
                            name = selection.name(
                                matching: UnsafeBufferPointer(rebasing: bytes[(key.start + 1)..<(key.end - 1)])
                            )
                        }
                        if let name {
                            members[name] = try reader.readValue()
                        } else {
                            // Every token of a skipped value is checked (`skipValue` counts brackets
                            // only), so a fault anywhere in the document gives `nil`.
                            let level = reader.depth
                            repeat { _ = try reader.next() } while reader.depth > level
                        }
                    case .objectEnd:
                        return try reader.next() == nil ? members : nil
                    default:
                        return nil
                    }
                }
            } catch {
                return nil
            }
            return nil
        }
    }
}
