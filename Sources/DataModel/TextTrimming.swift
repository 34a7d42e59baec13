extension StringProtocol {
    /// The text without the characters at either end that `isTrimmed` accepts:
    /// `trimmingEnds(while: \.isWhitespace)` is Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` without the bridge to `NSString`, whose
    /// first use costs a small model's lint a tenth of its run in the runtime's conformance
    /// lookups.
    public func trimmingEnds(while isTrimmed: (Character) -> Bool) -> String {
        var start = startIndex, end = endIndex
        while start < end, isTrimmed(self[start]) { formIndex(after: &start) }
        while end > start, isTrimmed(self[index(before: end)]) { formIndex(before: &end) }
        return String(self[start..<end])
    }
}
