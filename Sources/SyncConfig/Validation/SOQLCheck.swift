import SOQL

/// Checks the query of a SOQL sync down target: it parses (errors point at the exact character
/// in the file), it selects the id and modification-date fields, the org accepts its forms
/// (warnings otherwise), and it has no LIMIT / OFFSET when ghost cleaning will run against it.
struct SOQLCheck {
    let context: DecodingContext

    func check(_ query: String, node: ConfigNode, path: ConfigPath, target: SyncDownTarget, cleanGhosts: Bool) {
        guard case .scalar(let scalar) = node.value else { return }
        let map = scalar.textMap
        let parsed: SOQLQuery
        do {
            parsed = try SOQLQuery.parse(query)
        } catch let error as SOQLError {
            // "End of query" errors point just past the last character, not at trailing blanks.
            let contentEnd = query.utf8.count - query.reversed().prefix { $0.isWhitespace }.utf8Count
            let offset = min(error.utf8Offset, contentEnd)
            context.error(
                .soqlSyntax,
                at: map.position(ofUTF8Offset: offset, in: query),
                path: path,
                ConfigMessages.soqlSyntax(error.message)
            )
            return
        } catch {
            context.error(
                .soqlSyntax,
                at: node.position,
                path: path,
                ConfigMessages.soqlSyntax(String(describing: error))
            )
            return
        }
        let start = map.position(ofUTF8Offset: 0, in: query)
        if !parsed.selects(target.idFieldName) {
            context.warning(
                .soqlMissingIDField,
                at: start,
                path: path,
                ConfigMessages.soqlMissingField(
                    target.idFieldName,
                    key: "idFieldName",
                    purpose: "records are stored, resynced and ghost-cleaned by it"
                )
            )
        }
        if !parsed.selects(target.modificationDateFieldName) {
            context.warning(
                .soqlMissingModificationDateField,
                at: start,
                path: path,
                ConfigMessages.soqlMissingField(
                    target.modificationDateFieldName,
                    key: "modificationDateFieldName",
                    purpose: "resync and conflict detection compare it"
                )
            )
        }
        for restriction in parsed.orgRestrictions {
            let offset = restriction.sourceRange?.utf8Offset ?? 0
            context.warning(
                .soqlOrgRefuses,
                at: map.position(ofUTF8Offset: offset, in: query),
                path: path,
                ConfigMessages.soqlOrgRefuses(restriction.message)
            )
        }
        if cleanGhosts, parsed.limit != nil || parsed.offset != nil {
            context.warning(
                .ghostCleaningLimit,
                at: limitPosition(in: query, map: map) ?? start,
                path: path,
                ConfigMessages.ghostCleaningLimit
            )
        }
    }

    /// Checks a parent_children target's `parentSoqlFilter` for forms the org refuses, as the
    /// condition of the target's queries: `SELECT <id> FROM <parent> WHERE <filter>`, and the
    /// resync query, which adds one semi-join (the parents of changed children). A filter that
    /// does not parse is reported when the sync runs.
    func checkParentFilter(_ filter: String, node: ConfigNode, path: ConfigPath, parent: ParentInfo) {
        guard case .scalar(let scalar) = node.value, !filter.allSatisfy(\.isWhitespace) else { return }
        let prefix = "SELECT \(parent.idFieldName) FROM \(parent.sobjectType) WHERE "
        guard let parsed = try? SOQLQuery.parse(prefix + filter) else { return }
        let map = scalar.textMap
        func position(_ range: SOQLSourceRange?) -> TextPosition {
            let offset = max((range?.utf8Offset ?? 0) - prefix.utf8.count, 0)
            return map.position(ofUTF8Offset: offset, in: filter)
        }
        for restriction in parsed.orgRestrictions {
            context.warning(
                .soqlOrgRefuses,
                at: position(restriction.sourceRange),
                path: path,
                ConfigMessages.soqlOrgRefuses(restriction.message)
            )
        }
        let joins = parsed.condition?.semiJoinCount ?? 0
        if joins == SOQLQuery.maximumSemiJoins {
            context.warning(
                .soqlOrgRefuses,
                at: position(nil),
                path: path,
                ConfigMessages.soqlOrgRefuses(
                    "the org refuses more than \(SOQLQuery.maximumSemiJoins) semi-joins in one WHERE clause, and a "
                        + "resync adds one to this filter's \(joins) (the parents of changed children)"
                )
            )
        }
    }

    /// Where the top-level `LIMIT` (or `OFFSET`) keyword is, outside quotes and parentheses.
    private func limitPosition(in query: String, map: TextMap) -> TextPosition? {
        let bytes = Array(query.utf8)
        var depth = 0
        var inQuote = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inQuote {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "'") { inQuote = false }
            } else if byte == UInt8(ascii: "'") {
                inQuote = true
            } else if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                depth -= 1
            } else if depth == 0, index == 0 || !isWordByte(bytes[index - 1]) {
                for keyword in ["limit", "offset"] where matches(keyword, bytes: bytes, at: index) {
                    return map.position(ofUTF8Offset: index, in: query)
                }
            }
            index += 1
        }
        return nil
    }

    private func matches(_ keyword: String, bytes: [UInt8], at index: Int) -> Bool {
        let word = Array(keyword.utf8)
        guard index + word.count <= bytes.count else { return false }
        for (offset, expected) in word.enumerated() where bytes[index + offset] | 0x20 != expected {
            return false
        }
        return index + word.count == bytes.count || !isWordByte(bytes[index + word.count])
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }
}

extension Sequence<Character> {
    /// The number of UTF-8 bytes of these characters.
    fileprivate var utf8Count: Int { reduce(0) { $0 + $1.utf8.count } }
}
