import Foundation
import GRDB

/// Converts JSON field values from request bodies and seed files into stored SQLite values, with the
/// checks Salesforce makes (type, length, email shape, ID shape).
enum OrgValueCoercion {
    /// The stored value of `value` for `field`; empty strings clear the field, as on Salesforce.
    /// - Throws: ``OrgError`` `JSON_PARSER_ERROR` (also for a string holding a NUL character, U+0000),
    ///   `STRING_TOO_LONG`, `INVALID_EMAIL_ADDRESS`, `MALFORMED_ID`,
    ///   `INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST`.
    static func databaseValue(_ value: OrgJSONValue, for field: OrgField) throws -> DatabaseValue {
        if case .null = value { return .null }
        // SQLite text goes through C strings here (GRDB binds and reads text up to the first NUL):
        // "rest\u{0}tail" would be stored as "rest" and reported as saved. Refuse it instead.
        if case .string(let text) = value, text.utf8.contains(0) { throw OrgError.nulCharacter(field: field.name) }
        if case .string(let text) = value, text.isEmpty, field.type != .boolean { return .null }
        switch field.type {
        case .id, .reference:
            guard case .string(let text) = value else { throw typeError(field, value, expected: "id") }
            guard let id = OrgRecordID.normalize(text) else { throw OrgError.malformedID(text, field: field.name) }
            return id.databaseValue
        case .string, .textarea, .email, .phone, .url, .picklist, .multipicklist, .combobox, .encryptedString,
            .base64, .anyType:
            let text: String
            switch value {
            case .string(let string): text = string
            case .integer(let number): text = String(number)
            case .double(let number): text = OrgJSONValue.format(number)
            case .bool(let flag): text = flag ? "true" : "false"
            default: throw typeError(field, value, expected: "string")
            }
            if text.count > field.length {
                throw OrgError.stringTooLong(field: field.name, label: field.label, length: field.length)
            }
            if field.type == .email, !isEmailAddress(text) {
                throw OrgError.invalidEmail(field: field.name, label: field.label)
            }
            if field.isRestrictedPicklist {
                let chosen = field.type == .multipicklist ? text.split(separator: ";").map(String.init) : [text]
                if chosen.contains(where: { !field.picklistValues.contains($0) }) {
                    throw OrgError.restrictedPicklist(field: field.name, label: field.label)
                }
            }
            return text.databaseValue
        case .boolean:
            switch value {
            case .bool(let flag): return (flag ? 1 : 0).databaseValue
            case .string(let text) where text.lowercased() == "true": return 1.databaseValue
            case .string(let text) where text.lowercased() == "false": return 0.databaseValue
            default: throw typeError(field, value, expected: "boolean")
            }
        case .int:
            switch value {
            case .integer(let number): return number.databaseValue
            case .double(let number) where number == number.rounded() && abs(number) < 9e18:
                return Int64(number).databaseValue
            case .string(let text) where Int64(text) != nil: return Int64(text).databaseValue
            default: throw typeError(field, value, expected: "int")
            }
        case .double, .currency, .percent:
            switch value {
            case .integer(let number): return Double(number).databaseValue
            case .double(let number): return number.databaseValue
            case .string(let text) where Double(text) != nil: return Double(text).databaseValue
            default: throw typeError(field, value, expected: "double")
            }
        case .date:
            guard case .string(let text) = value else { throw typeError(field, value, expected: "date") }
            if OrgDateTime.parseDate(text) != nil { return text.databaseValue }
            guard let milliseconds = OrgDateTime.parseDateTime(text) else {
                throw typeError(field, value, expected: "date")
            }
            return OrgDateTime.formatDate(days: OrgDateTime.floorDivide(milliseconds, 86_400_000)).databaseValue
        case .datetime:
            guard case .string(let text) = value, let milliseconds = OrgDateTime.parseDateTime(text) else {
                throw typeError(field, value, expected: "datetime")
            }
            return milliseconds.databaseValue
        case .time:
            guard case .string(let text) = value, isTime(text) else { throw typeError(field, value, expected: "time") }
            return text.databaseValue
        case .json:
            if case .string(let text) = value { return text.databaseValue }
            return String(decoding: value.encoded(), as: UTF8.self).databaseValue
        case .address, .location:
            throw OrgError.notWritable([field.name])
        }
    }

    /// The JSON form of a stored value (for export and messages), following the wire formats of §1.7.
    static func jsonValue(_ value: DatabaseValue, for field: OrgField) -> OrgJSONValue {
        switch value.storage {
        case .null: return .null
        case .int64(let number):
            switch field.type {
            case .boolean: return .bool(number != 0)
            case .datetime: return .string(OrgDateTime.format(milliseconds: number))
            case .double, .currency, .percent: return .double(Double(number))
            default: return .integer(number)
            }
        case .double(let number): return field.type == .int ? .integer(Int64(number)) : .double(number)
        case .string(let text): return .string(text)
        case .blob: return .null
        }
    }

    private static func typeError(_ field: OrgField, _ value: OrgJSONValue, expected: String) -> OrgError {
        OrgError.valueType(field: field.name, expected: expected, found: value.typeName)
    }

    /// `HH:MM[:SS[.sss]]` with an optional `Z`, as the REST API writes time values (`13:30:00.000Z`).
    private static func isTime(_ text: String) -> Bool {
        var body = Substring(text)
        if body.hasSuffix("Z") { body = body.dropLast() }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return false }
        guard let hours = Int(parts[0]), (0..<24).contains(hours), parts[0].count == 2,
            let minutes = Int(parts[1]), (0..<60).contains(minutes), parts[1].count == 2
        else { return false }
        guard parts.count == 3 else { return true }
        let seconds = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard seconds[0].count == 2, let whole = Int(seconds[0]), (0..<60).contains(whole) else { return false }
        return seconds.count == 1 || (!seconds[1].isEmpty && seconds[1].allSatisfy(\.isNumber))
    }

    private static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return false }
        return !text.contains(where: { $0.isWhitespace })
    }
}
