/// A rule of the serialization that no hash Core Data itself wrote has confirmed yet
/// (docs/version-hashes.md, "What is not verified"). A hash computed through one of them is
/// momlint's best knowledge, and the outputs say so.
public enum UnverifiedRule: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The entity's own `versionHashModifier`, appended after its properties.
    case entityVersionHashModifier = "entity versionHashModifier"
    /// The byte for "allows external binary data storage".
    case externalBinaryStorage = "external storage byte"
    /// A relationship that is its own inverse: the inverse name is left out.
    case selfInverseRelationship = "self-inverse relationship"
    /// A composite attribute: the hashes of its leaf elements.
    case compositeAttribute = "composite attribute"
    /// A derivation other than `path.@count` (only that one was seen in a store).
    case derivationExpression = "derivation expression"
    /// Property or entity names whose order depends on case or on non-ASCII characters.
    case nameOrder = "name order (case or non-ASCII)"

    public static func < (lhs: UnverifiedRule, rhs: UnverifiedRule) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Unverified rules as bits: what the hasher carries for each of a model's many properties,
/// where a `Set` would be an allocation for every one that has a rule.
struct UnverifiedRules: OptionSet {
    let rawValue: UInt8

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init(_ rule: UnverifiedRule) {
        rawValue = 1 << UInt8(UnverifiedRule.allCases.firstIndex(of: rule)!)
    }

    static let entityVersionHashModifier = Self(.entityVersionHashModifier)
    static let externalBinaryStorage = Self(.externalBinaryStorage)
    static let selfInverseRelationship = Self(.selfInverseRelationship)
    static let compositeAttribute = Self(.compositeAttribute)
    static let derivationExpression = Self(.derivationExpression)
    static let nameOrder = Self(.nameOrder)

    /// The rules, as the results report them.
    var rules: Set<UnverifiedRule> {
        Set(UnverifiedRule.allCases.filter { contains(Self($0)) })
    }
}
