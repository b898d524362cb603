import Foundation

/// Translation of Smart SQL into SQLite SQL (store.md §5.4).
///
/// `{soup}` becomes `TABLE_N`; `{soup:_soup}`, `{soup:_soupEntryId}`, `{soup:_soupCreatedDate}`
/// and `{soup:_soupLastModifiedDate}` become `TABLE_N.soup`, `.id`, `.created`, `.lastModified`
/// (unprefixed after `alias.`); an indexed path becomes its column (or `json1` expression), any
/// other path `json_extract(soup, '$.path')`. Paths must be plain dotted paths, so nothing a
/// caller writes inside braces can inject SQL; values are never spliced (use `?` and bind them).
/// Only `SELECT` and `WITH` statements are accepted, and only one statement.
package enum SmartSQL {
    /// Translates `smartSQL`, resolving soups through `layouts` (nil for an unknown soup).
    package static func translate(_ smartSQL: String, layouts: (String) throws -> SoupLayout?) throws -> String {
        let trimmed = smartSQL.trimmingCharacters(in: .whitespacesAndNewlines)
        let lowered = trimmed.lowercased()
        guard lowered.hasPrefix("select") || lowered.hasPrefix("with") else {
            throw SoupStoreError.invalidQuery("only SELECT (or WITH … SELECT) queries are allowed")
        }
        var cache: [String: SoupLayout] = [:]
        func resolve(_ soup: String, at offset: Int) throws -> SoupLayout {
            if let layout = cache[soup] { return layout }
            guard let layout = try layouts(soup) else {
                throw SoupStoreError.invalidQuery("unknown soup '\(soup)' at character \(offset)")
            }
            cache[soup] = layout
            return layout
        }

        let characters = Array(trimmed)
        var output = ""
        output.reserveCapacity(characters.count + 64)
        var position = 0
        var inLiteral = false
        var literalIsMatch = false
        while position < characters.count {
            let character = characters[position]
            if inLiteral {
                if character == "'" {
                    if position + 1 < characters.count, characters[position + 1] == "'" {
                        output += "''"
                        position += 2
                        continue
                    }
                    inLiteral = false
                    output.append(character)
                    position += 1
                    continue
                }
                if character != "{" || !literalIsMatch {
                    output.append(character)
                    position += 1
                    continue
                }
            } else if character == "'" {
                inLiteral = true
                literalIsMatch = output.trimmingCharacters(in: .whitespaces).lowercased().hasSuffix("match")
                output.append(character)
                position += 1
                continue
            } else if character == ";" {
                let rest = String(characters[(position + 1)...]).trimmingCharacters(in: .whitespacesAndNewlines)
                guard rest.isEmpty else {
                    throw SoupStoreError.invalidQuery(
                        "only one statement is allowed (found ';' at character \(position + 1))"
                    )
                }
                position += 1
                continue
            }
            guard character == "{" else {
                output.append(character)
                position += 1
                continue
            }
            guard let close = characters[position...].firstIndex(of: "}") else {
                throw SoupStoreError.invalidQuery("'{' at character \(position + 1) is never closed")
            }
            let group = String(characters[(position + 1)..<close])
            let afterDot = position > 0 && characters[position - 1] == "."
            output += try reference(group, afterDot: afterDot, at: position + 1, resolve: resolve)
            position = close + 1
        }
        return rewriteAliasedExtracts(output)
    }

    private static func reference(
        _ group: String,
        afterDot: Bool,
        at offset: Int,
        resolve: (String, Int) throws -> SoupLayout
    ) throws -> String {
        let parts = group.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1:
            return try resolve(parts[0], offset).tableName
        case 2:
            let layout = try resolve(parts[0], offset)
            let path = parts[1]
            switch path {
            case SoupPath.wholeSoup, SoupPath.entryID, SoupPath.created, SoupPath.lastModified:
                let qualified = layout.expression(forPath: path)
                return afterDot ? String(qualified.dropFirst(layout.tableName.count + 1)) : qualified
            default:
                guard SoupPath.isValid(path) else {
                    throw SoupStoreError.invalidPath(path)
                }
                return layout.expression(forPath: path)
            }
        default:
            throw SoupStoreError.invalidQuery("'{\(group)}' at character \(offset) has more than one ':'")
        }
    }

    /// `alias.json_extract(soup` → `json_extract(alias.soup` (store.md §5.4 rule 5).
    private static func rewriteAliasedExtracts(_ sql: String) -> String {
        let marker = ".json_extract(soup"
        guard sql.contains(marker) else { return sql }
        var result = ""
        var rest = Substring(sql)
        while let range = rest.range(of: marker) {
            var before = rest[..<range.lowerBound]
            var word = ""
            while let last = before.last, last.isLetter || last.isNumber || last == "_" {
                word.insert(last, at: word.startIndex)
                before = before.dropLast()
            }
            if word.isEmpty {
                result += rest[..<range.upperBound]
            } else {
                result += before + "json_extract(\(word).soup"
            }
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
