import OrgClient
import SOQL
import SyncEngine

/// What the migration does with one source record: the decide step's value, which the apply step
/// writes (and a dry run prints).
public enum RecordAction: Sendable, Hashable {
    /// No counterpart in the target: create it with these fields.
    case create(fields: [String: OrgValue])
    /// Upsert by the external id field (which `fields` holds).
    case upsert(fields: [String: OrgValue])
    /// The counterpart `targetID` differs: update these fields.
    case update(targetID: String, fields: [String: OrgValue])
    /// The counterpart already holds the values.
    case unchanged(targetID: String)
    /// A required parent of the same object is not written yet (parent-first order).
    case wait
    /// Left out, with the reason.
    case fail(String)
}

/// One record's decision.
public struct RecordDecision: Sendable, Hashable {
    /// The record's id in the source org.
    public var sourceID: String
    public var action: RecordAction
    /// Whether the id map already pairs the record with the target id of the action.
    public var isMapped: Bool

    public init(sourceID: String, action: RecordAction, isMapped: Bool = false) {
        self.sourceID = sourceID
        self.action = action
        self.isMapped = isMapped
    }
}

/// Value comparisons and key building shared by decide and recovery.
enum Values {
    /// Whether `target` holds every value of `body` (numbers as numbers, date-times as instants).
    static func holds(_ target: [String: OrgValue], _ body: [String: OrgValue]) -> Bool {
        SyncUpCreateRecovery.matches(target, sent: body)
    }

    /// A comparable form of a key value: text compared case-insensitively (as SOQL `=` does),
    /// numbers as numbers.
    static func keyText(_ value: OrgValue?) -> String {
        guard let value, !value.isNull else { return "\u{0}" }
        if let text = value.stringValue { return "s" + text.lowercased() }
        if let number = value.doubleValue { return "n\(number)" }
        if let flag = value.boolValue { return "b\(flag)" }
        return "j" + value.jsonText
    }

    /// A key value as a SOQL literal (quoted by the SOQL printer), typed by the target field.
    static func literal(_ value: OrgValue?, fieldType: String?) -> SOQLValue {
        guard let value, !value.isNull else { return .null }
        if let flag = value.boolValue { return .boolean(flag) }
        if let integer = value.integerValue, value.stringValue == nil { return .integer(integer) }
        if let number = value.doubleValue, value.stringValue == nil { return .decimal(String(number)) }
        let text = value.stringValue ?? value.jsonText
        switch fieldType {
        case "date": if let date = SOQLDate(text: text) { return .date(date) }
        case "datetime": if let stamp = SOQLDateTime(text: text) { return .dateTime(stamp) }
        case "int", "double", "currency", "percent":
            if let integer = Int64(text) { return .integer(integer) }
            if Double(text) != nil { return .decimal(text) }
        default: break
        }
        return .string(text)
    }
}
