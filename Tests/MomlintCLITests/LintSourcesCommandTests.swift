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
