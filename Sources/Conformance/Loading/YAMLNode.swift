import Foundation
import Yams

/// A YAML node of a scenario file with the accessors the loader needs; each one either returns
/// the typed value or throws an error pointing at the node's line and column.
struct YAMLNode {
    let node: Node
    let file: String

    var line: Int? { node.mark?.line }

    func error(_ message: String) -> ScenarioLoadError {
        ScenarioLoadError(file: file, line: node.mark?.line, column: node.mark?.column, message: message)
    }

    /// The pairs of a mapping, keys as strings, in document order; duplicate keys are an error.
    func mapping(_ what: String) throws(ScenarioLoadError) -> [(key: String, keyNode: YAMLNode, value: YAMLNode)] {
        guard let mapping = node.mapping else { throw error("\(what) must be a mapping") }
        var seen: Set<String> = []
        var pairs: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                throw YAMLNode(node: key, file: file).error("keys of \(what) must be plain strings")
            }
            guard seen.insert(name).inserted else {
                throw YAMLNode(node: key, file: file).error("'\(name)' appears twice in \(what)")
            }
            pairs.append((name, YAMLNode(node: key, file: file), YAMLNode(node: value, file: file)))
        }
        return pairs
    }

    /// A mapping whose keys must come from `allowed`; `required` keys must be present.
    func fields(_ what: String, allowed: [String], required: [String] = []) throws(ScenarioLoadError) -> [String: YAMLNode] {
        var result: [String: YAMLNode] = [:]
        for (key, keyNode, value) in try mapping(what) {
            guard allowed.contains(key) else {
                throw keyNode.error("unknown key '\(key)' in \(what); expected one of: "
                    + allowed.joined(separator: ", "))
            }
            result[key] = value
        }
        for key in required where result[key] == nil {
            throw error("\(what) needs '\(key)'")
        }
        return result
    }

    func sequence(_ what: String) throws(ScenarioLoadError) -> [YAMLNode] {
        guard let sequence = node.sequence else { throw error("\(what) must be a list") }
        return sequence.map { YAMLNode(node: $0, file: file) }
    }

    /// A list, or a single item standing for a list of one.
    func oneOrMany() -> [YAMLNode] {
        node.sequence.map { $0.map { YAMLNode(node: $0, file: file) } } ?? [self]
    }

    func string(_ what: String) throws(ScenarioLoadError) -> String {
        guard let scalar = node.scalar, !isNull else { throw error("\(what) must be a string") }
        return scalar.string
    }

    func int(_ what: String) throws(ScenarioLoadError) -> Int {
        guard node.scalar != nil, node.tag.rawValue == Tag.Name.int.rawValue, let value = node.int else {
            throw error("\(what) must be a whole number")
        }
        return value
    }

    func bool(_ what: String) throws(ScenarioLoadError) -> Bool {
        guard node.scalar != nil, node.tag.rawValue == Tag.Name.bool.rawValue, let value = node.bool else {
            throw error("\(what) must be true or false")
        }
        return value
    }

    var isNull: Bool {
        node.scalar != nil && node.tag.rawValue == Tag.Name.null.rawValue
    }

    /// Null or an empty mapping: a step written with nothing after its name.
    var isEmpty: Bool {
        isNull || (node.mapping?.isEmpty ?? false)
    }

    /// A scalar read as an attribute value by its YAML type: null, boolean, integer, float, or
    /// string (quoted scalars and timestamps stay strings; the attribute's type decides later).
    func attributeValue(_ what: String) throws(ScenarioLoadError) -> AttributeValue {
        guard let scalar = node.scalar else { throw error("\(what) must be a single value, not a list or mapping") }
        switch node.tag.rawValue {
        case Tag.Name.null.rawValue: return .null
        case Tag.Name.bool.rawValue:
            guard let value = node.bool else { break }
            return .bool(value)
        case Tag.Name.int.rawValue:
            guard let value = Int64(scalar.string.replacingOccurrences(of: "_", with: "")) ?? node.int.map(Int64.init)
            else { break }
            return .integer(value)
        case Tag.Name.float.rawValue:
            guard let value = node.float else { break }
            return .double(value)
        case Tag.Name.binary.rawValue:
            let base64 = scalar.string.filter { !$0.isWhitespace }
            guard let bytes = Data(base64Encoded: base64) else { throw error("\(what) is tagged !!binary but is not base64") }
            return .binary(bytes)
        default: break
        }
        return .string(scalar.string)
    }
}
