/// Escaping for XML text and attribute values (XML 1.0 §2.4, §3.3.3), shared by every report
/// written as XML (the lint and conformance JUnit reporters), so they escape alike.
public enum XMLText {
    /// Escapes markup characters, keeps line breaks in attributes as character references
    /// (a parser would otherwise normalise them to spaces), and replaces characters XML 1.0
    /// cannot hold at all with U+FFFD.
    public static func escaped(_ text: String, inAttribute: Bool = true) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where inAttribute: output += "&quot;"
            case "\n" where inAttribute: output += "&#10;"
            case "\r": output += "&#13;"
            case "\t" where inAttribute: output += "&#9;"
            case "\t", "\n": output.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                output += "\u{FFFD}"
            case _ where PrintableText.needsEscape(scalar):
                // DEL, C1 and bidirectional controls: kept, as references a viewer cannot act on.
                output += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
