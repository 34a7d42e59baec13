import DataModel
import Foundation
import VersionHashes

/// Turns a loaded `Model` into its normalized export (`ExportedModel`): inheritance resolved,
/// inverses resolved, defaults and limits read as typed values.
///
/// A pure function of the model. Every problem found is reported at once, so a user fixes a
/// model in one pass.
public struct ModelExporter: Sendable {
    public init() {}

    /// The export, and warnings about values it had to leave out. Throws when an element
    /// cannot be exported at all; the error lists the warnings too.
    public func export(_ model: Model) throws(ModelExportError) -> (model: ExportedModel, warnings: [ExportProblem]) {
        var problems: [ExportProblem] = []
        func problem(_ location: SourceLocation, _ message: String) {
            problems.append(ExportProblem(severity: .error, location: location, message: message))
        }

        let hashes = VersionHasher.hashes(of: model)
        var entities: [ExportedModel.Entity] = []
        for (entityIndex, entity) in model.entities.enumerated() {
            if model.hasInheritanceCycle(entity) {
                problem(entity.location, "'\(entity.name)' inherits from itself; break the parentEntity cycle")
                continue
            }
            if let parent = entity.parentEntityName, model.entity(named: parent) == nil {
                problem(entity.location, "'\(entity.name)' names parent entity '\(parent)', which the model does not have")
                continue
            }
            // Each property carries the hash its declaring entity computed for it.
            let lineage = model.ancestorIndexes(ofEntityAt: entityIndex).reversed() + [entityIndex]
            var attributes: [ExportedModel.Attribute] = []
            var relationships: [ExportedModel.Relationship] = []
            var constraints: [ExportedModel.UniquenessConstraint] = []
            for declarerIndex in lineage {
                let declarer = model.entities[declarerIndex]
                let declarerHashes = hashes.entities[declarerIndex]
                for (position, attribute) in declarer.attributes.enumerated() {
                    var exported = Self.export(attribute, declaredBy: declarer.name, problems: &problems)
                    exported.versionHash = declarerHashes.attributeHashes[position]?.base64
                    attributes.append(exported)
                }
                for (position, relationship) in declarer.relationships.enumerated() {
                    if var exported = Self.export(relationship, declaredBy: declarer.name, in: model, problems: &problems) {
                        exported.versionHash = declarerHashes.relationshipHashes[position]?.base64
                        relationships.append(exported)
                    }
                }
                for constraint in declarer.uniquenessConstraints {
                    for member in constraint.members where model.property(named: member.property, in: declarer) == nil {
                        problem(member.location, "the uniqueness constraint on '\(declarer.name)' names "
                            + "'\(member.property)', which is not a property of '\(declarer.name)'")
                    }
                    constraints.append(.init(properties: constraint.propertyNames, declaredBy: declarer.name))
                }
            }
            entities.append(ExportedModel.Entity(
                name: entity.name,
                className: entity.representedClassName,
                isAbstract: entity.isAbstract,
                parent: entity.parentEntityName,
                ancestors: model.ancestors(of: entity).map(\.name),
                subentities: model.subentities(of: entity).map(\.name),
                allSubentities: model.allSubentities(of: entity).map(\.name),
                attributes: attributes,
                relationships: relationships,
                uniquenessConstraints: constraints,
                renamingIdentifier: Self.renamingID(entity.renamingIdentifier, entity.elementID),
                versionHashModifier: Self.nonEmpty(entity.versionHashModifier),
                versionHash: hashes.entities[entityIndex].hash?.base64))
        }

        var composites: [ExportedModel.Composite] = []
        for composite in model.composites {
            var attributes: [ExportedModel.Attribute] = []
            for attribute in composite.attributes {
                var exported = Self.export(attribute, declaredBy: composite.name, problems: &problems)
                exported.versionHash = VersionHasher.attributeHash(attribute, in: model).hash?.base64
                attributes.append(exported)
            }
            composites.append(.init(name: composite.name, attributes: attributes))
        }

        guard !problems.contains(where: { $0.severity == .error }) else {
            throw ModelExportError(problems: problems.sorted { $0.location < $1.location })
        }
        let exported = ExportedModel(
            schemaVersion: ExportedModel.currentSchemaVersion,
            source: .init(file: model.file, bundle: model.version.bundlePath,
                          version: model.version.name.isEmpty ? nil : model.version.name),
            entities: entities,
            configurations: model.configurations.map {
                .init(name: $0.name, usedWithCloudKit: $0.usedWithCloudKit, entities: $0.memberEntityNames)
            },
            composites: composites,
            versionHashesDigest: hashes.digest?.base64)
        return (exported, problems.sorted { $0.location < $1.location })
    }

    // MARK: Attributes

    /// One attribute. A value that cannot be read as the attribute's type (Xcode accepts
    /// `YES` as an Integer 32 default) is left out with a warning: what Core Data makes of it
    /// is not documented, and a real model should still export.
    static func export(_ attribute: Attribute, declaredBy owner: String,
                       problems: inout [ExportProblem]) -> ExportedModel.Attribute {
        let place = "'\(owner).\(attribute.name)'"
        // Xcode writes no attributeType for Undefined, the type of a transient attribute
        // whose value the app manages (NSUndefinedAttributeType is 0, the default).
        let type = attribute.attributeType ?? .undefined
        var warnings: [ExportProblem] = []
        if case .unknown(let name) = type {
            problems.append(ExportProblem(severity: .error, location: attribute.location,
                message: "\(place) has attribute type '\(name)', which Core Data does not know"))
        }

        /// Reads one of the attribute's written values as its type, or warns why it cannot.
        func read(_ text: String?, as what: String, _ reader: (String) -> ExportValue?) -> ExportValue? {
            guard let text else { return nil }
            guard let value = reader(text) else {
                warnings.append(ExportProblem(severity: .warning, location: attribute.location, message:
                    "\(place) has \(what) '\(text)', which is not a valid \(type.xmlName) value; the export leaves it out"))
                return nil
            }
            return value
        }

        var defaultValue: ExportValue?
        var minimum: ExportValue?
        var maximum: ExportValue?
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            let reader = { (text: String) in Self.number(text, as: type) }
            defaultValue = read(attribute.defaultValueString, as: "default value", reader)
            minimum = read(attribute.minValueString, as: "minimum", reader)
            maximum = read(attribute.maxValueString, as: "maximum", reader)
        case .string:
            defaultValue = attribute.defaultValueString.map(ExportValue.string)
            // For strings, Core Data's min/max are lengths.
            let length = { (text: String) in Int64(text).flatMap { $0 >= 0 ? ExportValue.integer($0) : nil } }
            minimum = read(attribute.minValueString, as: "minimum length", length)
            maximum = read(attribute.maxValueString, as: "maximum length", length)
        case .uri:
            defaultValue = attribute.defaultValueString.map(ExportValue.string)
        case .uuid:
            defaultValue = read(attribute.defaultValueString, as: "default value") {
                UUID(uuidString: $0).map { .string($0.uuidString) }
            }
        case .boolean:
            defaultValue = read(attribute.defaultValueString, as: "default value", Self.boolean)
        case .date:
            defaultValue = read(attribute.defaultDateTimeInterval, as: "default date", Self.date)
            minimum = read(attribute.minDateTimeInterval, as: "earliest date", Self.date)
            maximum = read(attribute.maxDateTimeInterval, as: "latest date", Self.date)
        case .binary, .transformable, .objectID, .composite, .undefined, .unknown:
            // No value of these types can be written in a model or a scenario.
            break
        }
        problems.append(contentsOf: warnings)
        return ExportedModel.Attribute(
            name: attribute.name,
            declaredBy: owner,
            type: type.xmlName,
            isOptional: attribute.isOptional,
            isTransient: attribute.isTransient,
            isDerived: attribute.isDerived,
            defaultValue: defaultValue,
            minimum: minimum,
            maximum: maximum,
            regularExpression: type == .string ? attribute.regularExpressionString : nil,
            composite: type == .composite ? attribute.compositeName : nil,
            renamingIdentifier: renamingID(attribute.renamingIdentifier, attribute.elementID),
            versionHashModifier: nonEmpty(attribute.versionHashModifier))
    }

    /// The renaming identifier as Xcode writes it (`elementID`, the inspector's "Renaming ID")
    /// or as a compiled model names it (`renamingIdentifier`).
    static func renamingID(_ renamingIdentifier: String?, _ elementID: String?) -> String? {
        nonEmpty(renamingIdentifier) ?? nonEmpty(elementID)
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// A number as the attribute's type holds it: whole numbers within range for integers,
    /// rounded to `Float` for Float, any finite number otherwise.
    static func number(_ text: String, as type: AttributeType) -> ExportValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let range = type.integerRange {
            if let whole = Int64(trimmed) { return range.contains(whole) ? .integer(whole) : nil }
            // Xcode writes "0.0" for an integer default edited from a float field.
            guard let real = Double(trimmed), real.rounded() == real, abs(real) < 9.2e18,
                  range.contains(Int64(real)) else { return nil }
            return .integer(Int64(real))
        }
        guard let real = Double(trimmed), real.isFinite else { return nil }
        return .double(type == .float ? Double(Float(real)) : real)
    }

    /// Xcode writes `YES`/`NO`; Core Data's own `NSNumber` parsing also accepts `1`/`0`
    /// and `true`/`false`.
    static func boolean(_ text: String) -> ExportValue? {
        switch text.lowercased() {
        case "yes", "true", "1": .bool(true)
        case "no", "false", "0": .bool(false)
        default: nil
        }
    }

    /// `defaultDateTimeInterval` and the date limits are seconds since 2001-01-01 00:00:00 UTC;
    /// the export writes them as ISO 8601, as the conformance protocol writes dates.
    static func date(_ text: String) -> ExportValue? {
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        return ISO8601DateTime.string(secondsSinceReferenceDate: seconds).map(ExportValue.string)
    }

    // MARK: Relationships

    /// One relationship, or nil (with an error in `problems`) when it cannot be exported.
    static func export(_ relationship: Relationship, declaredBy owner: String, in model: Model,
                       problems: inout [ExportProblem]) -> ExportedModel.Relationship? {
        let place = "'\(owner).\(relationship.name)'"
        func failure(_ message: String) -> ExportedModel.Relationship? {
            problems.append(ExportProblem(severity: .error, location: relationship.location, message: message))
            return nil
        }
        guard let destinationName = relationship.destinationEntityName else {
            return failure("\(place) has no destination entity; choose one in Xcode's data model inspector")
        }
        guard model.entity(named: destinationName) != nil else {
            return failure("\(place) points to '\(destinationName)', which the model does not have")
        }
        let deleteRule: ExportedModel.DeleteRule
        switch relationship.deletionRule {
        case .noAction: deleteRule = .noAction
        case .nullify: deleteRule = .nullify
        case .cascade: deleteRule = .cascade
        case .deny: deleteRule = .deny
        case .unknown(let name):
            return failure("\(place) has delete rule '\(name)', which Core Data does not know; "
                + "use Nullify, Cascade, Deny or No Action")
        }
        let inverse = model.inverse(of: relationship)
        // The inverse is looked up on the inverse entity (or the destination), inherited
        // relationships included: say which entity actually declares it.
        let inverseDeclarer = inverse.flatMap { found in
            (relationship.inverseEntityName ?? relationship.destinationEntityName).flatMap(model.entity(named:))
                .map { start in model.declaringEntity(ofProperty: found.name, for: start)?.name ?? start.name }
        }
        let maxCount: Int? = relationship.isToMany
            ? relationship.maxCount.flatMap { $0 > 0 ? $0 : nil }
            : 1
        return ExportedModel.Relationship(
            name: relationship.name,
            declaredBy: owner,
            destination: destinationName,
            inverse: inverse?.name,
            inverseDeclaredBy: inverseDeclarer,
            isToMany: relationship.isToMany,
            isOrdered: relationship.isToMany && relationship.isOrdered,
            isOptional: relationship.isOptional,
            isTransient: relationship.isTransient,
            minCount: max(relationship.minCount ?? 0, 0),
            maxCount: maxCount,
            deleteRule: deleteRule,
            renamingIdentifier: Self.renamingID(relationship.renamingIdentifier, relationship.elementID),
            versionHashModifier: Self.nonEmpty(relationship.versionHashModifier))
    }
}
