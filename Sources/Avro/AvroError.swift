/// What went wrong reading an Avro schema or reading or writing an Avro binary value, and where.
///
/// `path` names the place in the value (`ChangeEventHeader.recordIds[2]`) or in the schema
/// (`fields[3].type`); `offset` is the byte offset in the binary input where the bad datum starts,
/// when the error is the decoder's. Descriptions never quote a datum's content, only its shape.
public struct AvroError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error; a struct over a private enum so that kinds can be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Kind: Sendable, Hashable {
            case invalidSchema, truncated, malformed, limitExceeded, valueMismatch
        }
        fileprivate let kind: Kind

        /// The schema text is not a valid Avro schema.
        public static let invalidSchema = Code(kind: .invalidSchema)
        /// The binary input ended inside a datum.
        public static let truncated = Code(kind: .truncated)
        /// The binary input holds a datum its schema cannot have (a bad varint, length, branch, UTF-8).
        public static let malformed = Code(kind: .malformed)
        /// A bound that protects against hostile input (depth, item count) was passed.
        public static let limitExceeded = Code(kind: .limitExceeded)
        /// A value given to the encoder does not fit its schema.
        public static let valueMismatch = Code(kind: .valueMismatch)

        public var description: String {
            switch kind {
            case .invalidSchema: "invalid schema"
            case .truncated: "truncated input"
            case .malformed: "malformed input"
            case .limitExceeded: "limit exceeded"
            case .valueMismatch: "value does not match schema"
            }
        }
    }

    /// The kind of error.
    public var code: Code
    /// What is wrong and, when known, what to do.
    public var message: String
    /// Where in the value or schema, dotted and indexed; empty at the root.
    public var path: String
    /// The byte offset in the binary input, for decoding errors.
    public var offset: Int?

    public var description: String {
        var text = "Avro \(code)"
        if !path.isEmpty { text += " at '\(path)'" }
        if let offset { text += " (byte \(offset))" }
        return text + ": " + message
    }
}

/// A path through a schema or a value, kept as components and joined only for an error.
struct AvroPath {
    private var components: [Component] = []

    enum Component {
        case field(String)
        case index(Int)
        case key(String)
        case branch(Int)
    }

    mutating func push(_ component: Component) { components.append(component) }
    mutating func pop() { components.removeLast() }

    var text: String {
        var text = ""
        for component in components {
            switch component {
            case .field(let name): text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            // Map keys are data: the path shows that it is a map entry, never the key itself.
            case .key: text += "{}"
            case .branch(let index): text += "<\(index)>"
            }
        }
        return text
    }
}
