import Foundation
import SafeYAML
import Testing
import Yams

/// Hostile YAML ends in one clear refusal, with its line and column, before Yams composes
/// it; ordinary YAML, anchors and aliases included, composes exactly as Yams alone would.
@Suite struct SafeYAMLTests {
    /// The classic: nine levels of nine aliases, 10⁹ strings from under a kilobyte.
    static let billionLaughs = """
        a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
        f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
        g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
        h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
        i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
        """

    func refusal(_ yaml: String, limits: SafeYAML.Limits = .standard) throws -> YAMLRefusal {
        do {
            _ = try SafeYAML.compose(yaml: yaml, limits: limits)
        } catch let refusal as YAMLRefusal {
            return refusal
        }
        Issue.record("expected a refusal")
        throw CancellationError()
    }

    @Test func billionLaughsIsRefusedAtTheAliasThatCrossesTheLimit() throws {
        let refused = try refusal(Self.billionLaughs)
        #expect(refused.message.hasPrefix("the document expands to more than 100000 nodes once its aliases are expanded"))
        // Level f holds 9 × 9⁴ + … nodes; the limit falls inside it.
        #expect(refused.line == 6)
        #expect(refused.column != nil)
    }

    /// The same bomb used as mapping keys: Yams hashes every key to find duplicates, which
    /// walks the whole expansion. Refused before Yams sees it.
    @Test func aliasBombAsMappingKeysIsRefused() throws {
        let yaml = Self.billionLaughs + "\nkeys:\n  ? *i\n  : 1\n  ? *h\n  : 2\n"
        #expect(try refusal(yaml).line == 6)
    }

    @Test func deepNestingIsRefusedBeforeYamsRecurses() throws {
        // One collection per line, so libyaml's scanner hands over each level as it goes.
        let flow = try refusal(String(repeating: "[\n", count: 100_000))
        #expect(flow.message == "sequences and mappings nest deeper than 64 levels")
        #expect(flow.line == 65)
        #expect(flow.column == 1)
        let block = (0..<100).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " end"
        #expect(try refusal(block).line == 65)
    }

    /// On one line, libyaml's scanner looks ahead and its own guard (1,000 levels) fires first.
    @Test func libyamlsOwnNestingGuardIsWordedAsOurs() throws {
        let refused = try refusal(String(repeating: "[", count: 200_000))
        #expect(refused.message == "sequences and mappings nest deeper than 64 levels")
        #expect(refused.line == 1)
    }

    @Test func oversizedTextIsRefusedBeforeParsing() throws {
        let refused = try refusal(String(repeating: "# padding\n", count: 20), limits: .init(maximumBytes: 100))
        #expect(refused.message.hasPrefix("the document is 200 bytes, over the limit of 100 bytes for a YAML file"))
        #expect(refused.line == nil)
    }

    @Test func manyNodesWithoutAliasesSayNothingOfAliases() throws {
        let yaml = "- " + Array(repeating: "x", count: 11).joined(separator: "\n- ")
        let refused = try refusal(yaml, limits: .init(maximumNodes: 10))
        #expect(refused.message == "the document has more than 10 nodes; momlint's YAML files need a few hundred")
        #expect(refused.line == 10)
    }

    @Test func everyDocumentOfAStreamIsCounted() throws {
        let yaml = "a: 1\n---\n[1, 2, 3, 4, 5, 6, 7, 8]\n"
        #expect(try refusal(yaml, limits: .init(maximumNodes: 8)).line == 3)
    }

    @Test func modestAliasesComposeAsYamsComposesThem() throws {
        let yaml = """
            defaults: &defaults {severity: warning, max: 3}
            rules:
              first: *defaults
              second: *defaults
            list: [&x 1, *x, *x]
            """
        let safe = try SafeYAML.compose(yaml: yaml)
        #expect(safe == (try Yams.compose(yaml: yaml)))
        #expect(safe?["rules"]?["second"]?["max"]?.int == 3)
    }

    @Test func exactlyAtTheLimitComposes() throws {
        // A mapping of 4 pairs is 1 + 8 nodes; an alias to it adds 9 more.
        let yaml = "a: &m {k1: 1, k2: 2, k3: 3, k4: 4}\nb: *m\n"
        // Root mapping 1 + keys a, b 2 + the mapping 9 + its alias 9 = 21.
        #expect(try SafeYAML.compose(yaml: yaml, limits: .init(maximumNodes: 21)) != nil)
        #expect(try refusal(yaml, limits: .init(maximumNodes: 20)).line == 2)
    }

    @Test func malformedYAMLIsLeftToYams() {
        #expect(throws: YamlError.self) { try SafeYAML.compose(yaml: "a: [1, 2\nb: 3") }
        #expect(throws: YamlError.self) { try SafeYAML.compose(yaml: "a: *undefined") }
    }

    @Test func emptyTextComposesToNothing() throws {
        #expect(try SafeYAML.compose(yaml: "") == nil)
        #expect(try SafeYAML.compose(yaml: "# only a comment\n") == nil)
    }

    @Test func readTextNeverReadsPastTheLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("safeyaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.yml")
        try Data(repeating: UInt8(ascii: "a"), count: 2_000).write(to: file)
        #expect(throws: YAMLRefusal("the file is larger than 1000 bytes, the limit for a YAML file; "
                                    + "momlint's YAML files are a few kilobytes")) {
            try SafeYAML.readText(atPath: file.path, limits: .init(maximumBytes: 1_000))
        }
        #expect(try SafeYAML.readText(atPath: file.path, limits: .init(maximumBytes: 2_000)).count == 2_000)

        try Data([0x61, 0xFF, 0x62]).write(to: file)
        #expect(throws: YAMLRefusal(unreadable: "it is not UTF-8 text")) { try SafeYAML.readText(atPath: file.path) }
    }

    /// An endless device is refused as what it is, before a byte is read.
    @Test func readTextOfAnEndlessFileStops() {
        #expect(throws: YAMLRefusal(unreadable: "it is not a regular file (a character device)")) {
            try SafeYAML.readText(atPath: "/dev/zero")
        }
    }

    /// A FIFO with a writer that never writes (`sleep 30 | …`) would block a plain read forever.
    @Test func readTextRefusesAFIFO() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-yaml-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        #expect(throws: YAMLRefusal(unreadable: "it is not a regular file (a FIFO)")) {
            try SafeYAML.readText(atPath: fifo)
        }
    }
}
