/// Builds a `Model` from the events of one `contents` file.
///
/// The grammar (which element may hold which) is the one Xcode writes; see
/// `../shared/reference/coredata-behaviour.md` §6 and the fixtures under
/// `Fixtures/Models/`. An element the grammar does not expect is kept as an
/// `UnknownElement` on its parent, so newer Xcode output is never fatal.
struct ContentsReader {
    let file: String

    /// An element being read: its tag, plus what its children have produced so far.
    private final class OpenElement {
        let name: String
        let attributes: XMLAttributes
        let location: SourceLocation
        /// True for an element outside the grammar, and for everything inside one.
        let isUnknown: Bool
        var userInfo: [UserInfo.Entry] = []
        var attributeChildren: [Attribute] = []
        var relationships: [Relationship] = []
        var fetchedProperties: [FetchedProperty] = []
        var fetchRequests: [FetchRequest] = []
        var fetchIndexes: [FetchIndex] = []
        var fetchIndexElements: [FetchIndex.Element] = []
        var uniquenessConstraints: [UniquenessConstraint] = []
        var constraintMembers: [UniquenessConstraint.Member] = []
        var compoundIndexes: [CompoundIndex] = []
        var entities: [Entity] = []
        var configurations: [Configuration] = []
        var configurationMembers: [Configuration.Member] = []
        var composites: [Composite] = []
        var unknownElements: [UnknownElement] = []

        init(_ tag: XMLStartTag, file: String, isUnknown: Bool) {
            self.name = tag.name
            self.attributes = tag.attributes
            self.location = SourceLocation(file: file, line: tag.line, column: tag.column)
            self.isUnknown = isUnknown
        }
    }

    /// Which children each known element may hold. Layout (`elements`) is read past.
    private static let grammar: [String: Set<String>] = [
        "model": ["entity", "fetchRequest", "configuration", "composite", "userInfo", "elements"],
        "entity": ["attribute", "relationship", "fetchedProperty", "fetchIndex", "uniquenessConstraints",
                   "compoundIndexes", "userInfo"],
        "attribute": ["userInfo"],
        "relationship": ["userInfo"],
        "fetchedProperty": ["fetchRequest", "userInfo"],
        "fetchRequest": [],
        "fetchIndex": ["fetchIndexElement"],
        "fetchIndexElement": [],
        "uniquenessConstraints": ["uniquenessConstraint"],
        "uniquenessConstraint": ["constraint"],
        "constraint": [],
        "compoundIndexes": ["compoundIndex"],
        "compoundIndex": ["index"],
        "index": [],
        "userInfo": ["entry"],
        "entry": [],
        "configuration": ["memberEntity"],
        "memberEntity": [],
        "composite": ["attribute", "userInfo"],
    ]

    func read(_ bytes: [UInt8], version: ModelVersion, options: XMLEventParser.Options) throws(XMLParseFailure) -> Model {
        var stack: [OpenElement] = []
        var model: Model?
        var skippedDepth = 0  // > 0 while inside <elements> (layout), which nobody needs

        try XMLEventParser.parse(bytes, options: options) { event in
            switch event {
            case .text:
                break
            case .start(let tag):
                if skippedDepth > 0 {
                    skippedDepth += 1
                    return
                }
                guard let parent = stack.last else {
                    guard tag.name == "model" else {
                        throw XMLParseFailure(
                            kind: .rejectedByReader,
                            message: "the root element is <\(tag.name)>, not <model>: "
                                + "this is not a Core Data model's contents file",
                            line: tag.line, column: tag.column)
                    }
                    stack.append(OpenElement(tag, file: file, isUnknown: false))
                    return
                }
                if tag.name == "elements" && parent.name == "model" && !parent.isUnknown {
                    skippedDepth = 1
                    return
                }
                let known = !parent.isUnknown && (Self.grammar[parent.name]?.contains(tag.name) ?? false)
                stack.append(OpenElement(tag, file: file, isUnknown: !known))
            case .end:
                if skippedDepth > 0 {
                    skippedDepth -= 1
                    return
                }
                guard let element = stack.popLast() else { return }
                if let parent = stack.last {
                    close(element, into: parent)
                } else {
                    model = makeModel(element, version: version)
                }
            }
        }
        guard let model else {
            throw XMLParseFailure(kind: .malformed, message: "the document has no <model> element", line: 1, column: 1)
        }
        return model
    }

    // MARK: Closing an element into its parent

    private func close(_ element: OpenElement, into parent: OpenElement) {
        if element.isUnknown {
            parent.unknownElements.append(UnknownElement(
                name: element.name, attributes: element.attributes,
                children: element.unknownElements, location: element.location))
            return
        }
        let attributes = element.attributes
        switch element.name {
        case "entity":
            parent.entities.append(makeEntity(element))
        case "attribute":
            parent.attributeChildren.append(makeAttribute(element))
        case "relationship":
            parent.relationships.append(makeRelationship(element))
        case "fetchedProperty":
            parent.fetchedProperties.append(FetchedProperty(
                name: attributes["name"] ?? "", isOptional: attributes.bool("optional") ?? false,
                fetchRequest: element.fetchRequests.first, userInfo: UserInfo(element.userInfo),
                xmlAttributes: attributes, location: element.location))
        case "fetchRequest":
            parent.fetchRequests.append(FetchRequest(
                name: attributes["name"] ?? "", entityName: attributes["entity"],
                predicateString: attributes["predicateString"], xmlAttributes: attributes,
                location: element.location))
        case "fetchIndex":
            parent.fetchIndexes.append(FetchIndex(
                name: attributes["name"] ?? "", elements: element.fetchIndexElements, location: element.location))
        case "fetchIndexElement":
            parent.fetchIndexElements.append(FetchIndex.Element(
                property: attributes["property"] ?? "", type: attributes["type"], order: attributes["order"],
                location: element.location))
        case "uniquenessConstraints":
            parent.uniquenessConstraints.append(contentsOf: element.uniquenessConstraints)
        case "uniquenessConstraint":
            parent.uniquenessConstraints.append(UniquenessConstraint(
                members: element.constraintMembers, location: element.location))
        case "constraint", "index":
            parent.constraintMembers.append(UniquenessConstraint.Member(
                property: attributes["value"] ?? "", location: element.location))
        case "compoundIndexes":
            parent.compoundIndexes.append(contentsOf: element.compoundIndexes)
        case "compoundIndex":
            parent.compoundIndexes.append(CompoundIndex(members: element.constraintMembers, location: element.location))
        case "userInfo":
            parent.userInfo.append(contentsOf: element.userInfo)
        case "entry":
            parent.userInfo.append(UserInfo.Entry(
                key: attributes["key"] ?? "", value: attributes["value"] ?? "", location: element.location))
        case "configuration":
            parent.configurations.append(Configuration(
                name: attributes["name"] ?? "", usedWithCloudKit: attributes.bool("usedWithCloudKit") ?? false,
                members: element.configurationMembers, xmlAttributes: attributes, location: element.location))
        case "memberEntity":
            parent.configurationMembers.append(Configuration.Member(
                entityName: attributes["name"] ?? "", location: element.location))
        case "composite":
            parent.composites.append(Composite(
                name: attributes["name"] ?? "", attributes: element.attributeChildren, location: element.location))
        default:
            // Every name in `grammar` is handled above; this keeps a future addition visible.
            parent.unknownElements.append(UnknownElement(
                name: element.name, attributes: attributes, children: element.unknownElements,
                location: element.location))
        }
    }

    // MARK: Typed values

    private func makeModel(_ element: OpenElement, version: ModelVersion) -> Model {
        Model(file: file, version: version, entities: element.entities, configurations: element.configurations,
              fetchRequests: element.fetchRequests, composites: element.composites,
              userInfo: UserInfo(element.userInfo), unknownElements: element.unknownElements,
              xmlAttributes: element.attributes, location: element.location)
    }

    private func makeEntity(_ element: OpenElement) -> Entity {
        let xml = element.attributes
        return Entity(
            name: xml["name"] ?? "",
            representedClassName: xml["representedClassName"],
            parentEntityName: xml["parentEntity"],
            isAbstract: xml.bool("isAbstract") ?? false,
            codeGeneration: Entity.CodeGeneration(xmlValue: xml["codeGenerationType"]),
            versionHashModifier: xml["versionHashModifier"],
            renamingIdentifier: xml["renamingIdentifier"],
            elementID: xml["elementID"],
            syncable: xml.bool("syncable"),
            attributes: element.attributeChildren,
            relationships: element.relationships,
            fetchedProperties: element.fetchedProperties,
            fetchIndexes: element.fetchIndexes,
            uniquenessConstraints: element.uniquenessConstraints,
            compoundIndexes: element.compoundIndexes,
            userInfo: UserInfo(element.userInfo),
            unknownElements: element.unknownElements,
            xmlAttributes: xml,
            location: element.location)
    }

    private func makeAttribute(_ element: OpenElement) -> Attribute {
        let xml = element.attributes
        return Attribute(
            name: xml["name"] ?? "",
            attributeType: xml["attributeType"].map(AttributeType.init(xmlName:)),
            // Xcode omits `optional` for a required attribute.
            isOptional: xml.bool("optional") ?? false,
            isTransient: xml.bool("transient") ?? false,
            defaultValueString: xml["defaultValueString"],
            defaultDateTimeInterval: xml["defaultDateTimeInterval"],
            usesScalarValueType: xml.bool("usesScalarValueType"),
            minValueString: xml["minValueString"],
            maxValueString: xml["maxValueString"],
            minDateTimeInterval: xml["minDateTimeInterval"],
            maxDateTimeInterval: xml["maxDateTimeInterval"],
            regularExpressionString: xml["regularExpressionString"],
            allowsExternalBinaryDataStorage: xml.bool("allowsExternalBinaryDataStorage") ?? false,
            valueTransformerName: xml["valueTransformerName"],
            customClassName: xml["customClassName"],
            compositeName: xml["composite"],
            isDerived: xml.bool("derived") ?? false,
            derivationExpression: xml["derivationExpression"],
            isIndexed: xml.bool("indexed") ?? false,
            isSpotlightIndexingEnabled: xml.bool("spotlightIndexingEnabled") ?? false,
            preservesValueInHistoryOnDeletion: xml.bool("preserveAfterDeletion") ?? false,
            allowsCloudEncryption: xml.bool("allowsCloudEncryption") ?? false,
            elementID: xml["elementID"],
            versionHashModifier: xml["versionHashModifier"],
            renamingIdentifier: xml["renamingIdentifier"],
            userInfo: UserInfo(element.userInfo),
            xmlAttributes: xml,
            location: element.location)
    }

    private func makeRelationship(_ element: OpenElement) -> Relationship {
        let xml = element.attributes
        let rule = xml["deletionRule"]
        return Relationship(
            name: xml["name"] ?? "",
            destinationEntityName: xml["destinationEntity"],
            inverseName: xml["inverseName"],
            inverseEntityName: xml["inverseEntity"],
            isToMany: xml.bool("toMany") ?? false,
            isOrdered: xml.bool("ordered") ?? false,
            isOptional: xml.bool("optional") ?? false,
            isTransient: xml.bool("transient") ?? false,
            minCount: xml.int("minCount"),
            maxCount: xml.int("maxCount"),
            deletionRule: rule.map(DeleteRule.init(xmlName:)) ?? .nullify,
            declaresDeletionRule: rule != nil,
            elementID: xml["elementID"],
            versionHashModifier: xml["versionHashModifier"],
            renamingIdentifier: xml["renamingIdentifier"],
            userInfo: UserInfo(element.userInfo),
            xmlAttributes: xml,
            location: element.location)
    }
}
