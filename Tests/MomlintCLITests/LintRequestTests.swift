import ArgumentParser
import DataModel
import LintDriver
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

    /// A command line with any option is ArgumentParser's to read: what it accepts comes out as
    /// it reads it, and what it refuses goes through the root, which gives its message.
    @Test func commandLinesWithOptionsAreReadByArgumentParser() {
        let lines: [[String]] = [
            ["--strict"], ["--quiet", "a"], ["--since=origin/main"], ["--reporter", "json", "--reporter=sarif:out.sarif", "a"],
            ["--migration-path", "stepwise", "a"], ["a", "--strict", "b", "--", "--quiet", "-x"], ["--", "--"],
            ["--strict", "--strict"], ["--since"], ["--max-entities", "0"], ["--migration-path", "sideways"],
            ["-strict"], ["--no-such-option"], ["-"],
        ]
        for line in lines {
            #expect(Momlint.lintRequest(for: ["lint"] + line) == (try? LintCommand.parse(line))?.request, "\(line)")
        }
    }

    @Test func subcommandsHelpAndMistakesGoThroughTheRoot() {
        for arguments in [["rules"], ["help"], ["--version"], ["lint", "--help"], ["lint", "--no-such-option"], ["-h"]] {
            #expect(Momlint.lintRequest(for: arguments) == nil, "\(arguments)")
        }
    }
}
