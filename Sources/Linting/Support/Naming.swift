/// Small helpers for the names rules print and suggest.
enum Naming {
    /// True when the name's first character is a lowercase letter. Nearly every property name
    /// starts with an ASCII lowercase letter, settled by its first byte without decoding a
    /// `Character`.
    static func startsLowercase(_ name: String) -> Bool {
        if let byte = name.utf8.first, byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { return true }
        return name.first?.isLowercase ?? false
    }

    static func uppercasingFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// The lowerCamelCase form of a name: `URLString` becomes `urlString`, `Title` becomes
    /// `title`. A leading run of capitals is an acronym, lowercased up to the next word.
    static func lowerCamelCase(_ name: String) -> String {
        var endOfCapitals = name.startIndex
        var capitals = 0
        while endOfCapitals < name.endIndex, name[endOfCapitals].isUppercase {
            name.formIndex(after: &endOfCapitals)
            capitals += 1
        }
        guard capitals > 0 else { return name }
        // In `URLString` the `S` starts the next word; keep it.
        var lowered = endOfCapitals
        if capitals > 1, endOfCapitals < name.endIndex, name[endOfCapitals].isLowercase {
            name.formIndex(before: &lowered)
        }
        return name[..<lowered].lowercased() + name[lowered...]
    }

    /// An English plural good enough for suggested property names: `entries`, `boxes`,
    /// `people`, `notes`.
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        // Only whole-word irregulars that cannot end another word by accident ("man" ends "human").
        let irregular: KeyValuePairs = ["person": "people", "child": "children"]
        for (singular, plural) in irregular where lower.hasSuffix(singular) {
            // Keep the caller's casing for the part before the irregular word.
            let stem = word.dropLast(singular.count)
            let replaced = stem.isEmpty ? plural : uppercasingFirst(plural)
            return String(stem) + replaced
        }
        if lower.hasSuffix("y"), lower.count > 1, !"aeiou".contains(lower[lower.index(lower.endIndex, offsetBy: -2)]) {
            return word.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return word + "es" }
        return word + "s"
    }

    /// `a 'Note'`, `an 'Account'`: the article an English reader expects before a quoted name.
    static func indefinite(_ name: String) -> String {
        (startsWithVowelSound(name) ? "an" : "a") + " '\(name)'"
    }

    /// By the first letters: a vowel, except a "u" said "you" — one consonant then a vowel, as in
    /// `User`, `Unit`, `Usage` (but `Update`, `Umbrella`, `Under` take "an") — and "one". A name
    /// of one letter, or one that starts with capitals read letter by letter (`L`, `NSItem`,
    /// `URLRecord`, `HTMLPage`), is said by its first letter's name: "an L", "an NSItem", "a
    /// URLRecord".
    private static func startsWithVowelSound(_ name: String) -> Bool {
        let leadingCapitals = name.prefix(while: { $0.isUppercase })
        if name.count == 1 || leadingCapitals.count >= 2, let first = name.lowercased().first {
            // The letters whose names begin with a vowel sound: "ay", "ee", "ef", "aitch", "eye",
            // "el", "em", "en", "oh", "ar", "es", "ex".
            return "aefhilmnorsx".contains(first)
        }
        let letters = Array(name.lowercased().prefix(3))
        guard let first = letters.first, "aeiou".contains(first) else { return false }
        if first == "u", letters.count == 3, !"aeiou".contains(letters[1]), "aeiou".contains(letters[2]) { return false }
        if first == "o", name.lowercased().hasPrefix("one") { return false }
        return true
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    static func quotedList(_ names: [String], conjunction: String = "and") -> String {
        let quoted = names.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + quoted.last!
    }
}
