import DataModel
import VersionHashes

/// A stable, readable text form of a model (`momlint print`), for `git diff` through a textconv
/// driver: entities and their properties sorted by name, one line each, every field that
/// matters for the schema spelled out, so a diff shows what changed and nothing of how Xcode
/// happened to order or format the XML.
public enum ModelPrinter {
    /// With `hashes`, every entity, attribute and relationship line ends with its Core Data
    /// version hash (`hash=` and base64), and the model line with the digest: what a store
    /// records, for people comparing a store's metadata with a model by eye (`print --hashes`).
    public static func text(_ model: Model, hashes: ModelVersionHashes? = nil) -> String {
        var lines: [String] = []
        var header = "model"
        if let identifier = model.userDefinedModelVersionIdentifier, !identifier.isEmpty { header += " identifier=\(q(identifier))" }
        if model.usedWithCloudKit { header += " cloudkit" }
        if let hashes { header += " digest=\(hashes.digest?.base64 ?? "none")" }
        lines.append(header)
        // Hashes by entity position, so that each entity (even a second of one name) shows its own.
        let ordered = model.entities.indices.sorted { model.entities[$0].name < model.entities[$1].name }
        for entityIndex in ordered {
            let entity = model.entities[entityIndex]
            let entityHashes = hashes?.entities[entityIndex]
            func hashSuffix(_ hash: VersionHash??) -> String {
                guard let hash else { return "" }
                return " hash=\(hash?.base64 ?? "none")"
            }
            var line = "entity \(entity.name)"
            if let parent = entity.parentEntityName { line += " : \(parent)" }
            if entity.isAbstract { line += " abstract" }
            if let className = entity.representedClassName { line += " class=\(q(className))" }
            if let modifier = entity.versionHashModifier { line += " hashModifier=\(q(modifier))" }
            if let id = elementRenamingID(entity.renamingIdentifier, entity.elementID) { line += " renamingID=\(q(id))" }
            if let entityHashes {
                line += hashSuffix(.some(entityHashes.hash))
                if let problem = entityHashes.problem { line += " (\(problem))" }
                if !entityHashes.unverified.isEmpty {
                    line += " unverified=\(q(entityHashes.unverified.sorted().map(\.rawValue).joined(separator: ", ")))"
                }
            }
            lines.append(line)
            for (position, attribute) in entity.attributes.enumerated().sorted(by: { $0.element.name < $1.element.name }) {
                lines.append("  " + describe(attribute) + hashSuffix(entityHashes.map { $0.attributeHashes[position] }))
            }
            for (position, relationship) in entity.relationships.enumerated().sorted(by: { $0.element.name < $1.element.name }) {
                lines.append("  " + describe(relationship) + hashSuffix(entityHashes.map { $0.relationshipHashes[position] }))
            }
            for fetched in entity.fetchedProperties.sorted(by: { $0.name < $1.name }) {
                lines.append("  fetched \(fetched.name)")
            }
            for index in entity.fetchIndexes.sorted(by: { $0.name < $1.name }) {
                let elements = index.elements.map { "\($0.property)\($0.order == "descending" ? " desc" : "")" }
                lines.append("  index \(index.name) (\(elements.joined(separator: ", ")))")
            }
            for constraint in entity.uniquenessConstraints.map({ $0.propertyNames.joined(separator: ", ") }).sorted() {
                lines.append("  unique (\(constraint))")
            }
        }
        for configuration in model.configurations.sorted(by: { $0.name < $1.name }) {
            let members = configuration.memberEntityNames.sorted().joined(separator: ", ")
            lines.append("configuration \(configuration.name)\(configuration.usedWithCloudKit ? " cloudkit" : ""): \(members)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ a: Attribute) -> String {
        var line = "attribute \(a.name): \(a.attributeType?.xmlName ?? "(no type)")"
        line += a.isOptional ? " optional" : " required"
        if a.isTransient { line += " transient" }
        if let value = a.defaultValueString ?? a.defaultDateTimeInterval { line += " default=\(q(value))" }
        if let min = a.minValueString ?? a.minDateTimeInterval { line += " min=\(q(min))" }
        if let max = a.maxValueString ?? a.maxDateTimeInterval { line += " max=\(q(max))" }
        if let regex = a.regularExpressionString { line += " regex=\(q(regex))" }
        if let transformer = a.valueTransformerName { line += " transformer=\(q(transformer))" }
        if let className = a.customClassName { line += " class=\(q(className))" }
        if a.allowsExternalBinaryDataStorage { line += " externalStorage" }
        if a.isDerived { line += " derived=\(q(a.derivationExpression ?? ""))" }
        if a.isIndexed { line += " indexed" }
        if let modifier = a.versionHashModifier { line += " hashModifier=\(q(modifier))" }
        if let id = elementRenamingID(a.renamingIdentifier, a.elementID) { line += " renamingID=\(q(id))" }
        return line
    }

    private static func describe(_ r: Relationship) -> String {
        var line = "relationship \(r.name) → \(r.destinationEntityName ?? "(no destination)")"
        line += r.isToMany ? (r.isOrdered ? " to-many ordered" : " to-many") : " to-one"
        line += r.isOptional ? " optional" : " required"
        if r.isTransient { line += " transient" }
        if let min = r.minCount, min != 0 { line += " min=\(min)" }
        if let max = r.maxCount, max != 0, !(max == 1 && !r.isToMany) { line += " max=\(max)" }
        line += " inverse=\(r.inverseName ?? "none")"
        line += " delete=\(r.deletionRule.xmlName)"
        if let modifier = r.versionHashModifier { line += " hashModifier=\(q(modifier))" }
        if let id = elementRenamingID(r.renamingIdentifier, r.elementID) { line += " renamingID=\(q(id))" }
        return line
    }

    /// Quotes a value so spaces, quotes and line breaks cannot be mistaken for structure.
    private static func q(_ value: String) -> String {
        var escaped = "\""
        for character in value {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }
}
