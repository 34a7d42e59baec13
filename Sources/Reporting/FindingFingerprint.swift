import Linting

/// A finding's identity that survives edits elsewhere in the model: rule, model file, entity,
/// property and the message with its specifics blanked out, never the line. SARIF carries it
/// as a partial fingerprint so GitHub code scanning keeps an alert (and its dismissal) when
/// lines move.
enum FindingFingerprint {
    /// The `partialFingerprints` key; the suffix changes if the recipe ever does.
    static let key = "momlintElement/v1"

    /// `hash:occurrence`, where occurrence tells apart findings whose identities collide.
    static func fingerprints(for findings: [Finding], context: ReportContext) -> [String] {
        var seen: [String: Int] = [:]
        return findings.map { finding in
            let hash = hexHash(identity(of: finding, context: context))
            seen[hash, default: 0] += 1
            return "\(hash):\(seen[hash]!)"
        }
    }

    static func identity(of finding: Finding, context: ReportContext) -> String {
        [finding.ruleID, context.displayPath(finding.location.file), finding.entityName ?? "",
         finding.propertyName ?? "", messageTemplate(finding.message)].joined(separator: "\u{1F}")
    }

    /// The message with quoted names and numbers replaced, so renaming an unrelated element
    /// it mentions in passing, or a changed count, does not make a new alert.
    static func messageTemplate(_ message: String) -> String {
        var template = ""
        var inQuote = false
        var lastWasDigit = false
        for character in message {
            if character == "'" {
                inQuote.toggle()
                if inQuote { template += "'_'" }
                lastWasDigit = false
            } else if inQuote {
                continue
            } else if character.isASCII && character.isNumber {
                if !lastWasDigit { template += "#" }
                lastWasDigit = true
            } else {
                template.append(character)
                lastWasDigit = false
            }
        }
        return template
    }

    /// 128-bit FNV-1a (two 64-bit lanes with different offsets), hex. Not cryptographic, and
    /// need not be: it only has to be stable and rarely collide among one project's findings.
    static func hexHash(_ text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hex(first) + hex(second)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
