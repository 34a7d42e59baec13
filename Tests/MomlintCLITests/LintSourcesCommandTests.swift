import Foundation
import Testing

/// `momlint lint --sources DIR`, run as the built binary from `Fixtures/SourceConsistency`.
@Suite("momlint lint --sources")
struct LintSourcesCommandTests {
    static let fixtureRoot = MomlintProcess.packageRoot.appendingPathComponent("Fixtures/SourceConsistency")

    static func run(_ arguments: [String]) throws -> MomlintProcess.Output {
        try MomlintProcess.run(arguments, in: fixtureRoot)
    }

    @Test("findings in Swift files are printed as file:line:column and errors exit 1")
    func mistakesExitOne() throws {
        let result = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "Mistakes"])
        #expect(result.status == 1, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        #expect(lines.contains(
            "Mistakes/Models/Item+CoreDataProperties.swift:7:5: error: 'Item.rating' is declared 'Int', but attribute "
                + "'Item.rating' is Integer 16 with Use Scalar Type; declare it 'Int16' (scalar_type_mismatch)"))
        #expect(result.standardError.contains("Linted 1 model: 4 errors, 4 warnings."))
    }

    @Test("`sources:` in a configuration checks the same tree as --sources, shown relative to the working directory")
    func configuredSourcesMatchTheOption() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("momlint.yml")
        try Data("sources:\n  - \(Self.fixtureRoot.path)/Mistakes\n".utf8).write(to: config)

        let configured = try Self.run(["lint", "Catalogue.xcdatamodeld", "--config", config.path])
        let option = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "Mistakes"])
        #expect(configured.status == 1, "\(configured.standardError)")
        #expect(configured.standardOutput == option.standardOutput)
        #expect(configured.standardOutput.contains("Mistakes/Models/Item+CoreDataProperties.swift:7:5: error: "))

        // The command line adds to the configuration; a folder named twice is checked once.
        let both = try Self.run(["lint", "Catalogue.xcdatamodeld", "--config", config.path, "--sources", "Mistakes"])
        #expect(both.standardOutput == option.standardOutput)
    }

    @Test("the clean tree exits 0 with nothing on standard output; --sources repeats")
    func cleanExitsZero() throws {
        let result = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "Clean/Models",
                                   "--sources", "Clean/Models/Note.swift"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "")
    }

    @Test("an unparsable file or a missing folder exits 2 with a one-line error naming it")
    func badSourcesExitTwo() throws {
        let unparsable = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "Unparsable"])
        #expect(unparsable.status == 2)
        #expect(unparsable.standardError.contains("Unparsable/Item.swift:8:25: error: not valid Swift: expected '}' to end "
            + "function (and 1 more syntax error); only its well-formed declarations were checked\n"))

        let missing = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "NoSuchFolder"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("NoSuchFolder: error: no such file or directory\n"))
    }
}
