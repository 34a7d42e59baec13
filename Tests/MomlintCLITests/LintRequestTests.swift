import ArgumentParser
import DataModel
@testable import momlint
import Testing

/// `momlint lint PATH…` with no option skips swift-argument-parser (`Momlint.lintRequest(for:)`),
/// so `LintRequest`'s defaults must be the options' defaults, and only such command lines may
/// take the short cut.
struct LintRequestTests {
    @Test func aCommandLineOfPathsIsWhatParsingItWouldGive() throws {
        for paths in [[], ["Fixtures/Models/Notes.xcdatamodeld"], ["a", "b c", ""]] {
            let parsed = try LintCommand.parse(paths).request
            #expect(LintRequest(paths: paths) == parsed)
            #expect(Momlint.lintRequest(for: ["lint"] + paths) == parsed)
        }
        #expect(Momlint.lintRequest(for: ["Model.xcdatamodeld"]) == LintRequest(paths: ["Model.xcdatamodeld"]))
    }

    @Test func optionsAreStillParsed() throws {
        let request = try #require(Momlint.lintRequest(for: ["lint", "--strict", "--max-entities", "7", "--", "-odd"]))
        #expect(request.strict)
        #expect(request.limits.maximumEntities == 7)
        #expect(request.paths == ["-odd"])
        #expect(request.limits.maximumElements == LoadLimits.standard.maximumElements)
    }

    /// Plain spellings of every option, alone and together, are read by hand exactly as
    /// ArgumentParser reads them (`LintRequest(parsingPlainOptions:)`).
    @Test func plainOptionsAreReadAsArgumentParserReadsThem() throws {
        let lines: [[String]] = [
            ["--strict"], ["--quiet", "a"], ["--all-versions", "a", "b"],
            ["--since", "main", "a"], ["--since=origin/main"], ["--since=HEAD~2", "x"], ["--since=a=b"],
            ["--baseline", "b.json", "--write-baseline=w.json"],
            ["--reporter", "json", "--reporter=sarif:out.sarif", "a"], ["--reporter", "xcode:a=b.txt"],
            ["--sources", "Sources", "--sources=More", "--swiftdata", "App", "--swiftdata=Lib"],
            ["--config", "a.yml", "--config=b.yml"],
            ["--migration-path", "stepwise", "a"], ["--migration-path=direct"], ["--all-versions", "--migration-path=stepwise"],
            ["--max-file-size", "10", "--max-elements=20", "--max-entities", "30", "--max-properties=40"],
            ["--max-entities", "007"],
            ["a", "--strict", "b", "--", "--quiet", "-x"], ["--", "--"], ["a", "--", "--help"], [], ["a", "b c", ""],
        ]
        for line in lines {
            let plain = try #require(LintRequest(parsingPlainOptions: line), "\(line)")
            #expect(plain == (try LintCommand.parse(line)).request, "\(line)")
            #expect(Momlint.lintRequest(for: ["lint"] + line) == plain, "\(line)")
        }
    }

    /// Any other spelling is ArgumentParser's to read: what it accepts comes out as it reads it,
    /// and what it refuses goes through the root, which gives its message.
    @Test func otherSpellingsAreLeftToArgumentParser() {
        let lines: [[String]] = [
            ["--strict", "--strict"], ["--strict=yes"], ["--since", "a", "--since", "b"], ["--since"],
            ["--since", ""], ["--since="], ["--since", "-x"], ["--reporter", "--strict"], ["--max-entities", "0"],
            ["--max-entities", "x"], ["--migration-path", "sideways"], ["--migration-path=Stepwise"],
            ["--migration-path", "direct", "--migration-path", "stepwise"], ["--max-entities", "99999999999999999999"], ["-strict"], ["--no-such-option"], ["-"],
        ]
        for line in lines {
            #expect(LintRequest(parsingPlainOptions: line) == nil, "\(line)")
            #expect(Momlint.lintRequest(for: ["lint"] + line) == (try? LintCommand.parse(line))?.request, "\(line)")
        }
    }

    /// Every option `lint` declares has its plain spelling, so that none is slow by oversight.
    @Test func everyDeclaredOptionHasAPlainSpelling() throws {
        let help = LintCommand.helpMessage(columns: 500)
        let declared = Set(help.matches(of: try Regex("--[a-z][a-z-]*")).map { String(help[$0.range]) })
        #expect(declared.subtracting(["--help"]) == Set(LintRequest.PlainOption.allCases.map(\.name)))
    }

    @Test func subcommandsHelpAndMistakesGoThroughTheRoot() {
        for arguments in [["rules"], ["help"], ["--version"], ["lint", "--help"], ["lint", "--no-such-option"], ["-h"]] {
            #expect(Momlint.lintRequest(for: arguments) == nil, "\(arguments)")
        }
    }
}
