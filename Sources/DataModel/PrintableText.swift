/// Text from an input made safe to print on one line of a terminal or a CI log.
///
/// A model's names are attribute values, and XML lets them hold line breaks through character
/// references (`name="A&#10;::error::…"`). Printed as is, such a name would start a line of its
/// own in momlint's output, which a CI runner may read as a command (GitHub Actions acts on
/// lines starting `::`) or a person as a finding momlint never made. Control characters (C0,
/// DEL, C1), line and paragraph separators, and the bidirectional overrides that can make text
/// read differently from what it is are written as escapes instead: `\n`, `\r`, `\t`, `\u{202E}`.
public enum PrintableText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The bytes of text from an input that a message shows: enough to recognise a name or a
    /// value, never a line of megabytes.
    public static let defaultBound = 200

    /// `escaped(text)`, cut after `limit` UTF-8 bytes of the original (at a character boundary)
    /// with "…(N more bytes)" saying how much was left out: for a message that quotes text from
    /// a file someone else made, which may be megabytes long.
    public static func bounded(_ text: String, limit: Int = defaultBound) -> String {
        let total = text.utf8.count
        guard total > limit else { return escaped(text) }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            guard kept + size <= limit else { break }
            kept += size
            end = text.index(after: index)
        }
        return escaped(String(text[..<end])) + "…(\(total - kept) more bytes)"
    }

    /// True for the characters `escaped` rewrites: controls, line separators, bidirectional
    /// controls. Structured formats (JSON, XML) use it to write them as character escapes.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional controls
        default: false
        }
    }

    /// JSON text (as `JSONEncoder` writes it, which escapes only C0 controls) with the other
    /// characters `needsEscape` names — DEL, C1, line separators, bidirectional controls — written
    /// as `\uXXXX`. JSON holds them only inside strings, where the escape means the same
    /// character, so rewriting the whole text is exact.
    public static func terminalSafeJSON(_ json: [UInt8]) -> String {
        // Every character `needsEscape` names from 0x20 on is DEL or beyond ASCII.
        guard json.contains(where: { $0 >= 0x7F }) else { return String(decoding: json, as: UTF8.self) }
        var text = ""
        for scalar in String(decoding: json, as: UTF8.self).unicodeScalars {
            if scalar.value >= 0x20 && needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
