/// Writes a blueprint as the `contents` XML Xcode 15/16 saves: the same element and
/// attribute order, 4-space indentation, `YES`/`NO` booleans, defaults left out, entities
/// and properties sorted by name (attributes, then relationships, then fetched properties).
struct ContentsWriter {
    let blueprint: ModelBlueprint
    private var output = ""

    init(_ blueprint: ModelBlueprint) {
        self.blueprint = blueprint
    }

    static func contents(of blueprint: ModelBlueprint) -> String {
        var writer = ContentsWriter(blueprint)
        writer.writeModel()
        return writer.output
    }

    private mutating func writeModel() {
        output.reserveCapacity(blueprint.entities.count * 2_048)
        output += #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        open("model", depth: 0, [
            ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
            ("lastSavedToolsVersion", "23231"), ("systemVersion", "24A335"), ("minimumToolsVersion", "Automatic"),
            ("sourceLanguage", "Swift"), ("userDefinedModelVersionIdentifier", ""),
        ])
        let entities = blueprint.entities
        for entity in entities.sorted(by: { $0.name < $1.name }) {
            write(entity)
        }
        if blueprint.usesAddressComposite {
            open("composite", depth: 1, [("name", "Address")])
            for field in ["city", "postcode", "street"] {
                element("attribute", depth: 2, [("name", field), ("optional", "YES"), ("attributeType", "String")])
            }
            close("composite", depth: 1)
        }
        for request in blueprint.fetchRequests.sorted(by: { $0.name < $1.name }) {
            element("fetchRequest", depth: 1, [
                ("name", request.name), ("entity", entities[request.entity].name),
                ("predicateString", request.predicate),
            ])
        }
        let synced = entities.filter(\.syncsWithCloudKit).map(\.name).sorted()
        if !synced.isEmpty {
            writeConfiguration("Cloud", usedWithCloudKit: true, members: synced)
            writeConfiguration("Local", usedWithCloudKit: false,
                               members: entities.filter { !$0.syncsWithCloudKit }.map(\.name).sorted())
        }
        writeUserInfo(blueprint.userInfo, depth: 1)
        close("model", depth: 0)
    }

    private mutating func writeConfiguration(_ name: String, usedWithCloudKit: Bool, members: [String]) {
        guard !members.isEmpty else { return }
        open("configuration", depth: 1, [("name", name)] + (usedWithCloudKit ? [("usedWithCloudKit", "YES")] : []))
        for member in members {
            element("memberEntity", depth: 2, [("name", member)])
        }
        close("configuration", depth: 1)
    }

    private mutating func write(_ entity: EntityBlueprint) {
        var xml: [(String, String)] = [("name", entity.name), ("representedClassName", entity.name)]
        if entity.isAbstract { xml.append(("isAbstract", "YES")) }
        if let parent = entity.parent { xml.append(("parentEntity", blueprint.entities[parent].name)) }
        xml += [("syncable", "YES"), ("codeGenerationType", "class")]
        open("entity", depth: 1, xml)
        for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
            write(attribute)
        }
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
            write(relationship)
        }
        for property in entity.fetchedProperties.sorted(by: { $0.name < $1.name }) {
            open("fetchedProperty", depth: 2, [("name", property.name), ("optional", "YES")])
            element("fetchRequest", depth: 3, [
                ("name", "fetchedPropertyFetchRequest"), ("entity", blueprint.entities[property.destination].name),
                ("predicateString", property.predicate),
            ])
            close("fetchedProperty", depth: 2)
        }
        for members in entity.fetchIndexes {
            let name = "by" + members.map(Vocabulary.uppercasingFirst).joined(separator: "And") + "Index"
            open("fetchIndex", depth: 2, [("name", name)])
            for member in members {
                element("fetchIndexElement", depth: 3, [("property", member), ("type", "Binary"), ("order", "ascending")])
            }
            close("fetchIndex", depth: 2)
        }
        if !entity.uniquenessConstraints.isEmpty {
            open("uniquenessConstraints", depth: 2, [])
            for members in entity.uniquenessConstraints {
                open("uniquenessConstraint", depth: 3, [])
                for member in members {
                    element("constraint", depth: 4, [("value", member)])
                }
                close("uniquenessConstraint", depth: 3)
            }
            close("uniquenessConstraints", depth: 2)
        }
        writeUserInfo(entity.userInfo, depth: 2)
        close("entity", depth: 1)
    }

    private mutating func write(_ attribute: AttributeBlueprint) {
        var xml: [(String, String)] = [("name", attribute.name)]
        if attribute.isOptional { xml.append(("optional", "YES")) }
        if attribute.isTransient { xml.append(("transient", "YES")) }
        xml.append(("attributeType", attribute.type.rawValue))
        if let value = attribute.minValue { xml.append(("minValueString", value)) }
        if let value = attribute.maxValue { xml.append(("maxValueString", value)) }
        if let value = attribute.defaultValue { xml.append(("defaultValueString", value)) }
        if let value = attribute.defaultDateTimeInterval { xml.append(("defaultDateTimeInterval", value)) }
        if let scalar = attribute.usesScalarValueType { xml.append(("usesScalarValueType", scalar ? "YES" : "NO")) }
        if let pattern = attribute.regularExpression { xml.append(("regularExpressionString", pattern)) }
        if attribute.allowsExternalBinaryDataStorage { xml.append(("allowsExternalBinaryDataStorage", "YES")) }
        if let name = attribute.valueTransformerName { xml.append(("valueTransformerName", name)) }
        if let name = attribute.customClassName { xml.append(("customClassName", name)) }
        if let name = attribute.compositeName { xml.append(("composite", name)) }
        if let expression = attribute.derivationExpression {
            xml += [("derived", "YES"), ("derivationExpression", expression)]
        }
        if attribute.isSpotlightIndexed { xml.append(("spotlightIndexingEnabled", "YES")) }
        if attribute.preservesValueInHistoryOnDeletion { xml.append(("preserveAfterDeletion", "YES")) }
        if attribute.allowsCloudEncryption { xml.append(("allowsCloudEncryption", "YES")) }
        if let id = attribute.elementID { xml.append(("elementID", id)) }
        elementWithUserInfo("attribute", xml, attribute.userInfo)
    }

    private mutating func write(_ relationship: RelationshipBlueprint) {
        var xml: [(String, String)] = [("name", relationship.name)]
        if relationship.isOptional { xml.append(("optional", "YES")) }
        if relationship.isToMany {
            xml.append(("toMany", "YES"))
            if let maxCount = relationship.maxCount { xml.append(("maxCount", String(maxCount))) }
        } else {
            xml.append(("maxCount", "1"))
        }
        xml.append(("deletionRule", relationship.deletionRule.rawValue))
        if relationship.isOrdered { xml.append(("ordered", "YES")) }
        let destination = blueprint.entities[relationship.destination].name
        xml += [("destinationEntity", destination), ("inverseName", relationship.inverseName),
                ("inverseEntity", destination)]
        elementWithUserInfo("relationship", xml, relationship.userInfo)
    }

    // MARK: XML

    private mutating func elementWithUserInfo(_ name: String, _ attributes: [(String, String)], _ userInfo: [UserInfoEntry]) {
        guard !userInfo.isEmpty else {
            element(name, depth: 2, attributes)
            return
        }
        open(name, depth: 2, attributes)
        writeUserInfo(userInfo, depth: 3)
        close(name, depth: 2)
    }

    private mutating func writeUserInfo(_ entries: [UserInfoEntry], depth: Int) {
        guard !entries.isEmpty else { return }
        open("userInfo", depth: depth, [])
        for entry in entries {
            element("entry", depth: depth + 1, [("key", entry.key), ("value", entry.value)])
        }
        close("userInfo", depth: depth)
    }

    private mutating func open(_ name: String, depth: Int, _ attributes: [(String, String)]) {
        startTag(name, depth: depth, attributes)
        output += ">\n"
    }

    private mutating func element(_ name: String, depth: Int, _ attributes: [(String, String)]) {
        startTag(name, depth: depth, attributes)
        output += "/>\n"
    }

    private mutating func close(_ name: String, depth: Int) {
        output += String(repeating: "    ", count: depth) + "</" + name + ">\n"
    }

    private mutating func startTag(_ name: String, depth: Int, _ attributes: [(String, String)]) {
        output += String(repeating: "    ", count: depth) + "<" + name
        for (key, value) in attributes {
            output += " " + key + "=\"" + Self.escaped(value) + "\""
        }
    }

    /// Escapes what may not appear raw in a double-quoted XML attribute value.
    static func escaped(_ value: String) -> String {
        guard value.contains(where: { "&<>\"".contains($0) }) else { return value }
        var result = ""
        for character in value {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
