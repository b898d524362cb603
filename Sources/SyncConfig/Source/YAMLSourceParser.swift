import Yams

/// Reads a YAML document into the positioned tree through Yams' node API, without resolving
/// any scalar's type: quoted and block scalars are strings, plain scalars are typed later by
/// what the model expects (YAML 1.2 core rules), so `on`, `no`, `2024-01-01` and `1e3` stay
/// strings where strings are expected.
struct YAMLSourceParser {
    private let text: String
    private let lines: [[Unicode.Scalar]]
    private(set) var findings: [SourceFinding] = []

    init(text: String) {
        self.text = text
        var lines: [[Unicode.Scalar]] = [[]]
        for scalar in text.unicodeScalars {
            if scalar == "\n" { lines.append([]) } else if scalar != "\r" { lines[lines.count - 1].append(scalar) }
        }
        self.lines = lines
    }

    /// Parses the single document of the file.
    ///
    /// - Throws: ``SourceSyntaxError`` for text that is not YAML, several documents, an empty
    ///   file or duplicate keys (which Yams refuses before building the tree).
    mutating func parseDocument() throws(SourceSyntaxError) -> ConfigNode {
        let parser: Parser
        let root: Node?
        do {
            parser = try Parser(yaml: text, resolver: .basic, constructor: .default, encoding: .utf8)
            root = try parser.singleRoot()
        } catch let error as YamlError {
            throw syntaxError(from: error)
        } catch {
            throw SourceSyntaxError(position: TextPosition(line: 1, column: 1), message: "invalid YAML: \(error)")
        }
        guard let root else {
            throw SourceSyntaxError(
                position: TextPosition(line: 1, column: 1),
                message: "the file is empty; expected a YAML mapping"
            )
        }
        // Yams shares an anchored node among its aliases; the parser owns the anchors that tell
        // them apart, so it must live until the tree has been measured.
        try withExtendedLifetime(parser) { () throws(SourceSyntaxError) in
            var measure = ExpansionMeasure()
            _ = try measure.measure(root, depth: 1)
        }
        return convert(root, path: .root)
    }

    // MARK: - Limits

    /// Counts what the tree becomes once aliases are expanded, without expanding them: the size
    /// of each anchored node is computed once and added again for every alias of it. Throws at
    /// the first node past a limit of ``ConfigLimits``.
    private struct ExpansionMeasure {
        struct Size {
            var nodes = 0
            var bytes = 0
            var height = 0
        }

        private var seen: [ObjectIdentifier: Size] = [:]
        private var nodes = 0
        private var bytes = 0

        mutating func measure(_ node: Node, depth: Int) throws(SourceSyntaxError) -> Int {
            if let anchor = node.anchor, let size = seen[ObjectIdentifier(anchor)] {
                nodes += size.nodes
                bytes += size.bytes
                try check(node, height: depth + size.height - 1)
                return size.height
            }
            let before = (nodes, bytes)
            nodes += 1
            var height = 1
            switch node {
            case .scalar(let scalar):
                bytes += scalar.string.utf8.count
                try check(node, height: depth)
            case .sequence(let sequence):
                try check(node, height: depth)
                for element in sequence {
                    height = max(height, 1 + (try measure(element, depth: depth + 1)))
                }
            case .mapping(let mapping):
                try check(node, height: depth)
                for (key, value) in mapping {
                    height = max(height, 1 + (try measure(key, depth: depth + 1)))
                    height = max(height, 1 + (try measure(value, depth: depth + 1)))
                }
            case .alias:
                try check(node, height: depth)
            }
            if let anchor = node.anchor {
                seen[ObjectIdentifier(anchor)] = Size(nodes: nodes - before.0, bytes: bytes - before.1, height: height)
            }
            return height
        }

        private func check(_ node: Node, height: Int) throws(SourceSyntaxError) {
            let position =
                node.mark.map { TextPosition(line: $0.line, column: $0.column) }
                ?? TextPosition(line: 1, column: 1)
            if height > ConfigLimits.maximumDepth {
                throw SourceSyntaxError(
                    position: position,
                    message: ConfigMessages.tooDeep(limit: ConfigLimits.maximumDepth),
                    code: .tooDeep
                )
            }
            if nodes > ConfigLimits.maximumNodes {
                throw SourceSyntaxError(
                    position: position,
                    message: ConfigMessages.tooManyNodes(limit: ConfigLimits.maximumNodes, aliases: true),
                    code: .tooManyNodes
                )
            }
            if bytes > ConfigLimits.maximumBytes {
                throw SourceSyntaxError(
                    position: position,
                    message: ConfigMessages.expandsTooLarge(limit: ConfigLimits.maximumBytes),
                    code: .fileTooLarge
                )
            }
        }
    }

    // MARK: - Nodes

    private mutating func convert(_ node: Node, path: ConfigPath) -> ConfigNode {
        let position =
            node.mark.map { TextPosition(line: $0.line, column: $0.column) } ?? TextPosition(line: 1, column: 1)
        switch node {
        case .scalar(let scalar):
            return ConfigNode(value: .scalar(convert(scalar, at: position)), position: position)
        case .sequence(let sequence):
            let elements = sequence.enumerated().map { index, element in
                convert(element, path: path.appending(index: index))
            }
            return ConfigNode(value: .array(elements), position: position)
        case .mapping(let mapping):
            var members: [ConfigNode.Member] = []
            var merged: [ConfigNode.Member] = []
            for (key, value) in mapping {
                let keyPosition = key.mark.map { TextPosition(line: $0.line, column: $0.column) } ?? position
                guard case .scalar(let keyScalar) = key else {
                    findings.append(
                        SourceFinding(
                            position: keyPosition,
                            path: path,
                            code: .typeMismatch,
                            message: ConfigMessages.nonScalarKey
                        )
                    )
                    continue
                }
                if keyScalar.string == "<<", keyScalar.style == .plain {
                    merged += mergeSources(value).flatMap { convert($0, path: path).objectMembers }
                    continue
                }
                let member = ConfigNode.Member(
                    key: keyScalar.string,
                    keyPosition: keyPosition,
                    value: convert(value, path: path.appending(keyScalar.string))
                )
                members.append(member)
            }
            // Merge keys (`<<: *defaults`) add the keys the mapping does not set itself.
            for member in merged where !members.contains(where: { $0.key == member.key }) {
                members.append(member)
            }
            return ConfigNode(value: .object(members), position: position)
        case .alias:
            // Yams replaces aliases by the anchored node while composing; nothing reaches here.
            return ConfigNode(
                value: .scalar(.init(text: "", kind: .null, textMap: .fixed(at: position))),
                position: position
            )
        }
    }

    /// The mappings a merge key brings in: one mapping, or a sequence of them (earlier wins).
    private func mergeSources(_ value: Node) -> [Node] {
        switch value {
        case .mapping: [value]
        case .sequence(let sequence): sequence.filter { $0.mapping != nil }
        default: []
        }
    }

    private func convert(_ scalar: Node.Scalar, at position: TextPosition) -> ConfigNode.Scalar {
        let tag = scalar.tag.rawValue
        let kind: ConfigNode.Scalar.Kind
        switch scalar.style {
        case .plain, .any:
            kind = tag.isEmpty ? .plain : (tag == Tag.Name.str.rawValue || tag == "!" ? .string : .plain)
        case .singleQuoted, .doubleQuoted, .literal, .folded:
            kind = .string
        }
        return ConfigNode.Scalar(text: scalar.string, kind: kind, textMap: textMap(for: scalar, at: position))
    }

    // MARK: - Positions inside scalars

    /// Follows the scalar through the source, character by character, undoing quoting,
    /// escapes and line folding; falls back to the nearest known position where it cannot.
    private func textMap(for scalar: Node.Scalar, at start: TextPosition) -> TextMap {
        var line = start.line - 1
        var column = start.column - 1
        var blockIndent: Int?
        switch scalar.style {
        case .singleQuoted, .doubleQuoted:
            column += 1
        case .literal, .folded:
            line += 1
            while line < lines.count, lines[line].allSatisfy({ $0 == " " }), line + 1 < lines.count { line += 1 }
            let indent = line < lines.count ? lines[line].prefix { $0 == " " }.count : 0
            blockIndent = indent
            column = indent
        case .plain, .any:
            break
        }
        var positions: [TextPosition] = []
        func here() -> TextPosition { TextPosition(line: line + 1, column: column + 1) }
        func nextLine() {
            line += 1
            let limit = blockIndent ?? Int.max
            column = 0
            while line < lines.count, column < lines[line].count, column < limit,
                lines[line][column] == " " || lines[line][column] == "\t"
            {
                column += 1
            }
        }
        for decoded in scalar.string.unicodeScalars {
            guard line < lines.count else {
                positions.append(here())
                continue
            }
            if column >= lines[line].count {
                positions.append(here())
                nextLine()
                continue
            }
            let source = lines[line][column]
            if scalar.style == .doubleQuoted, source == "\\" {
                positions.append(here())
                let next = column + 1 < lines[line].count ? lines[line][column + 1] : nil
                switch next {
                case "u": column += 6
                case "U": column += 10
                case "x": column += 4
                default: column += 2
                }
                continue
            }
            if scalar.style == .singleQuoted, source == "'" {
                positions.append(here())
                column += 2
                continue
            }
            if source != decoded, decoded != " ", decoded != "\n" {
                // Trailing spaces folded away: skip to the character that matches.
                var probeLine = line
                var probeColumn = column
                while probeLine < lines.count, probeLine <= line + 1 {
                    if probeColumn >= lines[probeLine].count {
                        probeLine += 1
                        probeColumn = 0
                        continue
                    }
                    if lines[probeLine][probeColumn] == decoded { break }
                    probeColumn += 1
                }
                if probeLine < lines.count, probeColumn < lines[probeLine].count {
                    line = probeLine
                    column = probeColumn
                }
            }
            positions.append(here())
            column += 1
        }
        positions.append(here())
        return TextMap(positions: positions)
    }

    // MARK: - Errors

    private func syntaxError(from error: YamlError) -> SourceSyntaxError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            // libyaml stops at 1,000 levels, before the composer could recurse any deeper.
            if problem.hasPrefix("Maximum nesting level reached") {
                return SourceSyntaxError(
                    position: TextPosition(line: mark.line, column: mark.column),
                    message: ConfigMessages.tooDeep(limit: ConfigLimits.maximumDepth),
                    code: .tooDeep
                )
            }
            if problem == "but found another document" {
                return SourceSyntaxError(
                    position: TextPosition(line: mark.line, column: mark.column),
                    message: ConfigMessages.yamlSeveralDocuments
                )
            }
            return SourceSyntaxError(
                position: TextPosition(line: mark.line, column: mark.column),
                message: ConfigMessages.yamlSyntax(
                    problem: problem,
                    context: context.map {
                        ($0.text, $0.mark.line, $0.mark.column)
                    }
                )
            )
        case .reader(let problem, let offset, _, _):
            return SourceSyntaxError(
                position: position(ofCharacterOffset: offset ?? 0),
                message: "invalid YAML: \(problem)"
            )
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let first = TextPosition(line: context.mark.line, column: context.mark.column)
            return SourceSyntaxError(
                position: repeatedKeyPosition(key, after: first) ?? first,
                message: ConfigMessages.duplicateKey(key, firstLine: first.line),
                code: .duplicateKey
            )
        default:
            return SourceSyntaxError(position: TextPosition(line: 1, column: 1), message: "invalid YAML: \(error)")
        }
    }

    /// Where a key Yams reported as duplicated appears again at the same indentation.
    private func repeatedKeyPosition(_ key: String, after first: TextPosition) -> TextPosition? {
        let column = first.column - 1
        let spellings = [key + ":", "\"" + key + "\":", "'" + key + "':"]
        for line in first.line..<lines.count {
            let text = lines[line]
            guard column < text.count else { continue }
            let rest = String(String.UnicodeScalarView(text[column...]))
            if spellings.contains(where: { rest.hasPrefix($0) }) {
                return TextPosition(line: line + 1, column: column + 1)
            }
        }
        return nil
    }

    private func position(ofCharacterOffset offset: Int) -> TextPosition {
        var line = 1
        var column = 1
        for (index, character) in text.enumerated() {
            if index >= offset { break }
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return TextPosition(line: line, column: column)
    }
}
