/// "Did you mean": the known name a mistyped one is nearest to, for configuration keys and
/// rule ids, and for subcommands and rule ids on the command line. `editDistance` also serves
/// `managed_property_not_in_model`, which has its own idea of near.
public enum NearestName {
    /// The candidate within a small edit distance of `word` (at most 2, or a quarter of its
    /// length), nearest first and alphabetical among equals; nil when none is that close.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= max(2, word.count / 4) }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Two rows, swapped, instead of a new row per character.
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
