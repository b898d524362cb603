import JSONCore

/// Builds the positioned tree of a JSON config file from JSONCore's reader: the line and column
/// of every value and of every character inside strings, duplicate keys reported without
/// stopping, the first syntax error with the exact offending character. Containers are kept on
/// an explicit stack and nesting is bounded by the reader, so no file can exhaust the call stack.
struct JSONSourceParser {
    private let bytes: [UInt8]
    private(set) var findings: [SourceFinding] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses the whole document.
    ///
    /// - Throws: ``SourceSyntaxError`` at the first character that is not valid JSON, or at the
    ///   bracket that nests deeper than ``ConfigLimits/maximumDepth``.
    mutating func parseDocument() throws(SourceSyntaxError) -> ConfigNode {
        typealias Outcome = Result<(ConfigNode, [SourceFinding]), SourceSyntaxError>
        let outcome = bytes.withUnsafeBufferPointer { buffer -> Outcome in
            var builder = TreeBuilder(bytes: buffer)
            do throws(SourceSyntaxError) {
                let root = try builder.build()
                return .success((root, builder.findings))
            } catch {
                return .failure(error)
            }
        }
        let (root, found) = try outcome.get()
        findings = found
        return root
    }
}

/// The tree under construction, one frame per open container.
private struct TreeBuilder {
    private struct Frame {
        var isObject: Bool
        var position: TextPosition
        var path: ConfigPath
        var members: [ConfigNode.Member] = []
        var elements: [ConfigNode] = []
        var seen: [String: TextPosition] = [:]
        var key = ""
        var keyPosition = TextPosition(line: 1, column: 1)
    }

    private var reader: JSONReader
    private var locator: JSONTextLocator
    private(set) var findings: [SourceFinding] = []
    private var nodes = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        reader = JSONReader(bytes: bytes, maximumDepth: ConfigLimits.maximumDepth)
        locator = JSONTextLocator(bytes: bytes)
    }

    mutating func build() throws(SourceSyntaxError) -> ConfigNode {
        var stack: [Frame] = []
        while true {
            guard let token = try nextToken() else {
                throw SourceSyntaxError(position: position(of: reader.offset), message: "unexpected end of file")
            }
            let start = position(of: reader.tokenStart)
            if token != .objectEnd, token != .arrayEnd, !isKey(token) {
                nodes += 1
                guard nodes <= ConfigLimits.maximumNodes else {
                    throw SourceSyntaxError(
                        position: start,
                        message: ConfigMessages.tooManyNodes(limit: ConfigLimits.maximumNodes, aliases: false),
                        code: .tooManyNodes
                    )
                }
            }
            let completed: ConfigNode
            switch token {
            case .objectStart, .arrayStart:
                let path: ConfigPath
                if let parent = stack.last {
                    path =
                        parent.isObject
                        ? parent.path.appending(parent.key) : parent.path.appending(index: parent.elements.count)
                } else {
                    path = .root
                }
                stack.append(Frame(isObject: token == .objectStart, position: start, path: path))
                continue
            case .key(let key):
                stack[stack.count - 1].key = reader.string(key)
                stack[stack.count - 1].keyPosition = start
                continue
            case .objectEnd:
                guard let frame = stack.popLast() else { continue }
                completed = ConfigNode(value: .object(frame.members), position: frame.position)
            case .arrayEnd:
                guard let frame = stack.popLast() else { continue }
                completed = ConfigNode(value: .array(frame.elements), position: frame.position)
            case .string(let string):
                var offsets: [Int] = []
                let text = reader.string(string, scalarOffsets: &offsets)
                let map = TextMap(positions: offsets.map { position(of: $0) })
                completed = ConfigNode(value: .scalar(.init(text: text, kind: .string, textMap: map)), position: start)
            case .number(let number):
                completed = scalar(reader.numberText(number), .number, at: start)
            case .bool(let flag):
                completed = scalar(flag ? "true" : "false", .bool, at: start)
            case .null:
                completed = scalar("null", .null, at: start)
            }
            guard !stack.isEmpty else {
                // The root is complete: only whitespace may follow.
                _ = try nextToken()
                return completed
            }
            attach(completed, to: &stack[stack.count - 1])
        }
    }

    private func isKey(_ token: JSONReader.Token) -> Bool {
        if case .key = token { return true }
        return false
    }

    private mutating func attach(_ node: ConfigNode, to frame: inout Frame) {
        guard frame.isObject else {
            frame.elements.append(node)
            return
        }
        if let first = frame.seen[frame.key] {
            findings.append(
                SourceFinding(
                    position: frame.keyPosition,
                    path: frame.path.appending(frame.key),
                    code: .duplicateKey,
                    message: ConfigMessages.duplicateKey(frame.key, firstLine: first.line)
                )
            )
        } else {
            frame.seen[frame.key] = frame.keyPosition
            frame.members.append(ConfigNode.Member(key: frame.key, keyPosition: frame.keyPosition, value: node))
        }
    }

    private mutating func nextToken() throws(SourceSyntaxError) -> JSONReader.Token? {
        do {
            return try reader.next()
        } catch {
            let position = TextPosition(line: error.line, column: error.column)
            switch error.kind {
            case .empty:
                throw SourceSyntaxError(position: position, message: "the file is empty; expected a JSON object")
            case .tooDeep:
                throw SourceSyntaxError(
                    position: position,
                    message: ConfigMessages.tooDeep(limit: ConfigLimits.maximumDepth),
                    code: .tooDeep
                )
            case .syntax:
                throw SourceSyntaxError(position: position, message: error.message)
            }
        }
    }

    private mutating func position(of offset: Int) -> TextPosition {
        let (line, column) = locator.position(of: offset)
        return TextPosition(line: line, column: column)
    }

    private func scalar(_ text: String, _ kind: ConfigNode.Scalar.Kind, at start: TextPosition) -> ConfigNode {
        ConfigNode(value: .scalar(.init(text: text, kind: kind, textMap: .fixed(at: start))), position: start)
    }
}
