import Foundation

/// One element of the small XML documents Bulk API 1.0 exchanges (`jobInfo`, `batchInfo`,
/// `batchInfoList`, `results`, `error`, `sObjects` batches, `queryResult`).
///
/// The reader is a hand parser (no FoundationXML, so the `--static-swift-stdlib` build links as
/// before): elements, attributes, text with the five named entities and numeric references,
/// CDATA, comments, the declaration and processing instructions. No DTDs (a `<!DOCTYPE` is refused,
/// so no entity expansion), nesting at most ``maximumDepth``. Names keep their local part only
/// (`xsi:nil` → `nil`), which is all the Bulk shapes need.
package struct BulkXMLElement: Sendable, Equatable {
    /// The local name (prefix removed).
    package var name: String
    /// The attributes by local name, in document order.
    package var attributes: [(name: String, value: String)]
    /// The child elements in order.
    package var children: [BulkXMLElement]
    /// The element's own text (all text and CDATA directly inside it, joined).
    package var text: String

    package init(
        name: String,
        attributes: [(name: String, value: String)] = [],
        children: [BulkXMLElement] = [],
        text: String = ""
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    package static func == (lhs: BulkXMLElement, rhs: BulkXMLElement) -> Bool {
        lhs.name == rhs.name && lhs.children == rhs.children && lhs.text == rhs.text
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    /// The deepest nesting the reader accepts.
    package static let maximumDepth = 32

    /// The first child called `name`.
    func child(_ name: String) -> BulkXMLElement? {
        children.first { $0.name == name }
    }

    /// The text of the first child called `name`.
    func childText(_ name: String) -> String? {
        child(name)?.text
    }

    /// The value of the attribute with this local name.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// Whether the element is marked `xsi:nil="true"`.
    var isNil: Bool { attribute("nil") == "true" }
}

/// Reads one XML document into a ``BulkXMLElement`` tree.
package struct BulkXMLReader {
    private let bytes: [UInt8]
    private var index = 0

    private init(_ data: Data) {
        bytes = Array(data)
    }

    /// The root element of `data`.
    /// - Throws: ``OrgError`` (400) saying what is wrong and at which byte offset.
    package static func parse(_ data: Data) throws -> BulkXMLElement {
        var reader = BulkXMLReader(data)
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        try reader.skipMisc()
        guard reader.peek() == UInt8(ascii: "<") else { throw reader.failure("the document has no root element") }
        let root = try reader.element(depth: 1)
        try reader.skipMisc()
        guard reader.index == reader.bytes.count else { throw reader.failure("content follows the root element") }
        return root
    }

    private func failure(_ reason: String) -> OrgError {
        OrgError.invalidXML("\(reason) (at byte \(index))")
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func starts(with text: String) -> Bool {
        let pattern = Array(text.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        return bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    /// Skips white space, comments, the declaration and processing instructions.
    private mutating func skipMisc() throws {
        while let byte = peek() {
            if Self.isSpace(byte) {
                index += 1
            } else if !(try skipCommentOrInstruction()) {
                return
            }
        }
    }

    /// Skips a comment or a processing instruction at `index` (`true`), refuses a document type
    /// declaration, and leaves anything else (`false`).
    private mutating func skipCommentOrInstruction() throws -> Bool {
        if starts(with: "<?") {
            try skip(past: "?>")
        } else if starts(with: "<!--") {
            try skip(past: "-->")
        } else if starts(with: "<!") {
            throw failure("document type declarations are not accepted")
        } else {
            return false
        }
        return true
    }

    private mutating func skip(past terminator: String) throws {
        let pattern = Array(terminator.utf8)
        while index < bytes.count {
            if starts(with: terminator) {
                index += pattern.count
                return
            }
            index += 1
        }
        throw failure("'\(terminator)' is missing")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        !isSpace(byte) && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "=")
            && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }

    private mutating func name() throws -> String {
        let start = index
        while let byte = peek(), Self.isNameByte(byte) { index += 1 }
        guard index > start else { throw failure("a name is expected") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The part after the last `:` when it starts like an XML name (a letter or `_`), else the whole
    /// name, so a name the writer writes back reads as the same name.
    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        let local = name[name.index(after: colon)...]
        guard let first = local.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
            return name
        }
        return String(local)
    }

    private mutating func skipSpaces() {
        while let byte = peek(), Self.isSpace(byte) { index += 1 }
    }

    /// An element starting at `<`.
    private mutating func element(depth: Int) throws -> BulkXMLElement {
        guard depth <= BulkXMLElement.maximumDepth else {
            throw failure("elements nest deeper than \(BulkXMLElement.maximumDepth) levels")
        }
        index += 1  // <
        let qualified = try name()
        var node = BulkXMLElement(name: Self.localName(qualified))
        while true {
            skipSpaces()
            guard let byte = peek() else { throw failure("the start tag of <\(qualified)> is not closed") }
            if byte == UInt8(ascii: "/") {
                guard peek(1) == UInt8(ascii: ">") else { throw failure("'/>' is expected") }
                index += 2
                return node
            }
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            let attribute = try name()
            skipSpaces()
            guard peek() == UInt8(ascii: "=") else { throw failure("attribute '\(attribute)' has no value") }
            index += 1
            skipSpaces()
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw failure("the value of attribute '\(attribute)' is not quoted")
            }
            index += 1
            let start = index
            while let next = peek(), next != quote { index += 1 }
            guard peek() == quote else { throw failure("the value of attribute '\(attribute)' is not closed") }
            let value = try Self.decodeEntities(bytes[start..<index])
            index += 1
            node.attributes.append((Self.localName(attribute), value))
        }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw failure("<\(qualified)> is not closed") }
            if byte != UInt8(ascii: "<") {
                let start = index
                while let next = peek(), next != UInt8(ascii: "<") { index += 1 }
                text += Array(try Self.decodeEntities(bytes[start..<index]).utf8)
            } else if starts(with: "</") {
                index += 2
                let closing = try name()
                guard closing == qualified else { throw failure("</\(closing)> closes <\(qualified)>") }
                skipSpaces()
                guard peek() == UInt8(ascii: ">") else { throw failure("'>' is expected after </\(closing)") }
                index += 1
                node.text = String(decoding: text, as: UTF8.self)
                return node
            } else if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                while index < bytes.count, !starts(with: "]]>") { index += 1 }
                guard index < bytes.count else { throw failure("a CDATA section is not closed") }
                text += bytes[start..<index]
                index += 3
            } else if !(try skipCommentOrInstruction()) {
                node.children.append(try element(depth: depth + 1))
            }
        }
    }

    /// Replaces `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#…;` references.
    private static func decodeEntities(_ slice: ArraySlice<UInt8>) throws -> String {
        guard slice.contains(UInt8(ascii: "&")) else { return String(decoding: slice, as: UTF8.self) }
        var result = ""
        var position = slice.startIndex
        while position < slice.endIndex {
            let byte = slice[position]
            guard byte == UInt8(ascii: "&") else {
                let start = position
                while position < slice.endIndex, slice[position] != UInt8(ascii: "&") { position += 1 }
                result += String(decoding: slice[start..<position], as: UTF8.self)
                continue
            }
            guard let end = slice[position...].firstIndex(of: UInt8(ascii: ";")), end - position <= 12 else {
                throw OrgError.invalidXML("an '&' starts no entity (at byte \(position))")
            }
            let entity = String(decoding: slice[(position + 1)..<end], as: UTF8.self)
            var value = BulkXMLWriter.predefinedEntities.first { $0.name == entity }?.character.value
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                value = UInt32(entity.dropFirst(2), radix: 16)
            } else if entity.hasPrefix("#") {
                value = UInt32(entity.dropFirst(), radix: 10)
            }
            guard let value, let scalar = Unicode.Scalar(value), value != 0 else {
                throw OrgError.invalidXML("'&\(entity);' is not an entity XML defines (at byte \(position))")
            }
            result.unicodeScalars.append(scalar)
            position = end + 1
        }
        return result
    }
}

/// Writes the XML documents of Bulk API 1.0 in its namespace.
package enum BulkXMLWriter {
    /// The Bulk API 1.0 namespace.
    package static let namespace = "http://www.force.com/2009/06/asyncapi/dataload"

    /// `<?xml …?>` and `element` with the Bulk namespace on the root.
    package static func document(_ element: BulkXMLElement) -> Data {
        var root = element
        if root.attribute("xmlns") == nil { root.attributes.insert(("xmlns", namespace), at: 0) }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        write(root, into: &text)
        return Data(text.utf8)
    }

    private static func write(_ element: BulkXMLElement, into text: inout String) {
        text += "<" + element.name
        for (name, value) in element.attributes {
            text += " \(name)=\"" + escaped(value) + "\""
        }
        // Decided on the escaped text: text of dropped control characters only is no content.
        let content = escaped(element.text)
        if element.children.isEmpty, content.isEmpty {
            text += "/>"
            return
        }
        text += ">"
        text += content
        for child in element.children { write(child, into: &text) }
        text += "</" + element.name + ">"
    }

    /// The five entities XML predefines (XML 1.0 §4.6), by the character each stands for: what
    /// ``escaped(_:)`` writes and what the reader decodes besides character references.
    static let predefinedEntities: [(character: Unicode.Scalar, name: String)] = [
        ("&", "amp"), ("<", "lt"), (">", "gt"), ("\"", "quot"), ("'", "apos"),
    ]

    /// `text` with `& < > " '` escaped and control characters XML cannot carry dropped.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let entity = predefinedEntities.first(where: { $0.character == scalar }) {
                result += "&\(entity.name);"
            } else if scalar.value >= 0x20 || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension BulkXMLElement {
    /// `<name>text</name>`.
    static func leaf(_ name: String, _ text: String) -> BulkXMLElement {
        BulkXMLElement(name: name, text: text)
    }
}

extension OrgError {
    /// An XML body Bulk API 1.0 cannot read.
    static func invalidXML(_ reason: String) -> OrgError {
        OrgError(status: 400, code: Code("XML_PARSER_ERROR"), message: "The XML body cannot be read: \(reason)")
    }
}
