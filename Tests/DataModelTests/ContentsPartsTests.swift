@testable import DataModel
import Foundation
import Testing
import MomlintTestSupport

/// A large `contents` document is read in parts, one per core (`ContentsParts`). The model read
/// in parts must be the model read whole, down to every location and every table; and whenever
/// a part cannot stand on its own (a cut in a comment, in a nested element) or the parts together
/// pass a limit, the document is read whole, so the user sees exactly the whole read's error.
@Suite struct ContentsPartsTests {
    /// Inheritance across the cut both ways, a name repeated across the cut, inverses declared on
    /// the other side, an entity large enough for its own name table, model-level elements on
    /// both sides, and an unknown element at the top level.
    static let body = """
        <entity name="Animal" isAbstract="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
        </entity>
        <entity name="Cat" parentEntity="Dog"/>
        <fetchRequest name="AllPeople" entity="Person"/>
        <entity name="Twin">
            <attribute name="first" optional="YES" attributeType="Integer 16" defaultValueString="1" usesScalarValueType="YES"/>
        </entity>
        <entity name="Dog" parentEntity="Animal">
            <attribute name="name" optional="YES" attributeType="String"/>
            <userInfo>
                <entry key="momlint:disable" value="duplicate_property"/>
            </userInfo>
        </entity>
        <futureElement kind="new"/>
        <entity name="Person">
            <relationship name="pets" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Animal" inverseName="owner" inverseEntity="Animal"/>
            <relationship name="friend" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Person" inverseName="friend" inverseEntity="Person"/>
            \((0..<30).map { "<attribute name=\"field\($0)\" optional=\"YES\" attributeType=\"String\"/>" }.joined(separator: "\n    "))
        </entity>
        <entity name="Twin">
            <attribute name="second" attributeType="UUID" defaultValueString="not-a-uuid"/>
            <relationship name="person" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
        </entity>
        <entity name="Puppy" parentEntity="Dog">
            <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Nowhere"/>
        </entity>
        <configuration name="Cloud" usedWithCloudKit="YES">
            <memberEntity name="Person"/>
        </configuration>
        <elements>
            <element name="Person" positionX="0" positionY="0" width="128" height="44"/>
        </elements>
        """

    static let bytes = Array(Fixtures.contents(body, modelAttributes: " usedWithCloudKit=\"YES\"").utf8)
    static let options = XMLEventParser.Options(limits: .standard)
    let reader = ContentsReader(file: "Parts.xcdatamodel/contents")

    /// The offset of each line's `<entity` (the places a cut may fall), in document order.
    static func entityStarts(in bytes: [UInt8]) -> [Int] {
        let text = String(decoding: bytes, as: UTF8.self)
        var starts: [Int] = []
        var searched = text.startIndex
        while let found = text.range(of: "\n<entity", range: searched..<text.endIndex) {
            starts.append(text.utf8.distance(from: text.startIndex, to: found.lowerBound) + 1)
            searched = found.upperBound
        }
        return starts
    }

    @Test func everyCutAndEveryPairOfCutsReadsAsTheWhole() throws {
        let document = try XMLEventParser.Document(Self.bytes, options: Self.options)
        let whole = try reader.readWhole(document, version: ModelLoader.standaloneVersion, options: Self.options)
        let starts = Self.entityStarts(in: Self.bytes)
        #expect(starts.count == 7)
        var cutsTried = 0
        for first in starts.indices {
            for second in [nil] + starts.indices.filter({ $0 > first }).map(Optional.some) {
                let cuts = [starts[first]] + (second.map { [starts[$0]] } ?? [])
                let parted = try #require(
                    reader.readInParts(document, cuts: cuts, version: ModelLoader.standaloneVersion, options: Self.options),
                    "cut at \(cuts) fell back to a whole read")
                expectSameModel(parted, whole, "cut at \(cuts)")
                cutsTried += 1
            }
        }
        #expect(cutsTried == 28)
    }

    /// A model large enough to be worth three parts (Notes' entities repeated under new names):
    /// the cuts `ContentsParts` picks give the whole's model, and `read`, which picks them itself
    /// on a machine of several cores, gives it too.
    @Test func aLargeModelReadsAsTheWholeAtTheCutsItsPartsPick() throws {
        let bytes = Array(try String(contentsOfFile: Fixtures.path("Fixtures/Models/Notes.xcdatamodeld/Notes.xcdatamodel/contents"),
                                     encoding: .utf8).utf8)
        // Notes is small: repeat its entities under new names until the document has three parts' worth.
        let text = String(decoding: bytes, as: UTF8.self)
        let entities = try #require(text.range(of: "    <entity")).lowerBound..<(try #require(text.range(of: "</model>")).lowerBound)
        var body = ""
        var copy = 0
        while body.utf8.count < 3 * ContentsParts.minimumPartBytes {
            body += text[entities].replacingOccurrences(of: "name=\"", with: "name=\"C\(copy)")
                .replacingOccurrences(of: "Entity=\"", with: "Entity=\"C\(copy)")
            copy += 1
        }
        let large = Array(Fixtures.contents(body).utf8)
        let cuts = ContentsParts.cuts(in: large, parts: 3)
        #expect(cuts.count == 2)
        let document = try XMLEventParser.Document(large, options: Self.options)
        let whole = try reader.readWhole(document, version: ModelLoader.standaloneVersion, options: Self.options)
        let parted = try #require(reader.readInParts(document, cuts: cuts, version: ModelLoader.standaloneVersion,
                                                     options: Self.options))
        expectSameModel(parted, whole, "three parts")
        expectSameModel(try reader.read(large, version: ModelLoader.standaloneVersion, options: Self.options), whole, "read")
        #expect(whole.entities.count > 1_000)
    }

    @Test func cutsFallOnEntitiesThatBeginALine() throws {
        let text = "<model>\n  <entityX/>\n <a><entity name=\"inline\"/></a>\n\t<entity name=\"A\"/>\n  <entity\n name=\"B\"/>\n</model>"
        let bytes = Array(text.utf8)
        let first = try #require(Self.offset(of: "<entity name=\"A\"", in: text))
        let second = try #require(Self.offset(of: "<entity\n", in: text))
        #expect(ContentsParts.cuts(in: bytes, parts: 2) == [first])
        #expect(ContentsParts.cuts(in: bytes, parts: 3) == [first, second])
        // Past the last entity there is nowhere to cut: fewer cuts, never a bad one.
        #expect(ContentsParts.cuts(in: bytes, parts: 40).count == 2)
        #expect(ContentsParts.cuts(in: bytes, parts: 1).isEmpty)
        #expect(ContentsParts.partCount(forBytes: ContentsParts.minimumPartBytes - 1) == 1)
    }

    static func offset(of needle: String, in text: String) -> Int? {
        text.range(of: needle).map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) }
    }

    /// A cut where no part can start: in a comment, in CDATA, inside another element. The parts
    /// fail on their own, and `read` gives the whole's model.
    @Test(arguments: [
        "<!--\n<entity name=\"Hidden\"/>\n-->",
        "<futureElement>\n<entity name=\"Nested\"/>\n</futureElement>",
        "<futureElement><![CDATA[\n<entity name=\"Data\"/>\n]]></futureElement>",
    ])
    func aCutWhereNoPartCanStartFallsBackToTheWhole(_ hiding: String) throws {
        let text = Fixtures.contents("<entity name=\"A\"/>\n\(hiding)\n<entity name=\"B\"/>")
        let bytes = Array(text.utf8)
        let document = try XMLEventParser.Document(bytes, options: Self.options)
        let hidden = try #require(Self.entityStarts(in: bytes).dropFirst().first)
        #expect(reader.readInParts(document, cuts: [hidden], version: ModelLoader.standaloneVersion, options: Self.options) == nil)
        let whole = try reader.readWhole(document, version: ModelLoader.standaloneVersion, options: Self.options)
        #expect(whole.entities.map(\.name) == ["A", "B"])
    }

    /// Each part alone is within the limit, the document is not: the whole read reports it.
    @Test func limitsCountTheWholeDocumentNotEachPart() throws {
        let body = (0..<6).map { "<entity name=\"E\($0)\"><attribute name=\"a\" attributeType=\"String\"/></entity>" }
            .joined(separator: "\n")
        let bytes = Array(Fixtures.contents(body).utf8)
        let cuts = [try #require(Self.entityStarts(in: bytes).dropFirst(3).first)]
        for limits in [LoadLimits(maximumElements: 12), LoadLimits(maximumEntities: 5)] {
            let options = XMLEventParser.Options(limits: limits)
            let document = try XMLEventParser.Document(bytes, options: options)
            #expect(reader.readInParts(document, cuts: cuts, version: ModelLoader.standaloneVersion, options: options) == nil)
            #expect(throws: XMLParseFailure.self) {
                try reader.readWhole(document, version: ModelLoader.standaloneVersion, options: options)
            }
        }
        // At the limit, not past it: read in parts.
        let options = XMLEventParser.Options(limits: LoadLimits(maximumElements: 13, maximumEntities: 6))
        let document = try XMLEventParser.Document(bytes, options: options)
        #expect(reader.readInParts(document, cuts: cuts, version: ModelLoader.standaloneVersion, options: options) != nil)
    }

    /// A malformed second half: `read` reports the whole document's error, position and all.
    @Test func aMalformedPartReportsTheWholeDocumentsError() throws {
        let body = (0..<4).map { "<entity name=\"E\($0)\"/>" }.joined(separator: "\n") + "\n<entity name=\"Bad\" <oops/>"
        let bytes = Array(Fixtures.contents(body).utf8)
        let document = try XMLEventParser.Document(bytes, options: Self.options)
        let cuts = [try #require(Self.entityStarts(in: bytes).dropFirst(2).first)]
        #expect(reader.readInParts(document, cuts: cuts, version: ModelLoader.standaloneVersion, options: Self.options) == nil)
        var wholeFailure: XMLParseFailure?
        do { _ = try reader.readWhole(document, version: ModelLoader.standaloneVersion, options: Self.options) } catch {
            wholeFailure = error
        }
        var readFailure: XMLParseFailure?
        do { _ = try reader.read(bytes, version: ModelLoader.standaloneVersion, options: Self.options) } catch {
            readFailure = error
        }
        #expect(wholeFailure != nil)
        #expect(readFailure == wholeFailure)
    }

    /// The tables merged from builders of consecutive runs of entities equal the tables one
    /// builder makes of them all.
    @Test func mergedTablesEqualTablesBuiltInOnePass() throws {
        let model = try Fixtures.model(Self.body)
        for split in 0...model.entities.count {
            var first = ModelIndex.Builder(), second = ModelIndex.Builder()
            for entity in model.entities[..<split] { first.append(entity) }
            for entity in model.entities[split...] { second.append(entity) }
            first.append(contentsOf: second)
            #expect(first.finish() == ModelIndex(entities: model.entities), "split at \(split)")
        }
    }

    /// libxml2 pulls a part's input in pieces of its own choosing: whatever their size, the
    /// pieces join into the bare start tag, the part's bytes and the end tag, and then stop.
    @Test(arguments: [1, 2, 3, 7, 4000, 1 << 20])
    func aPartsInputReadsAsHeadRangeAndTailInAnyPieces(pieceSize: Int) {
        let bytes = Array("<model>\n<entity name=\"A\"/>\n<entity name=\"B\"/>\n</model>\n".utf8)
        let range = 8..<27  // the first entity and its newline
        let part = XMLEventParser.Part(range: range, rootName: "model", opensRoot: true, closesRoot: true)
        var input = ParserInput(bytes, range: range, head: part.head, tail: part.tail)
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: pieceSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, maximum: pieceSize) }
            guard count > 0 else { break }
            #expect(count <= pieceSize)
            read += buffer[..<count]
        }
        #expect(String(decoding: read, as: UTF8.self) == "<model><entity name=\"A\"/>\n</model>")
        #expect(read.count == input.count)
        #expect(buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, maximum: pieceSize) } == 0)
    }
}

/// Everything a model holds and everything its tables answer, compared one by one.
private func expectSameModel(_ parted: Model, _ whole: Model, _ context: String,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(parted.entities == whole.entities, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.configurations == whole.configurations, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.fetchRequests == whole.fetchRequests, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.composites == whole.composites, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.userInfo == whole.userInfo, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.unknownElements == whole.unknownElements, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.xmlAttributes == whole.xmlAttributes, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.location == whole.location, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.usedWithCloudKit == whole.usedWithCloudKit, "\(context)", sourceLocation: sourceLocation)
    #expect(parted.relationshipCount == whole.relationshipCount, "\(context)", sourceLocation: sourceLocation)
    for (entityIndex, entity) in whole.entities.enumerated() {
        #expect(parted.entityIndex(named: entity.name) == whole.entityIndex(named: entity.name), "\(context)",
                sourceLocation: sourceLocation)
        #expect(parted.parentIndex(ofEntityAt: entityIndex) == whole.parentIndex(ofEntityAt: entityIndex), "\(context)",
                sourceLocation: sourceLocation)
        #expect(parted.ancestorIndexes(ofEntityAt: entityIndex) == whole.ancestorIndexes(ofEntityAt: entityIndex),
                "\(context)", sourceLocation: sourceLocation)
        #expect(parted.subentities(of: entity) == whole.subentities(of: entity), "\(context)", sourceLocation: sourceLocation)
        #expect(parted.ownPropertyNames(ofEntityAt: entityIndex) == whole.ownPropertyNames(ofEntityAt: entityIndex),
                "\(context)", sourceLocation: sourceLocation)
        for relationshipIndex in entity.relationships.indices {
            let position = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
            #expect(parted.position(of: parted.relationship(at: position)) == position, "\(context)",
                    sourceLocation: sourceLocation)
            #expect(parted.inversePosition(of: position) == whole.inversePosition(of: position), "\(context)",
                    sourceLocation: sourceLocation)
            #expect(parted.destinationIndex(ofRelationshipAt: position) == whole.destinationIndex(ofRelationshipAt: position),
                    "\(context)", sourceLocation: sourceLocation)
            #expect(parted.traits(ofRelationshipAt: position) == whole.traits(ofRelationshipAt: position), "\(context)",
                    sourceLocation: sourceLocation)
        }
    }
    #expect(parted.attributePositions { _ in true } == whole.attributePositions { _ in true }, "\(context)",
            sourceLocation: sourceLocation)
}
