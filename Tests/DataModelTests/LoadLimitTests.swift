@testable import DataModel
import Foundation
import Testing
import MomlintTestSupport

/// Every `LoadLimits` bound ends the load with one clear error that names the limit, the
/// element that crossed it (with its line and column) and what to do; just under a limit,
/// the model loads.
@Suite struct LoadLimitTests {
    let bad = Fixtures.path("Fixtures/Models/BadInput")

    func load(_ body: String, limits: LoadLimits = .standard) throws(LoadError) -> Model {
        try ModelLoader(limits: limits).model(fromContents: Array(Fixtures.contents(body).utf8), file: "inline")
    }

    func overLimit(_ body: String, limits: LoadLimits = .standard) throws -> (LoadError, LoadLimitExceeded) {
        let error: LoadError
        switch Result(catching: { () throws(LoadError) -> Model in try load(body, limits: limits) }) {
        case .success(let model):
            Issue.record("expected a limit to stop the load, got \(model.entities.count) entities")
            throw CancellationError()
        case .failure(let failure):
            error = failure
        }
        guard case .overLimit(let exceeded) = error.reason else {
            Issue.record("expected a limit error, got \(error)")
            throw error
        }
        return (error, exceeded)
    }

    @Test func entities() throws {
        let limits = LoadLimits(maximumEntities: 3)
        let three = "<entity name=\"A\"/>\n<entity name=\"B\"/>\n<entity name=\"C\"/>"
        #expect(try load(three, limits: limits).entities.count == 3)

        let (error, exceeded) = try overLimit(three + "\n<entity name=\"D\"/>", limits: limits)
        #expect(exceeded == LoadLimitExceeded(.entities, maximum: 3, subject: "entity 'D'"))
        #expect(error.place == "inline:6:1")
        #expect(error.message == "the model declares more than 3 entities (at entity 'D'); "
                    + "if the model is real, raise the limit with --max-entities")
    }

    @Test func propertiesPerEntity() throws {
        let limits = LoadLimits(maximumPropertiesPerEntity: 3)
        let three = """
            <entity name="Order">
                <attribute name="a" attributeType="String"/>
                <relationship name="b" destinationEntity="Order"/>
                <fetchedProperty name="c"/>
            """
        #expect(try load(three + "</entity>", limits: limits).entities[0].properties.count == 3)

        let (error, exceeded) = try overLimit(three + "\n<attribute name=\"d\"/></entity>", limits: limits)
        #expect(exceeded == LoadLimitExceeded(.propertiesPerEntity, maximum: 3, subject: "entity 'Order'"))
        #expect(error.place == "inline:7:1")
        #expect(error.message.hasSuffix("raise the limit with --max-properties"))
    }

    @Test func compositeAttributesCountAsProperties() throws {
        let body = "<composite name=\"Address\"><attribute name=\"a\"/><attribute name=\"b\"/></composite>"
        let (_, exceeded) = try overLimit(body, limits: LoadLimits(maximumPropertiesPerEntity: 1))
        #expect(exceeded.subject == "composite 'Address'")
    }

    @Test func elementsIncludeLayoutAndUnknownElements() throws {
        // <model> + 2 entities + <elements> + 2 layout elements = 6.
        let body = """
            <entity name="A"/><entity name="B"/>
            <elements><element name="A"/><element name="B"/></elements>
            """
        #expect(try load(body, limits: LoadLimits(maximumElements: 6)).entities.count == 2)
        let (error, exceeded) = try overLimit(body, limits: LoadLimits(maximumElements: 5))
        #expect(exceeded == LoadLimitExceeded(.elements, maximum: 5, subject: "<element>"))
        #expect(error.place == "inline:4:30")
        #expect(error.message.hasSuffix("raise the limit with --max-elements"))
    }

    @Test func attributesPerElementFixture() throws {
        let error = try #require(ModelLoader().load(paths: [bad + "/AttributeFlood.xcdatamodel"]).failures.first)
        #expect(error.reason == .overLimit(LoadLimitExceeded(.attributesPerElement, maximum: 256, subject: "<entity>")))
        #expect(error.line == 3)
        #expect(error.column == 5)
        #expect(error.message == "<entity> has more than 256 attributes; "
                    + "Xcode never writes this, so the file is damaged or hostile")
    }

    @Test func attributesAtTheLimitLoad() throws {
        let attributes = (0..<255).map { "a\($0)=\"x\"" }.joined(separator: " ")
        let model = try load("<entity name=\"Wide\" \(attributes)/>", limits: LoadLimits(maximumAttributesPerElement: 256))
        // `name` is a typed field; the 255 names outside the grammar are kept as written.
        #expect(model.entities[0].name == "Wide")
        #expect(model.entities[0].xmlAttributes.ordered.count == 255)
    }

    /// libxml2 2.9 compares each attribute of a tag with every earlier one: without the
    /// scan before parsing, this one tag (1.4 MB) keeps the parser busy for minutes.
    @Test func hugeStartTagIsRefusedBeforeLibxml2ParsesIt() throws {
        let attributes = (0..<120_000).map { "a\($0)='x'" }.joined(separator: " ")
        let (error, exceeded) = try overLimit("<entity name=\"Flood\" \(attributes)/>")
        #expect(exceeded.limit == .attributesPerElement)
        #expect(error.place == "inline:3:1")
    }

    /// A document large enough to be read in parts (`ContentsParts.minimumPartBytes` a part)
    /// makes its line table and its attribute scan at once, one per core: a crowded tag deep in
    /// it is refused all the same, at its own place.
    @Test func aCrowdedTagDeepInALargeDocumentIsRefusedWhereItIs() throws {
        let filler = String(repeating: "<!-- \(String(repeating: "filler ", count: 13)) -->\n    ", count: 10_000)
        #expect(filler.utf8.count >= 2 * ContentsParts.minimumPartBytes)
        let attributes = (0..<300).map { "a\($0)='x'" }.joined(separator: " ")
        let (error, exceeded) = try overLimit(filler + "<entity name=\"Flood\" \(attributes)/>")
        #expect(exceeded == LoadLimitExceeded(.attributesPerElement, maximum: 256, subject: "<entity>"))
        #expect(error.place == "inline:10003:5")
    }

    /// The scan skips a tag whose next `<` is too close for it to hold more attributes than
    /// allowed (five bytes each at least). At the boundary: the shortest attributes there can be,
    /// one more than allowed, are still counted and refused.
    @Test func theShortestPossibleAttributesAreStillCounted() throws {
        let limit = 4
        let attributes = String(repeating: " a=\"\"", count: limit + 1)  // ` a=""`: five bytes each
        let (_, exceeded) = try overLimit("<entity\(attributes)/>",
                                          limits: LoadLimits(maximumAttributesPerElement: limit))
        #expect(exceeded == LoadLimitExceeded(.attributesPerElement, maximum: limit, subject: "<entity>"))
    }

    @Test func namespaceDeclarationsCountAsAttributes() throws {
        let declarations = (0..<5).map { "xmlns:p\($0)=\"urn:\($0)\"" }.joined(separator: " ")
        let (_, exceeded) = try overLimit("<entity name=\"A\" \(declarations)/>",
                                          limits: LoadLimits(maximumAttributesPerElement: 5))
        #expect(exceeded == LoadLimitExceeded(.attributesPerElement, maximum: 5, subject: "<entity>"))
    }

    @Test func equalsSignsOutsideStartTagsAreNotAttributes() throws {
        // Quoted values, comments, CDATA and processing instructions may hold any number of
        // '=' and '>' without counting as attributes.
        let many = String(repeating: "a=b> ", count: 50)
        let body = """
            <!-- \(many) -->
            <?note \(many)?>
            <entity name="A" renamingIdentifier="\(many)" versionHashModifier='\(many)'>
                <userInfo><entry key="k" value="\(many)"/></userInfo>
            </entity>
            """
        let model = try load(body, limits: LoadLimits(maximumAttributesPerElement: 3))
        #expect(model.entities[0].versionHashModifier == many)
    }

    @Test func longDeclaredNameFixture() throws {
        let error = try #require(ModelLoader().load(paths: [bad + "/LongName.xcdatamodel"]).failures.first)
        guard case .overLimit(let exceeded) = error.reason else { Issue.record("\(error)"); return }
        #expect(exceeded.limit == .nameBytes)
        #expect(exceeded.subject == "the destinationEntity '\(String(repeating: "Item", count: 10))…'")
        #expect(error.place == bad + "/LongName.xcdatamodel/contents:4:9")
    }

    @Test func nameLimitCountsUTF8Bytes() throws {
        // 15 bytes is also the longest XML name in the document ("documentVersion").
        let limits = LoadLimits(maximumNameBytes: 15)
        let fifteenBytes = "Caf\u{E9}Caf\u{E9}Caf\u{E9}"  // 12 characters
        #expect(try load("<entity name=\"\(fifteenBytes)\"/>", limits: limits).entities[0].name == fifteenBytes)
        let (_, exceeded) = try overLimit("<entity name=\"\(fifteenBytes)s\"/>", limits: limits)
        #expect(exceeded == LoadLimitExceeded(.nameBytes, maximum: 15, subject: "the name '\(fifteenBytes)s'"))
    }

    @Test func xmlNamesAreBoundedToo() throws {
        let limits = LoadLimits(maximumNameBytes: 16)
        let long = String(repeating: "x", count: 17)
        let (_, element) = try overLimit("<\(long)/>", limits: limits)
        #expect(element.subject == "the element name '\(long)'")
        let (_, attribute) = try overLimit("<entity name=\"A\" \(long)=\"1\"/>", limits: limits)
        #expect(attribute.subject == "the attribute name '\(long)'")
    }

    @Test func valuesThatAreNotNamesMayBeLong() throws {
        let predicate = String(repeating: "a == 1 OR ", count: 200) + "b == 2"
        let model = try load("<fetchRequest name=\"R\" entity=\"A\" predicateString=\"\(predicate)\"/>",
                             limits: LoadLimits(maximumNameBytes: 64))
        #expect(model.fetchRequests[0].predicateString == predicate)
    }

    @Test func limitsNameTheirOptionOrSayTheFileIsDamaged() {
        for limit in LoadLimits.Limit.allCases {
            let message = LoadLimitExceeded(limit, maximum: 1, subject: "x").message
            #expect(!message.contains("\n"))
            if let option = limit.option {
                #expect(message.hasSuffix("raise the limit with \(option)"))
            } else {
                #expect(message.hasSuffix("the file is damaged or hostile"))
            }
        }
        #expect(LoadError(path: "m", reason: .tooLarge(bytes: 10, limit: 5)).message
                    == "the file is 10 bytes, over the limit of 5 bytes for a model; "
                    + "if the model is real, raise the limit with --max-file-size")
    }

    @Test func defaultsStayAboveWhatXcodeWritesAndBelowWhatHurts() {
        let limits = LoadLimits.standard
        #expect(limits.maximumFileBytes == 256 * 1024 * 1024)
        #expect(limits.maximumDepth == 64)
        #expect(limits.maximumElements == 2_000_000)
        #expect(limits.maximumAttributesPerElement == 256)
        #expect(limits.maximumNameBytes == 1024)
        #expect(limits.maximumEntities == 100_000)
        #expect(limits.maximumPropertiesPerEntity == 10_000)
        for limit in LoadLimits.Limit.allCases { #expect(limits[limit] > 0) }
    }
}

/// Hostile or foreign XML that is not about size: encodings and DTD declarations.
@Suite struct HostileXMLTests {
    let bad = Fixtures.path("Fixtures/Models/BadInput")

    @Test func declaredEncodingIsIgnoredAndTheErrorIsOneLine() throws {
        let error = try #require(ModelLoader().load(paths: [bad + "/ForeignEncoding.xcdatamodel"]).failures.first)
        #expect(error.place == bad + "/ForeignEncoding.xcdatamodel/contents:3:22")
        #expect(error.reason == .malformedXML(
            "Input is not proper UTF-8 (models are UTF-8, as Xcode writes them); Bytes: 0xE9 0x22 0x2F 0x3E"))
        #expect(!error.description.contains("\n"))
    }

    @Test func asciiDocumentDeclaringAnotherEncodingStillLoads() throws {
        let text = Fixtures.contents("<entity name=\"A\"/>").replacingOccurrences(of: "UTF-8", with: "ISO-8859-1")
        #expect(try ModelLoader().model(fromContents: Array(text.utf8), file: "inline").entities.count == 1)
    }

    func writeBundle(plist: String) throws -> (root: URL, bundle: String) {
        let root = try Fixtures.temporaryFolder()
        let bundle = root.appendingPathComponent("Hostile.xcdatamodeld")
        try Fixtures.write(Fixtures.contents("<entity name=\"A\"/>"),
                           to: bundle.appendingPathComponent("Hostile.xcdatamodel/contents"))
        try Fixtures.write(plist, to: bundle.appendingPathComponent(".xccurrentversion"))
        return (root, bundle.path)
    }

    /// An attribute-list declaration would give every <dict> defaulted attributes that no
    /// scan of the bytes can count; element and notation declarations have no business here.
    @Test(arguments: [
        ("<!ATTLIST dict a0 CDATA \"x\" a1 CDATA \"y\">", "attribute-list declaration 'dict'"),
        ("<!ELEMENT dict ANY>", "element declaration 'dict'"),
        ("<!NOTATION gif SYSTEM \"gif\">", "notation declaration 'gif'"),
        ("<!ENTITY pic SYSTEM \"pic.gif\" NDATA gif>", "entity declaration 'pic'"),
    ])
    func declarationsInACurrentVersionPlistAreRefused(declaration: String, expected: String) throws {
        let (root, bundle) = try writeBundle(plist: """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist [\(declaration)]>
            <plist><dict><key>_XCCurrentVersionName</key><string>Hostile.xcdatamodel</string></dict></plist>
            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = ModelLoader().load(paths: [bundle])
        guard case .refusedXML(let why)? = result.failures.first?.reason else {
            Issue.record("expected a refusal, got \(result.failures)")
            return
        }
        #expect(why.hasPrefix(expected))
        #expect(result.models.count == 1, "the model itself is still linted from its only version")
    }

    @Test func appleDoctypeWithoutInternalSubsetStillLoads() throws {
        let (root, bundle) = try writeBundle(plist: """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Hostile.xcdatamodel</string></dict></plist>
            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = ModelLoader().load(paths: [bundle])
        #expect(result.failures.isEmpty)
        #expect(result.models.first?.version.selection == .declaredCurrent)
    }
}
