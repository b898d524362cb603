/// A literal on the right-hand side of a comparison or in an IN list.
public enum SOQLValue: Sendable, Hashable {
    /// A single-quoted string, unescaped: `'O\'Brien'` is `.string("O'Brien")`.
    case string(String)
    /// A whole number, possibly negative: `42`, `-1`.
    case integer(Int64)
    /// A number with a fractional part, kept as written (`12.50`) so it prints back
    /// unchanged and loses no precision.
    case decimal(String)
    /// `TRUE` or `FALSE`.
    case boolean(Bool)
    /// `NULL`: with `=` / `!=` it tests whether a field is empty.
    case null
    /// A date, `2024-01-31`, for date fields.
    case date(SOQLDate)
    /// A date-time, `2024-01-31T10:00:00.000Z`, for date-time fields.
    case dateTime(SOQLDateTime)
    /// A relative date range such as `TODAY` or `LAST_N_DAYS:30`.
    case dateLiteral(SOQLDateLiteral)
}
