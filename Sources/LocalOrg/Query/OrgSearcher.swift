import Foundation

/// SOSL search over the local org (salesforce-rest.md §8.1), for the subset
/// `FIND {term} [IN ALL|NAME|EMAIL|PHONE FIELDS] [RETURNING Object[(fields [WHERE …] [ORDER BY …] [LIMIT n])], …] [LIMIT n]`.
///
/// The term matches as a case-insensitive substring (`*` and `?` are wildcards). Each RETURNING entry
/// runs as a SOQL query, so its field list, WHERE, ORDER BY and LIMIT follow the SOQL rules.
struct OrgSearcher {
    let writer: OrgWriter

    private struct Target {
        var object: String
        var fields: String
        var tail: String
    }

    func search(_ sosl: String, apiVersion: String) throws -> Data {
        var scanner = Substring(sosl.trimmingCharacters(in: .whitespacesAndNewlines))
        guard consume("FIND", from: &scanner) else {
            throw OrgError.malformedSearch("a search must start with FIND {term}")
        }
        skipSpaces(&scanner)
        let term = try readTerm(&scanner)
        var scope = "ALL"
        if consume("IN", from: &scanner) {
            skipSpaces(&scanner)
            let word = readWord(&scanner).uppercased()
            guard ["ALL", "NAME", "EMAIL", "PHONE", "SIDEBAR"].contains(word), consume("FIELDS", from: &scanner) else {
                throw OrgError.malformedSearch("expected ALL, NAME, EMAIL or PHONE FIELDS after IN")
            }
            scope = word == "SIDEBAR" ? "ALL" : word
        }
        var targets: [Target] = []
        if consume("RETURNING", from: &scanner) {
            repeat {
                skipSpaces(&scanner)
                let object = readWord(&scanner)
                guard !object.isEmpty else { throw OrgError.malformedSearch("expected an object name after RETURNING") }
                var target = Target(object: object, fields: "Id", tail: "")
                skipSpaces(&scanner)
                if scanner.first == "(" {
                    guard let close = scanner.firstIndex(of: ")") else {
                        throw OrgError.malformedSearch("missing ')' after the fields of '\(object)'")
                    }
                    let inner = String(scanner[scanner.index(after: scanner.startIndex)..<close])
                    scanner = scanner[scanner.index(after: close)...]
                    (target.fields, target.tail) = splitReturning(inner)
                }
                targets.append(target)
                skipSpaces(&scanner)
            } while consume(",", from: &scanner)
        } else {
            targets = writer.context.schema.objects.filter { $0.nameField != nil && $0.name != "Organization" }
                .map { Target(object: $0.name, fields: "Id", tail: "") }
        }
        var limit = 2000
        if consume("LIMIT", from: &scanner) {
            skipSpaces(&scanner)
            guard let value = Int(readWord(&scanner)), value >= 0 else {
                throw OrgError.malformedSearch("LIMIT needs a number")
            }
            limit = min(value, 2000)
        }
        skipSpaces(&scanner)
        guard scanner.isEmpty else { throw OrgError.malformedSearch("unexpected text '\(scanner.prefix(20))'") }
        var records: [Data] = []
        for target in targets {
            guard limit > 0 else { break }
            let object = try writer.context.queryObject(target.object)
            let fields = searchFields(of: object, scope: scope)
            let pattern = "'%" + escape(term) + "%'"
            let match =
                fields.isEmpty ? "Id = null" : fields.map { "\($0.name) LIKE \(pattern)" }.joined(separator: " OR ")
            let (condition, rest) = splitWhere(target.tail)
            let filter = condition.map { "(\(match)) AND (\($0))" } ?? "(\(match))"
            let soql = "SELECT \(target.fields) FROM \(object.name) WHERE \(filter) \(rest)"
            let json = try OrgQueryRunner(db: writer.db, context: writer.context)
                .recordsJSON(soql, apiVersion: apiVersion, maximum: limit)
            limit -= try countRecords(json)
            records.append(json)
        }
        var body = Data("{\"searchRecords\":[".utf8)
        var first = true
        for json in records where json.count > 2 {
            if !first { body.append(UInt8(ascii: ",")) }
            body.append(json.dropFirst().dropLast())
            first = false
        }
        body.append(contentsOf: Array("]}".utf8))
        return body
    }

    private func searchFields(of object: OrgObject, scope: String) -> [OrgField] {
        switch scope {
        case "NAME":
            let names: Set<String> = ["name", "firstname", "lastname", "company", "subject", "casenumber", "username"]
            return object.fields.filter { names.contains($0.name.lowercased()) }
        case "EMAIL": return object.fields.filter { $0.type == .email }
        case "PHONE": return object.fields.filter { $0.type == .phone }
        default: return object.fields.filter { $0.type.isText && $0.type != .multipicklist }
        }
    }

    private func countRecords(_ json: Data) throws -> Int {
        guard case .array(let items) = try OrgJSONValue.decode(json) else { return 0 }
        return items.count
    }

    /// The search term inside braces, with SOSL wildcards turned into LIKE wildcards.
    private func readTerm(_ scanner: inout Substring) throws -> String {
        guard scanner.first == "{", let close = scanner.firstIndex(of: "}") else {
            throw OrgError.malformedSearch("the search term must be enclosed in braces: FIND {term}")
        }
        var term = String(scanner[scanner.index(after: scanner.startIndex)..<close])
        scanner = scanner[scanner.index(after: close)...]
        term = term.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        guard term.replacingOccurrences(of: "*", with: "").count >= 2 else {
            throw OrgError.malformedSearch("search term must be longer than one character: \(term)")
        }
        return term
    }

    /// Escapes a term for a SOQL LIKE literal, mapping `*` → `%` and `?` → `_`.
    private func escape(_ term: String) -> String {
        var result = ""
        for character in term {
            switch character {
            case "*": result += "%"
            case "?": result += "_"
            case "%", "_": result += "\\" + String(character)
            case "'": result += "\\'"
            case "\\": result += "\\\\"
            default: result.append(character)
            }
        }
        return result
    }

    /// Splits `Id, Name WHERE … ORDER BY … LIMIT n` into the field list and the rest.
    private func splitReturning(_ text: String) -> (String, String) {
        let upper = text.uppercased()
        let keywords = [" WHERE ", " ORDER BY ", " LIMIT "]
        let cut = keywords.compactMap { upper.range(of: $0)?.lowerBound }.min()
        guard let cut else { return (text.trimmingCharacters(in: .whitespaces), "") }
        let offset = upper.distance(from: upper.startIndex, to: cut)
        let index = text.index(text.startIndex, offsetBy: offset)
        return (String(text[..<index]).trimmingCharacters(in: .whitespaces), String(text[index...]))
    }

    /// Splits `WHERE cond ORDER BY … LIMIT n` into the condition and the rest.
    private func splitWhere(_ tail: String) -> (String?, String) {
        let trimmed = tail.trimmingCharacters(in: .whitespaces)
        guard trimmed.uppercased().hasPrefix("WHERE ") else { return (nil, trimmed) }
        let body = String(trimmed.dropFirst(6))
        let upper = body.uppercased()
        let cut = [" ORDER BY ", " LIMIT "].compactMap { upper.range(of: $0)?.lowerBound }.min()
        guard let cut else { return (body, "") }
        let index = body.index(body.startIndex, offsetBy: upper.distance(from: upper.startIndex, to: cut))
        return (String(body[..<index]), String(body[index...]))
    }

    private func consume(_ word: String, from scanner: inout Substring) -> Bool {
        skipSpaces(&scanner)
        guard scanner.uppercased().hasPrefix(word) else { return false }
        let after = scanner.dropFirst(word.count)
        if word.first?.isLetter == true, let next = after.first, next.isLetter || next.isNumber || next == "_" {
            return false
        }
        scanner = after
        return true
    }

    private func readWord(_ scanner: inout Substring) -> String {
        let word = scanner.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        scanner = scanner.dropFirst(word.count)
        return String(word)
    }

    private func skipSpaces(_ scanner: inout Substring) {
        scanner = scanner.drop { $0.isWhitespace }
    }
}
