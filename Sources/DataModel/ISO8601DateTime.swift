import Foundation

/// Core Data's dates, seconds since 2001-01-01 00:00:00 UTC, as ISO 8601 text: how the
/// conformance protocol and scenarios exchange them, a store dump shows them and an export writes
/// a default. The writer and the reader share one calendar, so what is written reads back.
public enum ISO8601DateTime {
    /// The seconds whose dates ISO 8601's four-digit years spell: 0000-01-01 to 9999-12-31.
    public static let writableSeconds: Range<Double> = -63_145_526_400 ..< 252_423_993_600

    /// `secondsSinceReferenceDate` as an ISO 8601 date and time in UTC, with the fewest
    /// fractional digits that `secondsSinceReferenceDate(iso8601:allowingDateAlone:)` reads back as
    /// the same number, and none for a whole second. `ISO8601DateFormatter` stops at milliseconds, and Core Data
    /// stores keep more (`541369085.083766`): a date dumped from a store, handed to a process
    /// store or exported would change. Nil outside the years 0000–9999 that the format spells.
    public static func string(secondsSinceReferenceDate: Double) -> String? {
        let seconds = secondsSinceReferenceDate
        guard writableSeconds.contains(seconds) else { return nil }
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
    /// `civil_from_days`, the inverse of `daysSince1970`).
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

    /// Seconds since 2001-01-01 00:00:00 UTC for the whole of `text` read as an ISO 8601 date and
    /// time in extended format with a zone — `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)` — or,
    /// when `allowingDateAlone`, a calendar date `YYYY-MM-DD` (midnight UTC). Every field must
    /// be in range (no 30 February, no hour 24, no leap second). Read by hand because
    /// Foundation's `ISO8601DateFormatter` ignores what follows a valid prefix and rolls
    /// 2020-02-30 over to 1 March.
    public static func secondsSinceReferenceDate(iso8601 text: String, allowingDateAlone: Bool) -> Double? {
        let characters = Array(text.utf8)
        var position = 0
        func number(_ digits: Int) -> Int? {
            guard position + digits <= characters.count else { return nil }
            var value = 0
            for byte in characters[position..<position + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += digits
            return value
        }
        func skip(_ character: Character) -> Bool {
            guard position < characters.count, characters[position] == character.asciiValue else { return false }
            position += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        let midnight = Double(Self.daysSince1970(year: year, month: month, day: day)) * 86_400 - 978_307_200
        if position == characters.count { return allowingDateAlone ? midnight : nil }
        guard skip("T"), let hour = number(2), skip(":"), let minute = number(2), skip(":"), let second = number(2),
              hour < 24, minute < 60, second < 60 else { return nil }
        var fraction = 0.0
        if skip(".") {
            let start = position
            while position < characters.count, (0x30...0x39).contains(characters[position]) { position += 1 }
            guard position > start, let digits = Double("0." + String(decoding: characters[start..<position], as: UTF8.self))
            else { return nil }
            fraction = digits
        }
        var offset = 0
        if skip("Z") {
            offset = 0
        } else if position < characters.count, characters[position] == 0x2B || characters[position] == 0x2D {
            let sign = characters[position] == 0x2D ? -1 : 1
            position += 1
            guard let hours = number(2), skip(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard position == characters.count else { return nil }
        return midnight + Double(hour * 3600 + minute * 60 + second - offset) + fraction
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`, https://howardhinnant.github.io/date_algorithms.html).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
