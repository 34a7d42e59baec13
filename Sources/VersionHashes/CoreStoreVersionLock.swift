/// CoreStore's `VersionLock` literal for a model: each entity's version hash as four
/// `UInt64`s, the digest's bytes 0-7, 8-15, 16-23 and 24-31 each read little-endian — the form
/// CoreStore (https://github.com/JohnEstropia/CoreStore, `VersionLock`) prints and compares with
/// `NSEntityDescription.versionHash` at run time. A CoreStore user pastes it into
/// `CoreStoreSchema(modelVersion:entities:versionLock:)`.
public enum CoreStoreVersionLock {
    /// `versionLock: [ "Entity": [0x…, 0x…, 0x…, 0x…], … ]`, entities in name order; an entity
    /// that cannot be hashed is a comment saying why. Lines start with `indent`.
    public static func literal(_ hashes: ModelVersionHashes, indent: String = "") -> String {
        var seen = Set<String>()
        let entities = hashes.entities.filter { seen.insert($0.name).inserted }
            .sorted { VersionHasher.precedes($0.name, $1.name) }
        var lines = ["\(indent)versionLock: ["]
        for entity in entities {
            if let hash = entity.hash {
                let words = hash.words.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")
                lines.append("\(indent)    \(swiftStringLiteral(entity.name)): [\(words)],")
            } else {
                lines.append("\(indent)    // \(swiftStringLiteral(entity.name)): no hash, \(entity.problem ?? "it cannot be hashed")")
            }
        }
        lines.append("\(indent)]")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each version's literal, headed by a comment naming it, one after the other.
    public static func literals(_ versions: [(name: String, hashes: ModelVersionHashes)]) -> String {
        versions.map { "// \($0.name)\n" + literal($0.hashes) }.joined(separator: "\n")
    }

    /// Parses the four words of one entity as CoreStore writes them (`0x…` hexadecimal, digit
    /// separators `_` allowed) back into a hash.
    public static func hash(words: [String]) -> VersionHash? {
        let values = words.compactMap { word -> UInt64? in
            var text = String(word.trimmingWhitespace().filter { $0 != "_" })
            guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return UInt64(text) }
            text.removeFirst(2)
            return UInt64(text, radix: 16)
        }
        guard values.count == 4, words.count == 4 else { return nil }
        return VersionHash(words: values)
    }

    /// A Swift string literal: quotes, backslashes and control characters escaped.
    static func swiftStringLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
