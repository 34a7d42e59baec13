import DataModel
import Foundation
import Testing
import MomlintTestSupport

/// Which files a path names, which version of a bundle is read, and how that is said.
@Suite struct ModelLoaderTests {
    let versioned = Fixtures.path("Fixtures/Models/Versioned")

    /// The migration check's way in: every version of a bundle, taking the versions a run has
    /// loaded from it rather than reading them again, with the bundle's view of which is current.
    @Test func allVersionsReuseTheModelsAlreadyLoaded() throws {
        let bundle = Fixtures.path("Fixtures/Models/Notes.xcdatamodeld")
        // Stands for "Notes 2" as a pre-commit hook names it (directly); its one entity shows
        // whether it was reused or read again from the file.
        let marker = try ModelLoader().model(
            fromContents: Array(Fixtures.contents(#"<entity name="Marker"/>"#).utf8),
            file: bundle + "/Notes 2.xcdatamodel/contents",
            version: ModelVersion(bundlePath: bundle, name: "Notes 2", bundleVersionNames: ["Notes", "Notes 2"],
                                  selection: .namedDirectly))
        let result = ModelLoader().loadAllVersions(ofBundle: bundle, reusing: [marker])
        #expect(result.failures.isEmpty && result.notes.isEmpty)
        #expect(result.models.map(\.version.name) == ["Notes", "Notes 2"])
        #expect(result.models.map(\.version.selection) == [.otherVersion, .declaredCurrent])
        #expect(result.models[1].entities.map(\.name) == ["Marker"])
        #expect(result.models[0].file == bundle + "/Notes.xcdatamodel/contents")
        #expect(result.models[0].entity(named: "Note") != nil)

        // A version whose failure was reported already is left out, not read again.
        let skipping = ModelLoader().loadAllVersions(ofBundle: bundle, reusing: [marker], skipping: ["Notes"])
        #expect(skipping.models.map(\.version.name) == ["Notes 2"])
    }

    /// A broken `.xccurrentversion` is reported by the load that read the bundle, and not again
    /// when the versions are completed; a run that only named a version folder learns it then.
    @Test func allVersionsReportABrokenCurrentVersionFileOnce() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Notes.xcdatamodeld").path
        try FileManager.default.copyItem(atPath: Fixtures.path("Fixtures/Models/Notes.xcdatamodeld"), toPath: bundle)
        try Fixtures.write("<plist><dict", to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        let first = ModelLoader().load(paths: [bundle])
        #expect(first.failures.map(\.path) == [bundle + "/.xccurrentversion"])
        let completed = ModelLoader().loadAllVersions(ofBundle: bundle, reusing: first.models)
        #expect(completed.failures.isEmpty)
        #expect(completed.models.map(\.version.name) == ["Notes", "Notes 2"])

        let named = ModelLoader().load(paths: [bundle + "/Notes 2.xcdatamodel"])
        #expect(named.failures.isEmpty)
        let fromNamed = ModelLoader().loadAllVersions(ofBundle: bundle, reusing: named.models)
        #expect(fromNamed.failures.map(\.path) == [bundle + "/.xccurrentversion"])
    }

    @Test func declaredCurrentVersionIsRead() throws {
        let bundle = Fixtures.path("Fixtures/Models/Notes.xcdatamodeld")
        let result = ModelLoader().load(paths: [bundle])
        #expect(result.failures.isEmpty)
        #expect(result.notes.isEmpty)
        let model = try #require(result.models.first)
        #expect(result.models.count == 1)
        #expect(model.file == bundle + "/Notes 2.xcdatamodel/contents")
        #expect(model.version.name == "Notes 2")
        #expect(model.version.bundlePath == bundle)
        #expect(model.version.bundleVersionNames == ["Notes", "Notes 2"])
        #expect(model.version.selection == .declaredCurrent)
    }

    @Test func declaredOlderVersionWinsOverHigherNumbers() throws {
        let model = try #require(ModelLoader().load(paths: [versioned + "/DeclaredOlderVersion.xcdatamodeld"]).models.first)
        #expect(model.version.name == "Shop")
        #expect(model.version.selection == .declaredCurrent)
    }

    @Test func singleVersionWithoutDeclarationIsUsedQuietly() throws {
        let result = ModelLoader().load(paths: [versioned + "/SingleVersion.xcdatamodeld"])
        #expect(result.notes.isEmpty)
        #expect(result.models.first?.version.selection == .onlyVersion)
    }

    @Test func highestVersionNumberIsChosenAndSaid() throws {
        let bundle = versioned + "/NoCurrentVersion.xcdatamodeld"
        let result = ModelLoader().load(paths: [bundle])
        let model = try #require(result.models.first)
        // "Shop 10" is higher than "Shop 2": numbers compare as numbers.
        #expect(model.version.name == "Shop 10")
        #expect(model.version.bundleVersionNames == ["Shop", "Shop 2", "Shop 10"])
        #expect(model.version.selection == .highestVersionNumber)
        #expect(result.notes == [LoadNote(path: bundle,
            message: "no .xccurrentversion; linting 'Shop 10', the highest of 3 versions")])
    }

    @Test func missingDeclaredVersionIsRecordedNotFatal() throws {
        let bundle = versioned + "/MissingCurrentVersion.xcdatamodeld"
        let result = ModelLoader().load(paths: [bundle])
        #expect(result.failures.isEmpty)
        let model = try #require(result.models.first)
        #expect(model.version.name == "Shop 2")
        let declaredAt = SourceLocation(file: bundle + "/.xccurrentversion", line: 6, column: 2)
        #expect(model.version.selection == .declaredCurrentMissing(missingName: "Shop 3.xcdatamodel",
                                                                  declaredAt: declaredAt))
        #expect(result.notes.count == 1)
    }

    @Test func allVersionsLoadsEveryVersionInOrder() throws {
        let result = ModelLoader(loadsAllVersions: true).load(paths: [versioned + "/NoCurrentVersion.xcdatamodeld"])
        #expect(result.models.map(\.version.name) == ["Shop", "Shop 2", "Shop 10"])
        #expect(result.models.map(\.version.isCurrent) == [false, false, true])
    }

    @Test func contentsFileAndVersionFolderKnowTheirBundle() throws {
        let folder = Fixtures.path("Fixtures/Models/Notes.xcdatamodeld/Notes.xcdatamodel")
        let viaFolder = try #require(ModelLoader().load(paths: [folder]).models.first)
        #expect(viaFolder.version.name == "Notes")
        #expect(viaFolder.version.selection == .namedDirectly)
        let viaContents = try #require(ModelLoader().load(paths: [folder + "/contents"]).models.first)
        #expect(viaContents.version == viaFolder.version)
    }

    @Test func eachContentsFileIsLoadedOnce() {
        // What a pre-commit hook passes: the same file under several names.
        let bundle = Fixtures.path("Fixtures/Models/Notes.xcdatamodeld")
        let result = ModelLoader().load(paths: [
            bundle, bundle + "/Notes 2.xcdatamodel/contents", bundle + "/Notes 2.xcdatamodel",
            bundle + "/.xccurrentversion",
        ])
        #expect(result.models.count == 1)
        #expect(result.failures.isEmpty)
    }

    /// pre-commit's `--all-files` passes every version's `contents`; an old version must not be
    /// linted on its own (it must never change), only its bundle's current version, once.
    @Test func anOldVersionNamedDirectlyLintsItsBundlesCurrentVersion() throws {
        let bundle = Fixtures.path("Fixtures/Models/Notes.xcdatamodeld")
        let lintLoader = ModelLoader(replacesOldVersionsWithCurrent: true)
        let result = lintLoader.load(paths: [bundle + "/Notes.xcdatamodel/contents", bundle + "/Notes 2.xcdatamodel/contents"])
        #expect(result.failures.isEmpty)
        #expect(result.models.map(\.version.name) == ["Notes 2"])
        #expect(result.models.first?.version.selection == .declaredCurrent)
        #expect(result.notes.map(\.message) == [
            "'Notes' is not the current version of Notes.xcdatamodeld; linting the current version 'Notes 2' "
                + "instead (old versions are linted only with --all-versions)",
        ])
        let folder = lintLoader.load(paths: [bundle + "/Notes.xcdatamodel"])
        #expect(folder.models.map(\.version.name) == ["Notes 2"])

        // Commands that read the one version named (export, graph) get it.
        #expect(ModelLoader().load(paths: [bundle + "/Notes.xcdatamodel"]).models.map(\.version.name) == ["Notes"])
        let all = ModelLoader(loadsAllVersions: true, replacesOldVersionsWithCurrent: true)
            .load(paths: [bundle + "/Notes.xcdatamodel/contents"])
        #expect(all.models.map(\.version.name) == ["Notes"])
        #expect(all.notes.isEmpty)
    }

    @Test func folderSearchFindsBundlesAndSkipsBuildFolders() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let model = Fixtures.contents("<entity name=\"A\"/>")
        try Fixtures.write(model, to: root.appendingPathComponent("App/Model.xcdatamodeld/Model.xcdatamodel/contents"))
        try Fixtures.write(model, to: root.appendingPathComponent("Loose.xcdatamodel/contents"))
        for skipped in [".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules"] {
            try Fixtures.write(model, to: root.appendingPathComponent("\(skipped)/X.xcdatamodeld/X.xcdatamodel/contents"))
        }
        let result = ModelLoader().load(paths: [root.path])
        #expect(result.failures.isEmpty)
        #expect(result.models.map(\.file) == [
            root.path + "/App/Model.xcdatamodeld/Model.xcdatamodel/contents",
            root.path + "/Loose.xcdatamodel/contents",
        ])
    }

    @Test func folderSearchDoesNotFollowLinkCycles() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try Fixtures.write(Fixtures.contents("<entity name=\"A\"/>"),
                           to: root.appendingPathComponent("M.xcdatamodeld/M.xcdatamodel/contents"))
        try FileManager.default.createSymbolicLink(atPath: root.path + "/loop", withDestinationPath: root.path)
        let result = ModelLoader().load(paths: [root.path])
        #expect(result.models.count == 1)
    }

    @Test func oneBadInputDoesNotStopTheOthers() {
        let result = ModelLoader().load(paths: [
            Fixtures.path("Fixtures/Models/BadInput/Malformed.xcdatamodel"),
            Fixtures.path("Fixtures/Models/Notes.xcdatamodeld"),
            Fixtures.path("does/not/exist"),
        ])
        #expect(result.models.count == 1)
        #expect(result.failures.count == 2)
        #expect(result.outcomes.count == 3)
        if case .model = result.outcomes[1] {} else { Issue.record("the good input keeps its place") }
    }

    @Test func versionOrderReadsNumbersAsNumbers() {
        let names = ["Model 10", "Model", "Model 2", "Model 1.10", "Model 1.9", "Model v3"]
        #expect(names.sorted(by: ModelLoader.versionOrder)
            == ["Model", "Model 1.9", "Model 1.10", "Model 2", "Model 10", "Model v3"])
    }
}

/// `ModelPaths`' name and extension of a path replace `URL`'s on the lint's start; they must
/// give Foundation's answers for the spellings momlint is passed.
@Suite struct ModelPathsTests {
    @Test(arguments: ["Model.xcdatamodeld", "Model.xcdatamodeld/", "a/Model 2.xcdatamodel", "a/Model.xcdatamodel//",
                      "a/b/contents", "a/.xccurrentversion", "/", "a.b.c", "noextension", "a/.hidden.ext", "dir.d/file"])
    func nameAndExtensionAsFoundationGivesThem(_ path: String) {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: "/base"))
        #expect(ModelPaths.pathExtension(of: path) == Substring(url.pathExtension))
        if path != "/" { #expect(ModelPaths.lastComponent(of: path) == Substring(url.lastPathComponent)) }
    }

    @Test func parentOfAPathThatEndsInDotsIsFromTheAbsolutePath() {
        let workingDirectory = FileManager.default.currentDirectoryPath
        #expect(ModelPaths.parent(of: ".") == URL(fileURLWithPath: workingDirectory).deletingLastPathComponent().path)
        #expect(ModelPaths.parent(of: "Model.xcdatamodeld/Model.xcdatamodel") == "Model.xcdatamodeld")
        #expect(ModelPaths.parent(of: "/Model.xcdatamodeld") == "/")
        #expect(ModelPaths.parent(of: "contents") == workingDirectory)
    }
}

/// `bundleFound` hears of a bundle however it is named, before its versions are parsed, so
/// `lint` can start reading the bundle's shipped versions from git early.
@Suite struct BundleFoundTests {
    final class Heard: @unchecked Sendable {
        let lock = NSLock()
        let keepsWholePaths: Bool
        var calls: [String] = []
        init(keepsWholePaths: Bool = false) { self.keepsWholePaths = keepsWholePaths }
        func add(_ bundle: String, _ versions: [String], _ current: String) {
            lock.lock()
            calls.append("\(keepsWholePaths ? bundle : (bundle as NSString).lastPathComponent) \(versions) \(current)")
            lock.unlock()
        }
    }

    @Test(arguments: ["", "/Notes 2.xcdatamodel", "/Notes 2.xcdatamodel/contents", "/Notes.xcdatamodel/contents"])
    func toldOfTheBundleHoweverItIsNamed(_ suffix: String) {
        let heard = Heard()
        var loader = ModelLoader(replacesOldVersionsWithCurrent: true)
        loader.bundleFound = { heard.add($0, $1, $2) }
        let result = loader.load(paths: [Fixtures.models + "/Notes.xcdatamodeld" + suffix])
        #expect(result.models.map(\.version.name) == ["Notes 2"])
        #expect(heard.calls == ["Notes.xcdatamodeld [\"Notes\", \"Notes 2\"] Notes 2"])
    }

    /// `lint` starts git on the bundles `announceVersionedBundles` tells of, before the models are
    /// loaded; `load` must then tell of the same bundle, spelled the same, for the read started
    /// early to be the one it finds (`ShippedVersionReads` knows a bundle by its path).
    @Test(arguments: ["", "/", "/Notes 2.xcdatamodel", "/Notes 2.xcdatamodel/contents", "/Notes.xcdatamodel/contents",
                      "/Notes.xcdatamodel", "/.xccurrentversion"])
    func announcedAsLoadingTellsOfIt(_ suffix: String) {
        let announced = Heard(keepsWholePaths: true)
        let loaded = Heard(keepsWholePaths: true)
        var loader = ModelLoader(replacesOldVersionsWithCurrent: true)
        loader.bundleFound = { announced.add($0, $1, $2) }
        loader.announceVersionedBundles(named: [Fixtures.models + "/Notes.xcdatamodeld" + suffix])
        loader.bundleFound = { loaded.add($0, $1, $2) }
        #expect(loader.load(paths: [Fixtures.models + "/Notes.xcdatamodeld" + suffix]).models.count == 1)
        #expect(announced.calls.count == 1)
        #expect(announced.calls == loaded.calls)
    }

    /// A folder to search is left to `load`, which walks it once; a path that names nothing is
    /// left for `load` to report; a bundle of one version has no older version to read.
    @Test func foldersToSearchMissingPathsAndSingleVersionsAreNotAnnounced() {
        let heard = Heard()
        var loader = ModelLoader()
        loader.bundleFound = { heard.add($0, $1, $2) }
        loader.announceVersionedBundles(named: [Fixtures.models, Fixtures.models + "/NoSuch.xcdatamodeld", "",
                                                Fixtures.models + "/Versioned/SingleVersion.xcdatamodeld"])
        #expect(heard.calls.isEmpty)
        #expect(loader.load(paths: [Fixtures.models]).models.count > 1)
        #expect(heard.calls.contains("Notes.xcdatamodeld [\"Notes\", \"Notes 2\"] Notes 2"))
    }

    @Test func aModelOutsideABundleIsNoBundle() {
        let heard = Heard()
        var loader = ModelLoader()
        loader.bundleFound = { heard.add($0, $1, $2) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-found-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try? FileManager.default.createDirectory(atPath: folder + "/Plain.xcdatamodel", withIntermediateDirectories: true)
        try? FileManager.default.copyItem(atPath: Fixtures.models + "/Notes.xcdatamodeld/Notes.xcdatamodel/contents",
                                          toPath: folder + "/Plain.xcdatamodel/contents")
        #expect(loader.load(paths: [folder + "/Plain.xcdatamodel"]).models.count == 1)
        #expect(heard.calls.isEmpty)
    }
}
