import DataModel

/// A relationship together with the entity that declares it, so a message can name it as
/// `'Entity.relationship'` even when it is reached through a sub-entity.
struct DeclaredRelationship: Sendable {
    var entity: Entity
    var relationship: Relationship

    var qualifiedName: String { "\(entity.name).\(relationship.name)" }

    /// Identifies the declaration; entity values are large, so hash names, not entities.
    var key: Key { Key(entityName: entity.name, relationshipName: relationship.name, location: relationship.location) }

    struct Key: Hashable, Sendable {
        var entityName: String
        var relationshipName: String
        var location: SourceLocation
    }
}

extension Model {
    /// Every relationship the model declares, entity by entity in document order.
    var declaredRelationships: [DeclaredRelationship] {
        entities.flatMap { entity in entity.relationships.map { DeclaredRelationship(entity: entity, relationship: $0) } }
    }

    /// The entity that declares property `name` for `entity`: the entity itself, or the nearest
    /// ancestor that does.
    func declaringEntity(ofProperty name: String, for entity: Entity) -> Entity? {
        if ownProperty(named: name, in: entity) != nil { return entity }
        return ancestors(of: entity).first { ownProperty(named: name, in: $0) != nil }
    }

    /// The relationship that `relationship`'s `inverseName` resolves to, looked up on its inverse
    /// entity (or destination) and that entity's ancestors, with the entity declaring it. Nil when
    /// there is no inverse name, the entity is unknown, or the name is not a relationship.
    func resolvedInverse(of relationship: Relationship) -> DeclaredRelationship? {
        guard let inverseName = relationship.inverseName,
              let owner = (relationship.inverseEntityName ?? relationship.destinationEntityName).flatMap(entity(named:)),
              let declaring = declaringEntity(ofProperty: inverseName, for: owner),
              let inverse = ownProperty(named: inverseName, in: declaring)?.asRelationship
        else { return nil }
        return DeclaredRelationship(entity: declaring, relationship: inverse)
    }

    /// True when `entityName` is `ancestorName` or inherits from it. Unknown names are kinds of
    /// nothing but themselves.
    func isKind(_ entityName: String, of ancestorName: String) -> Bool {
        if entityName == ancestorName { return true }
        guard let entity = entity(named: entityName) else { return false }
        return ancestors(of: entity).contains { $0.name == ancestorName }
    }

    /// True when one of the two entities is, or inherits from, the other.
    func areInSameLine(_ first: String, _ second: String) -> Bool {
        isKind(first, of: second) || isKind(second, of: first)
    }

    /// True when `inverse`, the resolved inverse of `relationship` declared on `entity`, names
    /// `relationship` back and points at `entity` (or one of its ancestors): a consistent pair.
    func inverse(_ inverse: DeclaredRelationship, pointsBackTo relationship: Relationship, on entity: Entity) -> Bool {
        guard let back = resolvedInverse(of: inverse.relationship) else { return false }
        return back.entity.name == entity.name && back.relationship.location == relationship.location
    }
}

/// Small helpers for the names rules print and suggest.
enum Naming {
    static func lowercasingFirst(_ text: String) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }

    static func uppercasingFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// The lowerCamelCase form of a name: `URLString` becomes `urlString`, `Title` becomes
    /// `title`. A leading run of capitals is an acronym, lowercased up to the next word.
    static func lowerCamelCase(_ name: String) -> String {
        let characters = Array(name)
        var upperRun = 0
        while upperRun < characters.count, characters[upperRun].isUppercase { upperRun += 1 }
        guard upperRun > 0 else { return name }
        // In `URLString` the `S` starts the next word; keep it.
        let lowered = upperRun > 1 && upperRun < characters.count && characters[upperRun].isLowercase
            ? upperRun - 1 : upperRun
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// An English plural good enough for suggested property names: `entries`, `boxes`,
    /// `people`, `notes`.
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        // Only whole-word irregulars that cannot end another word by accident ("man" ends "human").
        let irregular: KeyValuePairs = ["person": "people", "child": "children"]
        for (singular, plural) in irregular where lower.hasSuffix(singular) {
            // Keep the caller's casing for the part before the irregular word.
            let stem = word.dropLast(singular.count)
            let replaced = stem.isEmpty ? plural : uppercasingFirst(plural)
            return String(stem) + replaced
        }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
        if lower.hasSuffix("y"), lower.count > 1, !vowels.contains(lower[lower.index(lower.endIndex, offsetBy: -2)]) {
            return word.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return word + "es" }
        return word + "s"
    }

    /// `a 'Note'`, `an 'Account'`: the article an English reader expects before a quoted name.
    static func indefinite(_ name: String) -> String {
        let vowels: Set<Character> = ["A", "E", "I", "O", "U", "a", "e", "i", "o", "u"]
        return (name.first.map(vowels.contains) ?? false ? "an" : "a") + " '\(name)'"
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    static func quotedList(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
    }
}
