import Dispatch

/// Builds a `Model` from the events of one `contents` file.
///
/// The grammar (which element may hold which) is the one Xcode writes; see
/// `docs/coredata-semantics.md` §6 and the fixtures under
/// `Fixtures/Models/`. An element the grammar does not expect is kept as an
/// `UnknownElement` on its parent, so newer Xcode output is never fatal.
struct ContentsReader {
    let file: String
    /// The file's first line and column: each element's location is made in the same file
    /// (`SourceLocation(line:column:inFileOf:)`), without looking its path up per element.
    let start: SourceLocation

    init(file: String) {
        self.file = file
        self.start = SourceLocation(file: file, line: 1, column: 1)
    }

    /// An element being read: its tag, plus what its children have produced so far. A value in
    /// the assembler's stack, not an object to allocate, count and free for each of a large
    /// model's 131,000 elements (docs/benchmarks.md, "Less memory per element").
    private struct OpenElement {
        let name: String
        let known: KnownXMLName?
        let attributes: XMLAttributes
        let location: SourceLocation
        /// True for an element outside the grammar, and for everything inside one.
        let isUnknown: Bool
        /// Made when the first child closes. Most elements (an attribute, a relationship) have
        /// no children, and giving each of them fifteen empty arrays to fill and free was a
        /// tenth of building the model.
        private(set) var produced: Produced?

        /// What the element's children have produced, made on first use.
        mutating func children() -> Produced {
            if let produced { return produced }
            let made = Produced()
            produced = made
            return made
        }

        var userInfo: [UserInfo.Entry] { produced?.userInfo ?? [] }
        var attributeChildren: [Attribute] { produced?.attributeChildren ?? [] }
        var relationships: [Relationship] { produced?.relationships ?? [] }
        var fetchedProperties: [FetchedProperty] { produced?.fetchedProperties ?? [] }
        var fetchRequests: [FetchRequest] { produced?.fetchRequests ?? [] }
        var fetchIndexes: [FetchIndex] { produced?.fetchIndexes ?? [] }
        var fetchIndexElements: [FetchIndex.Element] { produced?.fetchIndexElements ?? [] }
        var uniquenessConstraints: [UniquenessConstraint] { produced?.uniquenessConstraints ?? [] }
        var constraintMembers: [UniquenessConstraint.Member] { produced?.constraintMembers ?? [] }
        var compoundIndexes: [CompoundIndex] { produced?.compoundIndexes ?? [] }
        var entities: [Entity] { produced?.entities ?? [] }
        var configurations: [Configuration] { produced?.configurations ?? [] }
        var configurationMembers: [Configuration.Member] { produced?.configurationMembers ?? [] }
        var composites: [Composite] { produced?.composites ?? [] }
        var unknownElements: [UnknownElement] { produced?.unknownElements ?? [] }

        init(_ tag: XMLStartTag, inFileOf start: SourceLocation, isUnknown: Bool) {
            self.name = tag.name
            self.known = tag.known
            self.attributes = tag.attributes
            self.location = SourceLocation(line: tag.line, column: tag.column, inFileOf: start)
            self.isUnknown = isUnknown
        }
    }

    /// The values an element's children have produced, by kind.
    private final class Produced {
        @exclusivity(unchecked) var userInfo: [UserInfo.Entry] = []
        @exclusivity(unchecked) var attributeChildren: [Attribute] = []
        @exclusivity(unchecked) var relationships: [Relationship] = []
        @exclusivity(unchecked) var fetchedProperties: [FetchedProperty] = []
        @exclusivity(unchecked) var fetchRequests: [FetchRequest] = []
        @exclusivity(unchecked) var fetchIndexes: [FetchIndex] = []
        @exclusivity(unchecked) var fetchIndexElements: [FetchIndex.Element] = []
        @exclusivity(unchecked) var uniquenessConstraints: [UniquenessConstraint] = []
        @exclusivity(unchecked) var constraintMembers: [UniquenessConstraint.Member] = []
        @exclusivity(unchecked) var compoundIndexes: [CompoundIndex] = []
        @exclusivity(unchecked) var entities: [Entity] = []
        @exclusivity(unchecked) var configurations: [Configuration] = []
        @exclusivity(unchecked) var configurationMembers: [Configuration.Member] = []
        @exclusivity(unchecked) var composites: [Composite] = []
        @exclusivity(unchecked) var unknownElements: [UnknownElement] = []
    }

    /// Whether the grammar lets `parent` hold `child`. Layout (`elements`) is read past.
    private static func allows(_ parent: KnownXMLName?, _ child: KnownXMLName?) -> Bool {
        guard let parent, let child else { return false }
        switch parent {
        case .model:
            return [.entity, .fetchRequest, .configuration, .composite, .userInfo, .elements].contains(child)
        case .entity:
            return [.attribute, .relationship, .fetchedProperty, .fetchIndex, .uniquenessConstraints,
                    .compoundIndexes, .userInfo].contains(child)
        case .attribute, .relationship: return child == .userInfo
        case .fetchedProperty: return child == .fetchRequest || child == .userInfo
        case .fetchIndex: return child == .fetchIndexElement
        case .uniquenessConstraints: return child == .uniquenessConstraint
        case .uniquenessConstraint: return child == .constraint
        case .compoundIndexes: return child == .compoundIndex
        case .compoundIndex: return child == .index
        case .userInfo: return child == .entry
        case .configuration: return child == .memberEntity
        case .composite: return child == .attribute || child == .userInfo
        default: return false
        }
    }

    /// The model the document describes. A large document is read in parts, one per core
    /// (`ContentsParts`); what it gives is always what reading it whole gives.
    ///
    /// `bytes` is taken, not borrowed: once the parts are parsed nothing needs the file any more,
    /// and letting it go before they are joined lets the join's tables reuse its memory instead
    /// of fresh pages, each of which the kernel clears first (docs/benchmarks.md, "Fresh pages").
    func read(_ bytes: consuming [UInt8], version: ModelVersion, options: XMLEventParser.Options) throws(XMLParseFailure) -> Model {
        let document = try XMLEventParser.Document(consume bytes, options: options)
        let cuts = ContentsParts.cuts(in: document.bytes, parts: ContentsParts.partCount(forBytes: document.bytes.count))
        if !cuts.isEmpty, let parts = parseParts(document, cuts: cuts, options: options) {
            _ = consume document
            return joined(parts, version: version)
        }
        return try readWhole(document, version: version, options: options)
    }

    /// Reads the document in one pass, on this thread, building its tables as its entities close.
    func readWhole(_ document: XMLEventParser.Document, version: ModelVersion,
                   options: XMLEventParser.Options) throws(XMLParseFailure) -> Model {
        let tables = IndexBuilderBox()
        let assembler = Assembler(reader: self, limits: options.limits) { tables.builder.append($0) }
        try XMLEventParser.parse(document, options: options, handle: assembler.handle)
        guard let root = assembler.root else {
            throw XMLParseFailure(kind: .malformed, message: "the document has no <model> element", line: 1, column: 1)
        }
        return makeModel(root, version: version, index: tables.builder.finish())
    }

    /// Reads the parts between `cuts` at once, one per core, each building the tables of its
    /// own entities, and joins them in document order. Nil when any part fails, or the parts
    /// together pass a limit that each alone did not: the caller then reads the document
    /// whole, which reports the failure exactly as it would have without the parts (see
    /// `ContentsParts` for why a model read in parts equals the model read whole).
    func readInParts(_ document: XMLEventParser.Document, cuts: [Int], version: ModelVersion,
                     options: XMLEventParser.Options) -> Model? {
        parseParts(document, cuts: cuts, options: options).map { joined($0, version: version) }
    }

    /// The parts between `cuts`, each parsed on a core of its own, in document order; nil when
    /// any fails or together they pass a limit (see `readInParts`).
    private func parseParts(_ document: XMLEventParser.Document, cuts: [Int],
                            options: XMLEventParser.Options) -> [PartResult]? {
        let bounds = [0] + cuts + [document.bytes.count]
        let parts = (0..<bounds.count - 1).map { number in
            XMLEventParser.Part(range: bounds[number]..<bounds[number + 1], rootName: KnownXMLName.model.rawValue,
                                opensRoot: number > 0, closesRoot: number < bounds.count - 2)
        }
        let results = ConcurrentSlots<PartResult>(count: parts.count)
        ConcurrentWork.perform(iterations: parts.count) { number in
            let tables = IndexBuilderBox()
            let assembler = Assembler(reader: self, limits: options.limits) { tables.builder.append($0) }
            do {
                try XMLEventParser.parse(document, part: parts[number], options: options, handle: assembler.handle)
            } catch {
                return
            }
            guard let root = assembler.root else { return }
            results[number] = PartResult(root: root, tables: tables.builder, elementCount: assembler.elementCount)
        }
        guard let read = results.takeAll() else { return nil }
        // Each part counts the root it is given; the document has one.
        let elementCount = read.reduce(0) { $0 + $1.elementCount } - (read.count - 1)
        let entityCount = read.reduce(0) { $0 + $1.root.entities.count }
        guard elementCount <= options.limits.maximumElements, entityCount <= options.limits.maximumEntities else {
            return nil
        }
        return read
    }

    /// The model of the parts, their tables joined in document order.
    private func joined(_ parts: consuming [PartResult], version: ModelVersion) -> Model {
        // A `consuming` parameter is never copied implicitly, and the loop below copies; the
        // move into a variable costs nothing.
        var read = parts
        // Moved out, not copied: appending to tables still referenced from `read` would copy
        // every one of them first.
        var tables = ModelIndex.Builder()
        swap(&tables, &read[0].tables)
        for part in read.dropFirst() { tables.append(contentsOf: part.tables) }
        return makeModel(read.map(\.root), version: version, index: tables.finish())
    }

    /// What one part produced: its root (with the model-level elements of the part) and the
    /// tables of its entities.
    private struct PartResult {
        var root: OpenElement
        var tables: ModelIndex.Builder
        var elementCount: Int
    }

    /// The tables one part builds as its entities close, on the part's own thread.
    private final class IndexBuilderBox {
        var builder = ModelIndex.Builder()
    }

    /// Turns one parse's events into elements: a stack of open elements, each closed into its
    /// parent. `root` is the `<model>` element once it has closed.
    private final class Assembler {
        let reader: ContentsReader
        let limits: LoadLimits
        /// Called with each entity of the model as it closes, in document order.
        let entityClosed: (Entity) -> Void
        private(set) var root: OpenElement?
        /// Every start tag seen, those skipped included (the parser's element count).
        private(set) var elementCount = 0
        // Only the parse touches these, one event at a time (as in `OpenElement`).
        @exclusivity(unchecked) private var stack: [OpenElement] = []
        /// Above zero while inside <elements> (layout), which nobody needs.
        @exclusivity(unchecked) private var skippedDepth = 0

        init(reader: ContentsReader, limits: LoadLimits, entityClosed: @escaping (Entity) -> Void) {
            self.reader = reader
            self.limits = limits
            self.entityClosed = entityClosed
        }

        func handle(_ event: XMLEventParser.Event) throws {
            switch event {
            case .text:
                break
            case .start(let tag):
                elementCount += 1
                if skippedDepth > 0 {
                    skippedDepth += 1
                    return
                }
                guard let parent = stack.last else {
                    guard tag.known == .model else {
                        throw XMLParseFailure(
                            kind: .rejectedByReader,
                            message: "the root element is <\(tag.name)>, not <model>: "
                                + "this is not a Core Data model's contents file",
                            line: tag.line, column: tag.column)
                    }
                    stack.append(OpenElement(tag, inFileOf: reader.start, isUnknown: false))
                    return
                }
                if tag.known == .elements && parent.known == .model && !parent.isUnknown {
                    skippedDepth = 1
                    return
                }
                let allowed = !parent.isUnknown && ContentsReader.allows(parent.known, tag.known)
                if allowed { try ContentsReader.checkLimits(of: tag, in: parent, limits: limits) }
                stack.append(OpenElement(tag, inFileOf: reader.start, isUnknown: !allowed))
            case .end:
                if skippedDepth > 0 {
                    skippedDepth -= 1
                    return
                }
                // `removeLast`, not `popLast`: unwrapping the optional copied the element.
                guard !stack.isEmpty else { return }
                let element = stack.removeLast()
                guard !stack.isEmpty else {
                    root = element
                    return
                }
                let siblings = stack[stack.count - 1].children()
                reader.close(element, into: siblings)
                // An entity of the model itself (the root is always <model>).
                if stack.count == 1, element.known == .entity, !element.isUnknown, let entity = siblings.entities.last {
                    entityClosed(entity)
                }
            }
        }
    }

    // MARK: Limits

    /// Whether the attribute's value names an entity, a property, a class or a configuration.
    /// A switch, not a set: this is asked of every attribute of every element, and hashing the
    /// code each time cost more than the rest of the check.
    private static func isNameAttribute(_ known: KnownXMLName) -> Bool {
        switch known {
        case .name, .representedClassName, .parentEntity, .destinationEntity, .inverseName, .inverseEntity,
             .customClassName, .valueTransformerName, .composite, .entity:
            return true
        default:
            return false
        }
    }

    /// Bounds what one model may declare (see `LoadLimits`), checked as each element of the
    /// grammar opens, so no count ever runs past its limit.
    private static func checkLimits(of tag: XMLStartTag, in parent: OpenElement,
                                    limits: LoadLimits) throws(XMLParseFailure) {
        if let exceeded = tooMany(tag, in: parent, limits: limits) ?? tooLongName(in: tag, limits: limits) {
            throw XMLParseFailure(exceeded, line: tag.line, column: tag.column)
        }
    }

    private static func tooMany(_ tag: XMLStartTag, in parent: OpenElement, limits: LoadLimits) -> LoadLimitExceeded? {
        switch tag.known {
        case .entity? where (parent.produced?.entities.count ?? 0) >= limits.maximumEntities:
            return LoadLimitExceeded(.entities, maximum: limits.maximumEntities,
                                     subject: "entity \(LoadLimitExceeded.quoted(tag.attributes.value(of: .name) ?? ""))")
        case .attribute?, .relationship?, .fetchedProperty?:
            let declared = parent.produced.map {
                $0.attributeChildren.count + $0.relationships.count + $0.fetchedProperties.count
            } ?? 0
            guard declared >= limits.maximumPropertiesPerEntity else { return nil }
            let owner = parent.known == .composite ? "composite" : "entity"
            return LoadLimitExceeded(.propertiesPerEntity, maximum: limits.maximumPropertiesPerEntity,
                                     subject: "\(owner) \(LoadLimitExceeded.quoted(parent.attributes.value(of: .name) ?? ""))")
        default:
            return nil
        }
    }

    private static func tooLongName(in tag: XMLStartTag, limits: LoadLimits) -> LoadLimitExceeded? {
        for attribute in tag.attributes {
            guard let known = attribute.known, isNameAttribute(known),
                  attribute.value.utf8.count > limits.maximumNameBytes else { continue }
            return LoadLimitExceeded(.nameBytes, maximum: limits.maximumNameBytes,
                                     subject: "the \(attribute.name) \(LoadLimitExceeded.quoted(attribute.value))")
        }
        return nil
    }

    // MARK: Closing an element into its parent

    /// Adds what `element` makes to what its parent's children have produced.
    private func close(_ element: OpenElement, into produced: Produced) {
        if element.isUnknown {
            produced.unknownElements.append(UnknownElement(
                name: element.name, attributes: element.attributes,
                children: element.unknownElements, location: element.location))
            return
        }
        let attributes = element.attributes
        switch element.known {
        case .entity?:
            produced.entities.append(makeEntity(element))
        case .attribute?:
            produced.attributeChildren.append(makeAttribute(element))
        case .relationship?:
            produced.relationships.append(makeRelationship(element))
        case .fetchedProperty?:
            produced.fetchedProperties.append(FetchedProperty(
                name: attributes.value(of: .name) ?? "", isOptional: attributes.bool(of: .optional) ?? false,
                fetchRequest: element.fetchRequests.first, userInfo: UserInfo(element.userInfo),
                xmlAttributes: attributes, location: element.location))
        case .fetchRequest?:
            produced.fetchRequests.append(FetchRequest(
                name: attributes.value(of: .name) ?? "", entityName: attributes.value(of: .entity),
                predicateString: attributes.value(of: .predicateString), xmlAttributes: attributes,
                location: element.location))
        case .fetchIndex?:
            produced.fetchIndexes.append(FetchIndex(
                name: attributes.value(of: .name) ?? "", elements: element.fetchIndexElements, location: element.location))
        case .fetchIndexElement?:
            produced.fetchIndexElements.append(FetchIndex.Element(
                property: attributes.value(of: .property) ?? "", type: attributes.value(of: .type), order: attributes.value(of: .order),
                location: element.location))
        case .uniquenessConstraints?:
            produced.uniquenessConstraints.append(contentsOf: element.uniquenessConstraints)
        case .uniquenessConstraint?:
            produced.uniquenessConstraints.append(UniquenessConstraint(
                members: element.constraintMembers, location: element.location))
        case .constraint?, .index?:
            produced.constraintMembers.append(UniquenessConstraint.Member(
                property: attributes.value(of: .value) ?? "", location: element.location))
        case .compoundIndexes?:
            produced.compoundIndexes.append(contentsOf: element.compoundIndexes)
        case .compoundIndex?:
            produced.compoundIndexes.append(CompoundIndex(members: element.constraintMembers, location: element.location))
        case .userInfo?:
            produced.userInfo.append(contentsOf: element.userInfo)
        case .entry?:
            produced.userInfo.append(UserInfo.Entry(
                key: attributes.value(of: .key) ?? "", value: attributes.value(of: .value) ?? "", location: element.location))
        case .configuration?:
            produced.configurations.append(Configuration(
                name: attributes.value(of: .name) ?? "", usedWithCloudKit: attributes.bool(of: .usedWithCloudKit) ?? false,
                members: element.configurationMembers, xmlAttributes: attributes, location: element.location))
        case .memberEntity?:
            produced.configurationMembers.append(Configuration.Member(
                entityName: attributes.value(of: .name) ?? "", location: element.location))
        case .composite?:
            produced.composites.append(Composite(
                name: attributes.value(of: .name) ?? "", attributes: element.attributeChildren, location: element.location))
        default:
            // Every element `allows` admits is handled above; this keeps a future addition visible.
            produced.unknownElements.append(UnknownElement(
                name: element.name, attributes: attributes, children: element.unknownElements,
                location: element.location))
        }
    }

    // MARK: Typed values

    private func makeModel(_ element: OpenElement, version: ModelVersion, index: ModelIndex?) -> Model {
        makeModel([element], version: version, index: index)
    }

    /// The model from the roots of a document's parts, in document order: the first is the
    /// document's own `<model>`, and each later one holds the elements of its part.
    private func makeModel(_ roots: [OpenElement], version: ModelVersion, index: ModelIndex?) -> Model {
        let root = roots[0]
        func joined<Element>(_ elements: (OpenElement) -> [Element]) -> [Element] {
            roots.count == 1 ? elements(root) : roots.flatMap(elements)
        }
        return Model(file: file, version: version, entities: joined(\.entities), configurations: joined(\.configurations),
                     fetchRequests: joined(\.fetchRequests), composites: joined(\.composites),
                     userInfo: UserInfo(joined(\.userInfo)), unknownElements: joined(\.unknownElements),
                     xmlAttributes: root.attributes, location: root.location, index: index)
    }

    // Each typed element is decoded in one pass over its attributes, switching on the
    // grammar code the parser attached to each name. Its `xmlAttributes` keeps only the
    // attributes no typed field holds (unknown names, and names of the grammar this element does
    // not use): holding every attribute again beside its typed field was about a quarter of a
    // large model's memory, pages the kernel clears and blocks the rules miss on.

    private func makeEntity(_ element: OpenElement) -> Entity {
        var entity = Entity(
            name: "", attributes: element.attributeChildren, relationships: element.relationships,
            fetchedProperties: element.fetchedProperties, fetchIndexes: element.fetchIndexes,
            uniquenessConstraints: element.uniquenessConstraints, compoundIndexes: element.compoundIndexes,
            userInfo: UserInfo(element.userInfo), unknownElements: element.unknownElements,
            location: element.location)
        var unread: [XMLAttributes.Attribute] = []
        for attribute in element.attributes {
            let value = attribute.value
            switch attribute.known {
            case .name: entity.name = value
            case .representedClassName: entity.representedClassName = value
            case .parentEntity: entity.parentEntityName = value
            case .isAbstract: entity.isAbstract = XMLAttributes.bool(value) ?? false
            case .codeGenerationType: entity.codeGeneration = Entity.CodeGeneration(xmlValue: value)
            case .versionHashModifier: entity.versionHashModifier = value
            case .renamingIdentifier: entity.renamingIdentifier = value
            case .elementID: entity.elementID = value
            case .syncable: entity.syncable = XMLAttributes.bool(value)
            default: unread.append(attribute)
            }
        }
        if !unread.isEmpty { entity.xmlAttributes = XMLAttributes(unread) }
        return entity
    }

    private func makeAttribute(_ element: OpenElement) -> Attribute {
        // Xcode omits `optional` for a required attribute, so required is the starting point.
        var result = Attribute(inlineFields: Attribute.Fields(
            name: "", attributeType: nil, isOptional: false, isTransient: false, defaultValueString: nil,
            usesScalarValueType: nil, allowsExternalBinaryDataStorage: false, isDerived: false, isIndexed: false,
            isSpotlightIndexingEnabled: false, preservesValueInHistoryOnDeletion: false, allowsCloudEncryption: false,
            userInfo: UserInfo(element.userInfo), xmlAttributes: XMLAttributes(), location: element.location))
        var unread: [XMLAttributes.Attribute] = []
        for attribute in element.attributes {
            let value = attribute.value
            switch attribute.known {
            case .name: result.name = value
            case .attributeType: result.attributeType = AttributeType(xmlName: value)
            case .optional: result.isOptional = XMLAttributes.bool(value) ?? false
            case .transient: result.isTransient = XMLAttributes.bool(value) ?? false
            case .defaultValueString: result.defaultValueString = value
            case .defaultDateTimeInterval: result.defaultDateTimeInterval = value
            case .usesScalarValueType: result.usesScalarValueType = XMLAttributes.bool(value)
            case .minValueString: result.minValueString = value
            case .maxValueString: result.maxValueString = value
            case .minDateTimeInterval: result.minDateTimeInterval = value
            case .maxDateTimeInterval: result.maxDateTimeInterval = value
            case .regularExpressionString: result.regularExpressionString = value
            case .allowsExternalBinaryDataStorage: result.allowsExternalBinaryDataStorage = XMLAttributes.bool(value) ?? false
            case .valueTransformerName: result.valueTransformerName = value
            case .customClassName: result.customClassName = value
            case .composite: result.compositeName = value
            case .derived: result.isDerived = XMLAttributes.bool(value) ?? false
            case .derivationExpression: result.derivationExpression = value
            case .indexed: result.isIndexed = XMLAttributes.bool(value) ?? false
            case .spotlightIndexingEnabled: result.isSpotlightIndexingEnabled = XMLAttributes.bool(value) ?? false
            case .preserveAfterDeletion: result.preservesValueInHistoryOnDeletion = XMLAttributes.bool(value) ?? false
            case .allowsCloudEncryption: result.allowsCloudEncryption = XMLAttributes.bool(value) ?? false
            case .elementID: result.elementID = value
            case .versionHashModifier: result.versionHashModifier = value
            case .renamingIdentifier: result.renamingIdentifier = value
            default: unread.append(attribute)
            }
        }
        if !unread.isEmpty { result.xmlAttributes = XMLAttributes(unread) }
        return result
    }

    private func makeRelationship(_ element: OpenElement) -> Relationship {
        // A missing `deletionRule` means Nullify to Core Data; `declaresDeletionRule` remembers it.
        var result = Relationship(name: "", destinationEntityName: nil, isOptional: false,
                                  declaresDeletionRule: false, userInfo: UserInfo(element.userInfo),
                                  location: element.location)
        var unread: [XMLAttributes.Attribute] = []
        for attribute in element.attributes {
            let value = attribute.value
            switch attribute.known {
            case .name: result.name = value
            case .destinationEntity: result.destinationEntityName = value
            case .inverseName: result.inverseName = value
            case .inverseEntity: result.inverseEntityName = value
            case .toMany: result.isToMany = XMLAttributes.bool(value) ?? false
            case .ordered: result.isOrdered = XMLAttributes.bool(value) ?? false
            case .optional: result.isOptional = XMLAttributes.bool(value) ?? false
            case .transient: result.isTransient = XMLAttributes.bool(value) ?? false
            case .minCount: (result.minCount, result.minCountText) = (Int(value), value)
            case .maxCount: (result.maxCount, result.maxCountText) = (Int(value), value)
            case .deletionRule:
                result.deletionRule = DeleteRule(xmlName: value)
                result.declaresDeletionRule = true
            case .elementID: result.elementID = value
            case .versionHashModifier: result.versionHashModifier = value
            case .renamingIdentifier: result.renamingIdentifier = value
            default: unread.append(attribute)
            }
        }
        if !unread.isEmpty { result.xmlAttributes = XMLAttributes(unread) }
        return result
    }
}
