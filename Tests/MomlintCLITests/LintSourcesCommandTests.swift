import Foundation
import Testing

/// `momlint lint --sources DIR`, run as the built binary from `Fixtures/SourceConsistency`.
@Suite("momlint lint --sources")
struct LintSourcesCommandTests {
    static let fixtureRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/SourceConsistency").path

    /// The `momlint` built beside the test binary (SwiftPM puts both in one products folder).
    static func momlintExecutable() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("momlint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "momlint beside \(CommandLine.arguments[0])"])
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try momlintExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: fixtureRoot)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test("findings in Swift files are printed as file:line:column and errors exit 1")
    func mistakesExitOne() throws {
        let result = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "Mistakes"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        #expect(lines.contains(
            "Mistakes/Models/Item+CoreDataProperties.swift:7:5: error: 'Item.rating' is declared 'Int', but attribute "
                + "'Item.rating' is Integer 16 with Use Scalar Type; declare it 'Int16' (scalar_type_mismatch)"))
        #expect(result.stderr.contains("Linted 1 model: 4 errors, 4 warnings."))
    }

    @Test("the clean tree exits 0 with nothing on standard output; --sources repeats")
    func cleanExitsZero() throws {
        let result = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "Clean/Models",
                                   "--sources", "Clean/Models/Note.swift"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "")
    }

    @Test("an unparsable file or a missing folder exits 2 with a one-line error naming it")
    func badSourcesExitTwo() throws {
        let unparsable = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "Unparsable"])
        #expect(unparsable.status == 2)
        #expect(unparsable.stderr.contains("Unparsable/Item.swift:8:25: error: not valid Swift: expected '}' to end "
            + "function (and 1 more syntax error); only its well-formed declarations were checked\n"))

        let missing = try Self.run(["lint", "Catalogue.xcdatamodeld", "--sources", "NoSuchFolder"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("NoSuchFolder: error: no such file or directory\n"))
    }
}
