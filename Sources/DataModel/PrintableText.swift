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
}
