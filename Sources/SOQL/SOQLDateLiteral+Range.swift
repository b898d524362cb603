extension SOQLDateLiteral {
    /// The instants the literal denotes at `now`, as `[start, end)` in milliseconds since
    /// the epoch, computed in UTC.
    ///
    /// Every range starts at midnight. Weeks start on Sunday; quarters are calendar
    /// quarters. `LAST_N_DAYS:n` (and `LAST_90_DAYS`) covers today and the `n` days before
    /// it; `NEXT_N_DAYS:n` the `n` days after today. The other `LAST_N_…:n` cover the `n`
    /// whole periods before the current one, `NEXT_N_…:n` the `n` after it, and
    /// `N_…_AGO:n` the single period `n` periods back.
    ///
    /// `field = literal` matches values inside the range; `field < literal` compares with
    /// its start and `field > literal` with its end.
    ///
    /// - Parameter now: the current instant, in milliseconds since the epoch.
    /// - Returns: the half-open range of instants.
    public func range(at now: Int64) -> Range<Int64> {
        let definition = definition
        let count = Int64(n ?? definition.impliedN ?? 1)
        let today = CivilCalendar.floorDivide(now, CivilCalendar.millisecondsPerDay)
        let bounds: (Int64, Int64)
        switch definition.relation {
        case .this: bounds = (0, 1)
        case .last: bounds = (-1, 0)
        case .next: bounds = (1, 2)
        case .lastN: bounds = (-count, definition.unit == .day ? 1 : 0)
        case .nextN: bounds = (1, count + 1)
        case .ago: bounds = (-count, -count + 1)
        }
        let start = Self.startDay(of: definition.unit, containing: today, shiftedBy: bounds.0)
        let end = Self.startDay(of: definition.unit, containing: today, shiftedBy: bounds.1)
        return (start * CivilCalendar.millisecondsPerDay)..<(end * CivilCalendar.millisecondsPerDay)
    }

    /// The first day of the period `shift` periods after the one containing `day`.
    private static func startDay(of unit: Unit, containing day: Int64, shiftedBy shift: Int64) -> Int64 {
        switch unit {
        case .day:
            return day + shift
        case .week:
            // 1970-01-01 was a Thursday, four days after a Sunday.
            let sunday = day - (((day + 4) % 7) + 7) % 7
            return sunday + 7 * shift
        case .month, .quarter, .year:
            let months: Int64 = unit == .month ? 1 : unit == .quarter ? 3 : 12
            let date = SOQLDate(daysSinceEpoch: day)
            let monthIndex = Int64(date.year) * 12 + Int64(date.month - 1)
            let periodStart = monthIndex - CivilCalendar.floorModulo(monthIndex, months) + shift * months
            let year = CivilCalendar.floorDivide(periodStart, 12)
            let month = periodStart - year * 12 + 1
            return CivilCalendar.days(fromYear: Int(year), month: Int(month), day: 1)
        }
    }
}
