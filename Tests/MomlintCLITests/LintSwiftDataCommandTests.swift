import Foundation
import Testing

/// `momlint lint --swiftdata DIR` (and `export`/`graph --swiftdata`), run as the built binary
/// from the package root on `Fixtures/SwiftData`.
@Suite("momlint lint --swiftdata")
struct LintSwiftDataCommandTests {
    @Test("each planted mistake is printed at its Swift file:line:column and errors exit 1")
    func mistakesExitOne() throws {
        let result = try MomlintProcess.run(["lint", "--swiftdata", "Fixtures/SwiftData/App"])
        #expect(result.status == 1, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 13)
        #expect(lines.contains(
            "Fixtures/SwiftData/App/Voucher.swift:7:29: error: CloudKit integration does not support unique constraints: "
                + "'Voucher' is constrained on 'code'; remove the .unique option or #Unique macro and deduplicate in code "
                + "(cloudkit_unique_constraint)"))
        #expect(lines.contains(
            "Fixtures/SwiftData/App/Traveler.swift:10:9: warning: 'Traveler.trips' has no inverse; add one on 'Trip' "
                + "(e.g. 'travelers') (missing_inverse)"))
        #expect(lines.contains(
            "Fixtures/SwiftData/App/Luggage.swift:8:9: warning: 'Luggage.weightInGrams' is 'UInt32', but Core Data stores "
                + "only signed integers and SwiftData does not document how it keeps an unsigned value (up to 4294967295); "
                + "declare it 'Int64', which holds every UInt32 (unsigned_integer_attribute)"))
        #expect(result.standardError.contains("Linted 1 model: 8 errors, 5 warnings."))
    }

    @Test("the corrected app is silent and exits 0")
    func cleanAppIsSilent() throws {
        let result = try MomlintProcess.run(["lint", "--swiftdata", "Fixtures/SwiftData/CleanApp"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "Linted 1 model: 0 errors, 0 warnings.\n")
    }

    @Test("`swiftdata:` in a configuration lints the same folder, and a folder with a Core Data model lints both")
    func configuredAndMixedFolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-swiftdata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = MomlintProcess.packageRoot.appendingPathComponent("Fixtures/SwiftData/App")
        for name in ["Note.swift", "Trip.swift", "Stop.swift", "Expense.swift", "StopCategory.swift"] {
            try FileManager.default.copyItem(at: app.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let bundle = MomlintProcess.packageRoot.appendingPathComponent("Fixtures/Models/Notes.xcdatamodeld")
        try FileManager.default.copyItem(at: bundle, to: folder.appendingPathComponent("Notes.xcdatamodeld"))
        let config = folder.appendingPathComponent("momlint.yml")
        try Data("swiftdata:\n  - \(folder.path)\n".utf8).write(to: config)

        let configured = try MomlintProcess.run(["lint", "--config", config.path])
        let option = try MomlintProcess.run(["lint", "--swiftdata", folder.path])
        #expect(configured.status == 1, "\(configured.standardError)")
        #expect(configured.standardOutput == option.standardOutput)
        #expect(option.standardOutput.contains("/Note.swift:8:9: error: 'Note.description' clashes with NSObject's"))
        #expect(option.standardError.contains("Linted 2 models"), "\(option.standardError)")
    }

    /// Mapping models are looked for in the folders linted: with only `--swiftdata` named, that
    /// is the SwiftData folder, not the whole working directory, as `lint FOLDER` would not.
    @Test("with only --swiftdata, mapping models are looked for in its folder, as `lint FOLDER` does")
    func mappingModelsOfSwiftDataFolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-swiftdata-\(UUID().uuidString)")
        let app = folder.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Elsewhere"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let typed = MomlintProcess.packageRoot.appendingPathComponent("Fixtures/Models/Migrations/TypeChangeWithMappingModel")
        try FileManager.default.copyItem(at: typed.appendingPathComponent("Typed.xcdatamodeld"),
                                         to: app.appendingPathComponent("Typed.xcdatamodeld"))
        try FileManager.default.copyItem(at: typed.appendingPathComponent("TypedToTyped2.xcmappingmodel"),
                                         to: folder.appendingPathComponent("Elsewhere/TypedToTyped2.xcmappingmodel"))
        try FileManager.default.copyItem(
            at: MomlintProcess.packageRoot.appendingPathComponent("Fixtures/SwiftData/CleanApp/Note.swift"),
            to: app.appendingPathComponent("Note.swift"))
        let finding = "App/Typed.xcdatamodeld/Model 2.xcdatamodel/contents:4:9: error: migrating stores of 'Model' to 'Model 2': "
            + "'Note.rating' type 'String' → 'Integer 16' cannot be inferred by lightweight migration (134140)"
        let coreData = try MomlintProcess.run(["lint", "App"], in: folder)
        #expect(coreData.status == 1)
        #expect(coreData.standardOutput.contains(finding), "\(coreData.standardOutput)")
        let swiftData = try MomlintProcess.run(["lint", "--swiftdata", "App"], in: folder)
        #expect(swiftData.status == 1, "\(swiftData.standardError)")
        #expect(swiftData.standardOutput.contains(finding), "\(swiftData.standardOutput)")
    }

    /// `swiftdata_cloudkit: true` is the only sign of CloudKit in this folder: the graph must
    /// colour what `lint` reports.
    @Test("graph --swiftdata honours swiftdata_cloudkit from the configuration, as lint does")
    func graphUsesTheCloudKitSetting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-swiftdata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: MomlintProcess.packageRoot.appendingPathComponent("Fixtures/SwiftData/App/Booking.swift"),
            to: folder.appendingPathComponent("Booking.swift"))
        let config = folder.appendingPathComponent("cloudkit.yml")
        try Data("swiftdata_cloudkit: true\n".utf8).write(to: config)
        let marked = "confirmationNumber: String [cloudkit_required_attribute]"

        let lint = try MomlintProcess.run(["lint", "--swiftdata", folder.path, "--config", config.path])
        #expect(lint.standardOutput.contains("(cloudkit_required_attribute)"), "\(lint.standardOutput)")
        let synced = try MomlintProcess.run(["graph", "--swiftdata", folder.path, "--format", "dot", "--config", config.path])
        #expect(synced.status == 0, "\(synced.standardError)")
        #expect(synced.standardOutput.contains(marked), "\(synced.standardOutput)")
        #expect(synced.standardOutput.contains("color=\"#d00000\""))
        let local = try MomlintProcess.run(["graph", "--swiftdata", folder.path, "--format", "dot"], in: folder)
        #expect(local.status == 0, "\(local.standardError)")
        #expect(!local.standardOutput.contains("cloudkit_required_attribute"), "\(local.standardOutput)")
    }

    @Test("export and graph take a SwiftData folder as their model")
    func exportAndGraph() throws {
        let export = try MomlintProcess.run(["export", "--swiftdata", "Fixtures/SwiftData/CleanApp", "--compact"])
        #expect(export.status == 0, "\(export.standardError)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any])
        let entities = try #require(document["entities"] as? [[String: Any]])
        #expect(entities.compactMap { $0["name"] as? String }.contains("Trip"))

        let graph = try MomlintProcess.run(["graph", "--swiftdata", "Fixtures/SwiftData/App"])
        #expect(graph.status == 0, "\(graph.standardError)")
        #expect(graph.standardOutput.contains("Traveler"))
        // Attributes in Swift's terms.
        #expect(graph.standardOutput.contains("        Int nights\n"))

        let nothing = try MomlintProcess.run(["export", "--swiftdata", "Fixtures/Models"])
        #expect(nothing.status == 2)
    }
}
