import Foundation

/// Checks a JSON value against a JSON Schema (draft 2020-12), for the keywords momlint's schemas
/// use: `type`, `const`, `enum`, `properties`, `required`, `additionalProperties` (boolean),
/// `items`, `minimum`, `minLength`, `maxLength`, `$ref` to `#/$defs/…`. A schema using any other keyword
/// that constrains values is refused, so a keyword this validator does not know can never be
/// silently unchecked.
struct JSONSchemaValidator {
    let root: [String: Any]

    /// Keywords that only annotate, so there is nothing to check.
    private static let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description"]
    private static let checked: Set<String> = [
        "type", "const", "enum", "properties", "required", "additionalProperties", "items",
        "minimum", "minLength", "maxLength", "$ref",
    ]

    init(schema data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError(path: "#", message: "the schema is not a JSON object")
        }
        self.root = root
    }

    struct ValidationError: Error, CustomStringConvertible {
        var path: String
        var message: String
        var description: String { "\(path): \(message)" }
    }

    /// Every place where `instance` breaks the schema; empty when it conforms.
    func errors(in instance: Any) throws -> [ValidationError] {
        var found: [ValidationError] = []
        try check(instance, against: root, at: "$", into: &found)
        return found
    }

    private func check(_ value: Any, against schema: [String: Any], at path: String,
                       into errors: inout [ValidationError]) throws {
        for key in schema.keys where !Self.annotations.contains(key) && !Self.checked.contains(key) {
            throw ValidationError(path: path, message: "the schema uses '\(key)', which this validator does not check")
        }
        if let reference = schema["$ref"] as? String {
            try check(value, against: resolve(reference), at: path, into: &errors)
        }
        if let types = schema["type"] {
            let names = (types as? [String]) ?? [types as? String].compactMap { $0 }
            if !names.contains(where: { Self.value(value, isOfType: $0) }) {
                errors.append(.init(path: path, message: "expected \(names.joined(separator: " or ")), found \(Self.kind(of: value))"))
                return
            }
        }
        if let constant = schema["const"], !Self.equal(value, constant) {
            errors.append(.init(path: path, message: "expected \(constant)"))
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal(value, $0) }) {
            errors.append(.init(path: path, message: "\(value) is not one of \(options)"))
        }
        if let minimum = schema["minimum"] as? NSNumber, let number = value as? NSNumber, !Self.isBoolean(value),
           number.doubleValue < minimum.doubleValue {
            errors.append(.init(path: path, message: "\(number) is below the minimum \(minimum)"))
        }
        if let minLength = schema["minLength"] as? Int, let text = value as? String, text.count < minLength {
            errors.append(.init(path: path, message: "'\(text)' is shorter than \(minLength)"))
        }
        if let maxLength = schema["maxLength"] as? Int, let text = value as? String, text.count > maxLength {
            errors.append(.init(path: path, message: "'\(text)' is longer than \(maxLength)"))
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                errors.append(.init(path: path, message: "missing required '\(name)'"))
            }
            for (name, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] {
                    try check(member, against: property, at: path + "." + name, into: &errors)
                } else if schema["additionalProperties"] as? Bool == false {
                    errors.append(.init(path: path, message: "'\(name)' is not allowed here"))
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                try check(element, against: items, at: "\(path)[\(index)]", into: &errors)
            }
        }
    }

    private func resolve(_ reference: String) throws -> [String: Any] {
        let prefix = "#/$defs/"
        guard reference.hasPrefix(prefix),
              let definitions = root["$defs"] as? [String: Any],
              let target = definitions[String(reference.dropFirst(prefix.count))] as? [String: Any]
        else { throw ValidationError(path: reference, message: "cannot resolve this $ref") }
        return target
    }

    // MARK: JSON kinds, as JSONSerialization gives them on Linux and macOS

    private static func isBoolean(_ value: Any) -> Bool {
        // JSONSerialization gives booleans as NSNumbers of objCType "c" (char), numbers as
        // "q" or "d"; `is Bool` is true for both on Linux, so it cannot tell them apart.
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func value(_ value: Any, isOfType type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean": isBoolean(value)
        case "number": value is NSNumber && !isBoolean(value)
        case "integer": (value as? NSNumber).map { !isBoolean(value) && $0.doubleValue.rounded() == $0.doubleValue } ?? false
        case "null": value is NSNull
        default: false
        }
    }

    private static func kind(of value: Any) -> String {
        ["object", "array", "string", "boolean", "number", "null"].first { Self.value(value, isOfType: $0) } ?? "\(type(of: value))"
    }

    private static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case let (l as String, r as String): l == r
        case let (l as NSNumber, r as NSNumber): isBoolean(l) == isBoolean(r) && l == r
        default: false
        }
    }
}
