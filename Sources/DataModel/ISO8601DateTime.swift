import Foundation

/// Core Data's dates, seconds since 2001-01-01 00:00:00 UTC, written as ISO 8601 text: how the
/// conformance protocol exchanges them, a store dump shows them and an export writes a default.
public enum ISO8601DateTime {
    /// `secondsSinceReferenceDate` as an ISO 8601 date and time in UTC, with the fewest
    /// fractional digits that read back as the same number (whole seconds plus the fraction),
    /// and none for a whole second. `ISO8601DateFormatter` stops at milliseconds, and Core Data
    /// stores keep more (`541369085.083766`): a date dumped from a store, handed to a process
    /// store or exported would change. Nil outside the years 0000–9999 that the format spells.
    public static func string(secondsSinceReferenceDate: Double) -> String? {
        let seconds = secondsSinceReferenceDate
        // 0000-01-01 and 10000-01-01, in seconds since 2001-01-01.
        guard seconds.isFinite, seconds >= -63_145_526_400, seconds < 252_423_993_600 else { return nil }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        let sinceEpoch = Int(whole) + 978_307_200
        let days = sinceEpoch >= 0 ? sinceEpoch / 86_400 : (sinceEpoch - 86_399) / 86_400
        let secondOfDay = sinceEpoch - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
        if fraction != 0 { text += "." + fractionDigits(fraction, readingBackAs: seconds, after: whole) }
        return text + "Z"
    }

    /// The fewest decimal digits `d` of `fraction` (in 0..<1) such that `whole + 0.d` is
    /// `seconds`, the sum the reader computes.
    private static func fractionDigits(_ fraction: Double, readingBackAs seconds: Double, after whole: Double) -> String {
        for precision in 1...20 {
            let rounded = String(format: "%.\(precision)f", fraction)
            guard rounded.hasPrefix("0."), let value = Double(rounded), whole + value == seconds else { continue }
            return String(rounded.dropFirst(2))
        }
        // A fraction this fine lies near the reference date only. Its exact expansion reads back,
        // except within the second before that date, where `whole + 0.d` (-1 + 0.d) cannot land on
        // every number and may miss the last bit.
        var exact = String(format: "%.1100f", fraction).dropFirst(2)
        while exact.last == "0" { exact.removeLast() }
        return String(exact)
    }

    /// Year, month and day of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`, https://howardhinnant.github.io/date_algorithms.html).
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
