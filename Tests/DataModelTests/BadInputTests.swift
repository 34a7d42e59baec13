import DataModel
import Foundation
import Testing
import MomlintTestSupport

/// Every kind of bad input ends in one clear error naming the file (and the line and
/// column where there is one), never a crash or a hang.
@Suite struct BadInputTests {
    let bad = Fixtures.path("Fixtures/Models/BadInput")

    /// Loads a bundle of one version, one entity, whose `.xccurrentversion` holds `currentVersion`.
    func loadBundle(currentVersion: String) throws -> LoadResult {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = root.appendingPathComponent("Shop.xcdatamodeld")
        try Fixtures.write(Fixtures.contents("<entity name=\"A\"/>"),
                           to: bundle.appendingPathComponent("Shop.xcdatamodel/contents"))
        try Fixtures.write(currentVersion, to: bundle.appendingPathComponent(".xccurrentversion"))
        return ModelLoader().load(paths: [bundle.path])
    }

    func failure(_ relative: String, loader: ModelLoader = ModelLoader()) throws -> LoadError {
        let result = loader.load(paths: [bad + "/" + relative])
        #expect(result.models.isEmpty)
        return try #require(result.failures.first)
    }

    @Test func missingPath() throws {
        let error = try failure("Nowhere.xcdatamodeld")
        #expect(error.reason == .notFound)
        #expect(error.description == bad + "/Nowhere.xcdatamodeld: error: no such file or directory")
    }

    @Test func folderThatIsNotAModel() throws {
        #expect(try failure("NotAModelFolder").reason == .notAModel(
            "no .xcdatamodeld bundle or .xcdatamodel folder in this folder or below it"))
    }

    @Test func versionFolderWithoutContents() throws {
        #expect(try failure("NoContents.xcdatamodel").reason == .notAModel("the .xcdatamodel folder has no contents file"))
    }

    @Test func fileThatIsNotAModel() throws {
        let error = try failure("README.md")
        guard case .notAModel(let why) = error.reason else { Issue.record("\(error)"); return }
        #expect(why.contains("not a Core Data model"))
    }

    @Test func malformedXMLSaysWhereAndWhat() throws {
        let error = try failure("Malformed.xcdatamodel")
        #expect(error.path == bad + "/Malformed.xcdatamodel/contents")
        #expect(error.line == 5)
        #expect(error.column == 14)
        #expect(error.reason == .malformedXML("Opening and ending tag mismatch: attribute line 4 and entity"))
    }

    @Test func legacyBinaryFormatSaysToResave() throws {
        let error = try failure("Legacy.xcdatamodel")
        #expect(error.reason == .legacyBinaryFormat)
        #expect(error.message.contains("save it to convert it to XML"))
    }

    @Test func binaryPropertyListContents() throws {
        #expect(try failure("BinaryContents.xcdatamodel").reason == .binaryPropertyList)
    }

    @Test func emptyFile() throws {
        #expect(try failure("Empty.xcdatamodel").reason == .emptyFile)
    }

    /// The message names the file that is empty: a bundle's `.xccurrentversion` is no model.
    @Test func emptyCurrentVersionFileSaysWhatItShouldHold() throws {
        let result = try loadBundle(currentVersion: "\n")
        let error = try #require(result.failures.first)
        #expect(error.reason == .emptyFile)
        #expect(error.message == "the file is empty; a bundle's .xccurrentversion is a property list that names its current version")
        #expect(result.models.count == 1)
    }

    @Test func invalidUTF8() throws {
        let error = try failure("InvalidUTF8.xcdatamodel")
        #expect(error.line == 3)
        guard case .malformedXML(let why) = error.reason else { Issue.record("\(error)"); return }
        #expect(why.contains("not proper UTF-8"))
    }

    @Test func utf16IsNamed() throws {
        guard case .unreadable(let why) = try failure("UTF16.xcdatamodel").reason else { return }
        #expect(why.contains("UTF-16"))
    }

    @Test func notAModelRootElement() throws {
        let error = try failure("NotAModel.xcdatamodel")
        #expect(error.line == 2)
        #expect(error.column == 1)
        #expect(error.message.contains("root element is <plist>"))
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let error = try failure("ExternalEntity.xcdatamodel")
        #expect(error.line == 2)
        guard case .refusedXML(let why) = error.reason else { Issue.record("\(error)"); return }
        #expect(why.contains("DOCTYPE"))
        #expect(!error.description.contains("root:"), "nothing of /etc/passwd may leak into the message")
    }

    @Test func entityBombIsRefusedBeforeExpansion() throws {
        guard case .refusedXML = try failure("EntityBomb.xcdatamodel").reason else {
            Issue.record("an entity bomb must be refused")
            return
        }
    }

    @Test func deepNestingIsBounded() throws {
        let error = try failure("DeepNesting.xcdatamodel")
        #expect(error.reason == .overLimit(LoadLimitExceeded(.depth, maximum: 64, subject: "<userInfo>")))
        #expect(error.message == "elements nest deeper than 64 levels at <userInfo>; "
                    + "Xcode never writes this, so the file is damaged or hostile")
    }

    @Test func oversizedFileIsRefusedBeforeReading() throws {
        let loader = ModelLoader(limits: LoadLimits(maximumFileBytes: 100))
        let error = try #require(loader.load(paths: [Fixtures.path("Fixtures/Models/Everything.xcdatamodel")]).failures.first)
        guard case .tooLarge(let bytes, let limit) = error.reason else { Issue.record("\(error)"); return }
        #expect(bytes > 100)
        #expect(limit == 100)
    }

    @Test func undeclaredEntityReferenceIsAnError() {
        let text = Fixtures.contents("<entity name=\"&undeclared;\"/>")
        #expect(throws: LoadError.self) {
            try ModelLoader().model(fromContents: Array(text.utf8), file: "inline")
        }
    }

    @Test func hostileCurrentVersionPlistIsRefused() throws {
        let result = try loadBundle(currentVersion: """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <plist><dict><key>_XCCurrentVersionName</key><string>&b;</string></dict></plist>
            """)
        guard case .refusedXML(let why)? = result.failures.first?.reason else {
            Issue.record("expected a refusal, got \(result.failures)")
            return
        }
        #expect(why.contains("entity declaration 'a'"))
        // The model itself is still linted, from its only version.
        #expect(result.models.count == 1)
    }
}
