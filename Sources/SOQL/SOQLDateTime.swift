/// A date-time literal, such as `2024-03-05T17:04:11.000Z` or `2024-03-05T18:04:11+01:00`.
///
/// The instant is normalised to milliseconds since the epoch (UTC); the text is kept as
/// written so a parsed query prints back unchanged. Two literals naming the same instant
/// with different offsets are different literals (their text differs) but compare equal
/// through ``millisecondsSinceEpoch``.
public struct SOQLDateTime: Sendable, Hashable {
    /// The instant, in milliseconds since 1970-01-01T00:00:00Z. Fractions of a millisecond
    /// are truncated.
    public var millisecondsSinceEpoch: Int64
    /// The literal as written, or the canonical UTC form for a value built in code.
    public var text: String

    /// Creates the literal for an instant, written in UTC with milliseconds and a `Z`:
    /// `2024-03-05T17:04:11.000Z`.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
        self.text = SalesforceDateTime.soqlLiteral(milliseconds: millisecondsSinceEpoch)
    }

    /// Parses a SOQL date-time literal: `yyyy-MM-ddTHH:mm:ss`, optional fractional seconds,
    /// then `Z`, `±hh:mm` or `±hhmm`. Returns `nil` for anything else, including a missing
    /// time zone.
    public init?(text: String) {
        guard let parsed = SalesforceDateTime.parse(text), parsed.hasTimeZone else { return nil }
        self.millisecondsSinceEpoch = parsed.milliseconds
        self.text = text
    }
}

extension SOQLDateTime: CustomStringConvertible {
    /// The literal as written.
    public var description: String { text }
}
