extension JSONReader {
    /// Reads the next value, building it with an explicit stack (no recursion).
    public mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
        enum Partial {
            case array([JSONValue])
            case object(JSONObject, key: String)
        }
        var stack: [Partial] = []
        while true {
            guard let token = try next() else {
                throw error("unexpected end of file; expected a value")
            }
            let completed: JSONValue
            switch token {
            case .objectStart:
                stack.append(.object(JSONObject(), key: ""))
                continue
            case .arrayStart:
                stack.append(.array([]))
                continue
            case .key(let key):
                if case .object(let members, _) = stack.popLast() {
                    stack.append(.object(members, key: string(key)))
                }
                continue
            case .objectEnd:
                guard case .object(let members, _) = stack.popLast() else { continue }
                completed = .object(members)
            case .arrayEnd:
                guard case .array(let elements) = stack.popLast() else { continue }
                completed = .array(elements)
            case .string(let text): completed = .string(string(text))
            case .number(let number): completed = self.number(number)
            case .bool(let flag): completed = .bool(flag)
            case .null: completed = .null
            }
            switch stack.popLast() {
            case nil: return completed
            case .array(var elements):
                elements.append(completed)
                stack.append(.array(elements))
            case .object(var members, let key):
                members[key] = completed
                stack.append(.object(members, key: key))
            }
        }
    }

    /// Reads one value that must be the whole input (whitespace aside).
    public mutating func readDocument() throws(JSONSyntaxError) -> JSONValue {
        let value = try readValue()
        _ = try next()
        return value
    }

    /// Checks that the input is one well-formed JSON document, allocating nothing for its values.
    public mutating func validateDocument() throws(JSONSyntaxError) {
        while try next() != nil {}
    }

    /// Skips the next value without building it.
    ///
    /// Scalars are read as tokens. Arrays and objects are skipped by counting brackets outside
    /// strings, so a large `records` array costs one pass over its bytes; their content is not
    /// validated (use ``next()`` to validate while skipping).
    public mutating func skipValue() throws(JSONSyntaxError) {
        let first = peekByte()
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["), canStartValue else {
            _ = try next()
            return
        }
        let start = offset
        var nesting = 0
        var index = offset
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                nesting += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                nesting -= 1
                if nesting == 0 {
                    skipped(to: index + 1, from: start)
                    return
                }
            default:
                break
            }
            index += 1
        }
        let noun = first == UInt8(ascii: "{") ? "object" : "array"
        var locator = JSONTextLocator(bytes: bytes)
        let open = locator.position(of: start)
        throw error(
            "unexpected end of file; the \(noun) opened at line \(open.line), column \(open.column) is not closed",
            at: bytes.count
        )
    }

    /// Reads an object, calling `member` with each key and the reader positioned on its value;
    /// the closure must consume that value (read or skip it).
    ///
    /// - Throws: ``JSONSyntaxError`` when the next value is not a well-formed object, or what
    ///   `member` throws.
    public mutating func readObject(_ member: (inout JSONReader, String) throws -> Void) throws {
        guard peekByte() == UInt8(ascii: "{") else {
            _ = try next()
            throw error("expected a JSON object", at: tokenStart)
        }
        _ = try next()
        let level = depth
        while let token = try next() {
            switch token {
            case .objectEnd:
                return
            case .key(let key):
                try member(&self, string(key))
                guard depth == level else {
                    throw error("a member value was not consumed", at: tokenStart)
                }
            default:
                throw error("a member value was not consumed", at: tokenStart)
            }
        }
    }
}
