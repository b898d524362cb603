/// One validating pass over the bytes of a page of server records (a query response
/// `{"records": […]}` or a JSON array): where each record starts and ends, and where the values of
/// a few top-level keys are, without building any value.
///
/// This is what lets ``DirectPageUpsert`` store records without asking SQLite to parse each one
/// again per index column. It accepts strict JSON (RFC 8259) only, a subset of what SQLite's
/// `json_valid` accepts; anything else makes ``scan(_:keys:)`` return `nil` and the caller takes
/// the SQL path, which reports the error exactly as before.
struct PageScan {
    /// The JSON type of a scanned value, and whether a string needs unescaping.
    enum Kind: UInt8 {
        case absent, null, `true`, `false`, plainString, escapedString, integer, real, object, array
    }

    /// A value's bytes: for strings the content between the quotes, otherwise the token.
    struct Value {
        var kind: Kind = .absent
        var start: Int32 = 0
        var end: Int32 = 0
    }

    /// One element of the records array.
    struct Record {
        /// The element's bytes, brackets included.
        var start: Int
        var end: Int
        /// An object without whitespace outside its strings, whose top-level keys have no escapes
        /// and none starts with `_` (so no control field or store stamp is present): its bytes are
        /// what `json_each` gives, and the control fields can be appended as text.
        var isPlainObject: Bool
        /// `{}`.
        var isEmptyObject: Bool
    }

    /// The records, in order.
    var records: [Record] = []
    /// `values[record * keyCount + key]`: the first occurrence of each wanted key.
    var values: [Value] = []
    let keyCount: Int

    /// Scans `bytes`; `nil` when it is not strict JSON, not a records array or a query page with
    /// one, or too deep.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, keys: [[UInt8]]) -> PageScan? {
        var scanner = Scanner(bytes: bytes, keys: keys)
        return scanner.scanPage()
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let keys: [[UInt8]]
        var offset = 0
        var page: PageScan
        static let maximumDepth = 512

        init(bytes: UnsafeBufferPointer<UInt8>, keys: [[UInt8]]) {
            self.bytes = bytes
            self.keys = keys
            page = PageScan(keyCount: keys.count)
        }

        @inline(__always) private var current: UInt8 { offset < bytes.count ? bytes[offset] : 0 }

        @inline(__always) private mutating func skipWhitespace() {
            while offset < bytes.count {
                let byte = bytes[offset]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                offset += 1
            }
        }

        mutating func scanPage() -> PageScan? {
            skipWhitespace()
            switch current {
            case UInt8(ascii: "["):
                guard scanRecords() else { return nil }
            case UInt8(ascii: "{"):
                offset += 1
                skipWhitespace()
                var found = false
                if current == UInt8(ascii: "}") {
                    offset += 1
                } else {
                    while true {
                        guard current == UInt8(ascii: "\"") else { return nil }
                        let keyStart = offset + 1
                        guard let key = scanString(), !key.escaped else { return nil }
                        skipWhitespace()
                        guard current == UInt8(ascii: ":") else { return nil }
                        offset += 1
                        skipWhitespace()
                        if !found, equals(keyStart, offset: key.end, "records") {
                            // json_type(?, '$.records') and json_each read the first member so named.
                            guard current == UInt8(ascii: "[") else { return nil }
                            found = true
                            guard scanRecords() else { return nil }
                        } else {
                            guard skipValue(depth: 1) else { return nil }
                        }
                        guard let more = afterMember(closing: UInt8(ascii: "}")) else { return nil }
                        if !more { break }
                    }
                }
                guard found else { return nil }
            default:
                return nil
            }
            skipWhitespace()
            return offset == bytes.count ? page : nil
        }

        private func equals(_ start: Int, offset end: Int, _ literal: StaticString) -> Bool {
            guard end - start == literal.utf8CodeUnitCount else { return false }
            let pointer = literal.utf8Start
            for index in 0..<(end - start) where bytes[start + index] != pointer[index] { return false }
            return true
        }

        /// Scans `[ record, … ]`, recording each element.
        private mutating func scanRecords() -> Bool {
            offset += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                offset += 1
                return true
            }
            page.records.reserveCapacity(2000)
            page.values.reserveCapacity(2000 * keys.count)
            while true {
                let start = offset
                if current == UInt8(ascii: "{") {
                    guard scanRecordObject() else { return false }
                } else {
                    guard skipValue(depth: 2) else { return false }
                    page.records.append(Record(start: start, end: offset, isPlainObject: false, isEmptyObject: false))
                    page.values.append(contentsOf: repeatElement(Value(), count: keys.count))
                }
                guard let more = afterMember(closing: UInt8(ascii: "]")) else { return false }
                if !more { return true }
            }
        }

        /// After a member of an object or array: skips whitespace, then a comma and the whitespace
        /// after it (`true`: another member follows) or the `closing` bracket (`false`, `offset`
        /// after it); `nil` when neither is there.
        @inline(__always) private mutating func afterMember(closing: UInt8) -> Bool? {
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
                return true
            }
            guard current == closing else { return nil }
            offset += 1
            return false
        }

        /// Scans one record object, noting its wanted members.
        private mutating func scanRecordObject() -> Bool {
            let start = offset
            let base = page.values.count
            page.values.append(contentsOf: repeatElement(Value(), count: keys.count))
            var isPlain = true
            offset += 1
            if current != UInt8(ascii: "\"") && current != UInt8(ascii: "}") { isPlain = false }
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                offset += 1
                page.records.append(Record(start: start, end: offset, isPlainObject: isPlain, isEmptyObject: true))
                return true
            }
            while true {
                guard current == UInt8(ascii: "\"") else { return false }
                let keyStart = offset + 1
                guard let key = scanString() else { return false }
                let keyEnd = key.end
                if key.escaped || bytes[keyStart] == UInt8(ascii: "_") { isPlain = false }
                if current != UInt8(ascii: ":") { isPlain = false }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return false }
                offset += 1
                if current == 0x20 || current == 0x0A || current == 0x0D || current == 0x09 { isPlain = false }
                skipWhitespace()
                let slot = wantedSlot(keyStart, keyEnd)
                let valueStart = offset
                let kind: Kind
                var contentStart = valueStart
                var contentEnd = valueStart
                switch current {
                case UInt8(ascii: "\""):
                    guard let string = scanString() else { return false }
                    kind = string.escaped ? .escapedString : .plainString
                    contentStart = valueStart + 1
                    contentEnd = string.end
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    kind = current == UInt8(ascii: "{") ? .object : .array
                    let before = offset
                    guard skipValue(depth: 3) else { return false }
                    // Nested containers are plain only without whitespace; skipValue reports it.
                    if lastSkipHadWhitespace { isPlain = false }
                    contentStart = before
                    contentEnd = offset
                default:
                    guard let scalar = scanScalar() else { return false }
                    kind = scalar
                    contentStart = valueStart
                    contentEnd = offset
                }
                if slot >= 0, page.values[base + slot].kind == .absent {
                    page.values[base + slot] = Value(kind: kind, start: Int32(contentStart), end: Int32(contentEnd))
                }
                if current == 0x20 || current == 0x0A || current == 0x0D || current == 0x09 { isPlain = false }
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    offset += 1
                    if current != UInt8(ascii: "\"") { isPlain = false }
                    skipWhitespace()
                    continue
                }
                guard current == UInt8(ascii: "}") else { return false }
                offset += 1
                page.records.append(Record(start: start, end: offset, isPlainObject: isPlain, isEmptyObject: false))
                return true
            }
        }

        @inline(__always) private func wantedSlot(_ start: Int, _ end: Int) -> Int {
            let length = end - start
            for (slot, key) in keys.enumerated() where key.count == length {
                var same = true
                for index in 0..<length where bytes[start + index] != key[index] {
                    same = false
                    break
                }
                if same { return slot }
            }
            return -1
        }

        /// Set by `skipValue` when a container it skipped had whitespace outside strings.
        var lastSkipHadWhitespace = false

        /// Skips and validates any value.
        private mutating func skipValue(depth: Int) -> Bool {
            lastSkipHadWhitespace = false
            return skip(depth: depth)
        }

        private mutating func skip(depth: Int) -> Bool {
            guard depth < Self.maximumDepth else { return false }
            switch current {
            case UInt8(ascii: "{"):
                return skipContainer(isObject: true, depth: depth)
            case UInt8(ascii: "["):
                return skipContainer(isObject: false, depth: depth)
            case UInt8(ascii: "\""):
                return scanString() != nil
            default:
                return scanScalar() != nil
            }
        }

        /// Skips and validates an object (`isObject`: members `"key": value`) or an array (values)
        /// at `offset` (on its opening bracket): the members, separated by commas, up to the closing
        /// bracket, leaving `offset` after it.
        private mutating func skipContainer(isObject: Bool, depth: Int) -> Bool {
            let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            offset += 1
            if noteWhitespace() { return false }
            if current == closing {
                offset += 1
                return true
            }
            while true {
                if isObject {
                    guard current == UInt8(ascii: "\""), scanString() != nil else { return false }
                    if noteWhitespace() { return false }
                    guard current == UInt8(ascii: ":") else { return false }
                    offset += 1
                    if noteWhitespace() { return false }
                }
                guard skip(depth: depth + 1) else { return false }
                if noteWhitespace() { return false }
                if current == UInt8(ascii: ",") {
                    offset += 1
                    if noteWhitespace() { return false }
                    continue
                }
                guard current == closing else { return false }
                offset += 1
                return true
            }
        }

        /// Skips whitespace, remembering there was some; returns `true` at the end of input.
        @inline(__always) private mutating func noteWhitespace() -> Bool {
            let before = offset
            skipWhitespace()
            if offset != before { lastSkipHadWhitespace = true }
            return offset >= bytes.count
        }

        /// Scans a string token at `offset` (on its quote); returns where its content ends and
        /// whether it has escapes, leaving `offset` after the closing quote.
        private mutating func scanString() -> (end: Int, escaped: Bool)? {
            offset += 1
            var escaped = false
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    let end = offset
                    offset += 1
                    return (end, escaped)
                }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    offset += 1
                    guard offset < bytes.count else { return nil }
                    switch bytes[offset] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    case UInt8(ascii: "u"):
                        guard offset + 4 < bytes.count else { return nil }
                        for index in 1...4 where !Self.isHex(bytes[offset + index]) { return nil }
                        offset += 4
                    default:
                        return nil
                    }
                }
                offset += 1
            }
            return nil
        }

        private static func isHex(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                true
            default: false
            }
        }

        /// Scans a number or a literal.
        private mutating func scanScalar() -> Kind? {
            switch current {
            case UInt8(ascii: "t"): return literal("true") ? .true : nil
            case UInt8(ascii: "f"): return literal("false") ? .false : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber()
            default: return nil
            }
        }

        private mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard offset + count <= bytes.count else { return false }
            for index in 0..<count where bytes[offset + index] != text.utf8Start[index] { return false }
            offset += count
            return true
        }

        @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        private mutating func scanNumber() -> Kind? {
            var kind = Kind.integer
            if current == UInt8(ascii: "-") { offset += 1 }
            guard isDigit(current) else { return nil }
            if current == UInt8(ascii: "0") {
                offset += 1
            } else {
                while isDigit(current) { offset += 1 }
            }
            if current == UInt8(ascii: ".") {
                kind = .real
                offset += 1
                guard isDigit(current) else { return nil }
                while isDigit(current) { offset += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                kind = .real
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard isDigit(current) else { return nil }
                while isDigit(current) { offset += 1 }
            }
            return kind
        }
    }
}
