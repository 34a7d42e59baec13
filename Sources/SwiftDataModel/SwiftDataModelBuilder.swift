import DataModel
import Linting

/// Turns the `@Model` classes of one schema into entities, through the same public
/// initialisers the XML reader's values use, so `Model` builds its lookup tables as usual.
struct SwiftDataModelBuilder {
    /// Marks, in a relationship's `xmlAttributes`, an inverse momlint filled in the way SwiftData
    /// does (see `inferInverses`): `declaredOnOtherSide` or `pairedBySwiftData`.
    static let inverseOriginKey = "swiftDataInverse"

    let classes: [ModelClassRecord]
    private let modelNames: Set<String>

    init(classes: [ModelClassRecord]) {
        self.classes = classes
        self.modelNames = Set(classes.map(\.name))
    }

    func entities() -> [Entity] {
        var entities = classes.map(entity)
        Self.inferInverses(in: &entities)
        return entities
    }

    /// The model of the classes, as a model read from Swift is made wherever momlint reads one:
    /// the schema `lint --swiftdata` lints (`SwiftDataReader`) and each `VersionedSchema`
    /// (`SwiftDataVersionsReader`). `versionedSchema` names the version the classes are (the
    /// model's `xmlAttributes`, `SwiftDataReader.versionedSchemaKey`); `syncs` says the app syncs
    /// with CloudKit.
    ///
    /// With `compositeStandIns`, for version hashes: a `Codable` property's value is a composite
    /// whose elements are the type's stored properties, which momlint does not read, so each such
    /// type is given a composite of one element named after the type, so the version hashes as a
    /// whole, and a property whose type is renamed hashes differently (an approximation: Core
    /// Data's hash of it depends on the type's fields). A model that is linted has none: rules
    /// would judge the stand-ins.
    func model(file: String, version: ModelVersion? = nil, location: SourceLocation, syncs: Bool,
               versionedSchema: String?, compositeStandIns: Bool = false) -> Model {
        let entities = entities()
        var composites: [Composite] = []
        if compositeStandIns {
            var seen = Set<String>()
            for entity in entities {
                for attribute in entity.attributes where attribute.attributeType == .composite {
                    guard let name = attribute.compositeName, seen.insert(name).inserted else { continue }
                    composites.append(Composite(
                        name: name, attributes: [Attribute(name: name, attributeType: .binary, location: attribute.location)],
                        location: attribute.location))
                }
            }
        }
        var xmlAttributes = [XMLAttributes.Attribute(name: "usedWithSwiftData", value: "YES"),
                             XMLAttributes.Attribute(name: "sourceLanguage", value: "Swift")]
        if syncs { xmlAttributes.append(XMLAttributes.Attribute(name: "usedWithCloudKit", value: "YES")) }
        if let versionedSchema {
            xmlAttributes.append(XMLAttributes.Attribute(name: SwiftDataReader.versionedSchemaKey, value: versionedSchema))
        }
        return Model(file: file, version: version, entities: entities, composites: composites,
                     xmlAttributes: XMLAttributes(xmlAttributes), location: location, origin: .swiftData)
    }

    // MARK: Entities

    private func entity(_ record: ModelClassRecord) -> Entity {
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        var constraints: [UniquenessConstraint] = []
        for property in record.properties {
            if let destination = relationshipDestination(of: property) {
                relationships.append(relationship(property, destination: destination))
                if property.relationshipMacro?.isUnique == true {
                    constraints.append(UniquenessConstraint(
                        members: [.init(property: property.name, location: property.location)], location: property.location))
                }
            } else if let type = property.type {
                attributes.append(SwiftDataAttributes.attribute(property, type: type))
                if property.attributeMacro?.isUnique == true {
                    constraints.append(UniquenessConstraint(
                        members: [.init(property: property.name, location: property.location)], location: property.location))
                }
            }
        }
        for unique in record.uniques {
            for group in unique.groups {
                constraints.append(UniquenessConstraint(
                    members: group.map { .init(property: $0, location: unique.location) }, location: unique.location))
            }
        }
        var indexes: [FetchIndex] = []
        for index in record.indexes {
            for group in index.groups {
                indexes.append(FetchIndex(
                    name: "\(record.name)_" + group.joined(separator: "_"),
                    elements: group.map { .init(property: $0, type: "Binary", order: "ascending", location: index.location) },
                    location: index.location))
            }
        }
        let parent = record.firstInheritedName.flatMap { modelNames.contains($0) && $0 != record.name ? $0 : nil }
        return Entity(
            name: record.name, representedClassName: record.name, parentEntityName: parent,
            attributes: attributes, relationships: relationships, fetchIndexes: indexes,
            uniquenessConstraints: constraints, userInfo: Self.userInfo(disabling: record.disabledRules),
            location: record.location)
    }

    /// The destination entity when the property is a relationship: its type (optional or an
    /// array of) is another `@Model` class, or it is marked `@Relationship`.
    private func relationshipDestination(of property: StoredPropertyRecord) -> String? {
        let named: String?
        switch property.type?.shape {
        case .named(let name)?: named = name
        case .array(let element)?: named = element.name
        default: named = nil
        }
        if let named, modelNames.contains(named) { return named }
        if property.relationshipMacro != nil { return named ?? property.type?.spelling ?? "?" }
        return nil
    }

    private func relationship(_ property: StoredPropertyRecord, destination: String) -> Relationship {
        let macro = property.relationshipMacro ?? RelationshipMacro()
        var isToMany = false
        if case .array? = property.type?.shape { isToMany = true }
        return Relationship(
            name: property.name, destinationEntityName: destination,
            inverseName: macro.inverseProperty,
            inverseEntityName: macro.inverseProperty == nil ? nil : (macro.inverseTypeName ?? destination),
            isToMany: isToMany,
            // A to-many array is never nil in SwiftData (an empty array stands for none), and
            // SwiftData does not demand one object in it; only a non-optional to-one must be set.
            isOptional: isToMany || property.type?.isOptional ?? true,
            minCount: macro.minimumModelCount, maxCount: macro.maximumModelCount,
            minCountText: macro.minimumModelCount.map(String.init), maxCountText: macro.maximumModelCount.map(String.init),
            // Documented default of `@Relationship(deleteRule:)`: `.nullify`.
            deletionRule: macro.deleteRule ?? .nullify, declaresDeletionRule: true,
            versionHashModifier: macro.hashModifier, renamingIdentifier: macro.originalName,
            userInfo: Self.userInfo(disabling: property.disabledRules), location: property.location)
    }

    static func userInfo(disabling rules: String?) -> UserInfo {
        guard let rules else { return UserInfo() }
        return UserInfo([UserInfo.Entry(key: Suppressions.userInfoKey, value: rules)])
    }

    // MARK: Inverses

    /// Fills in the inverses SwiftData supplies itself, so no rule reports one missing:
    ///
    /// 1. `@Relationship(inverse: \B.x)` on `A.y` links both ends: SwiftData sets `B.x`'s
    ///    inverse to `A.y` too (the inverse is written on one side only; writing it on both
    ///    is allowed and means the same).
    /// 2. When neither end names an inverse, and `A` has exactly one relationship to `B` and
    ///    `B` exactly one to `A` (`A` ≠ `B`), SwiftData pairs them as each other's inverse
    ///    (observed and described in "SwiftData by Example", *Inferred vs explicit
    ///    relationships*; Apple documents the inference only as "SwiftData infers the inverse
    ///    when it can"). A pair it might not infer (say, a non-optional to-one) is still paired
    ///    here: a finding on a relationship SwiftData may link is worse than a missed one.
    ///
    /// Anything else (two relationships to the same class, a class pointing at itself) is left
    /// without an inverse, and the inverse rules report it, as SwiftData cannot tell which
    /// relationship answers which.
    static func inferInverses(in entities: inout [Entity]) {
        let indexByName = Dictionary(entities.indices.map { (entities[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        // 1. Declared on one side.
        for entityIndex in entities.indices {
            for relationship in entities[entityIndex].relationships {
                guard let inverseName = relationship.inverseName,
                      let target = relationship.inverseEntityName.flatMap({ indexByName[$0] }),
                      let slot = entities[target].relationships.firstIndex(where: { $0.name == inverseName }),
                      entities[target].relationships[slot].inverseName == nil
                else { continue }
                entities[target].relationships[slot].inverseName = relationship.name
                entities[target].relationships[slot].inverseEntityName = entities[entityIndex].name
                mark(&entities[target].relationships[slot], "declaredOnOtherSide")
            }
        }
        // 2. One relationship each way, no inverse named on either.
        for entityIndex in entities.indices {
            let source = entities[entityIndex].name
            for (slot, relationship) in entities[entityIndex].relationships.enumerated() {
                guard relationship.inverseName == nil, let destination = relationship.destinationEntityName,
                      destination != source, let target = indexByName[destination],
                      entities[entityIndex].relationships.count(where: { $0.destinationEntityName == destination }) == 1
                else { continue }
                let back = entities[target].relationships.indices.filter {
                    entities[target].relationships[$0].destinationEntityName == source
                }
                guard back.count == 1, entities[target].relationships[back[0]].inverseName == nil else { continue }
                entities[entityIndex].relationships[slot].inverseName = entities[target].relationships[back[0]].name
                entities[entityIndex].relationships[slot].inverseEntityName = destination
                mark(&entities[entityIndex].relationships[slot], "pairedBySwiftData")
                entities[target].relationships[back[0]].inverseName = relationship.name
                entities[target].relationships[back[0]].inverseEntityName = source
                mark(&entities[target].relationships[back[0]], "pairedBySwiftData")
            }
        }
    }

    private static func mark(_ relationship: inout Relationship, _ how: String) {
        relationship.xmlAttributes = XMLAttributes(relationship.xmlAttributes.ordered
            + [XMLAttributes.Attribute(name: inverseOriginKey, value: how)])
    }
}
