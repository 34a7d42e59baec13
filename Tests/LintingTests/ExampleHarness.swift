import DataModel
import Foundation
import Linting
import Testing

/// A line and column in a document, as findings report them.
struct Position: Hashable, Comparable, CustomStringConvertible {
    var line: Int
    var column: Int
    static func < (lhs: Position, rhs: Position) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
    var description: String { "\(line):\(column)" }
}

/// Runs a rule's examples the way the documentation promises: the `↓` markers say exactly where
/// findings must be, and nothing else of that rule may fire.
enum ExampleHarness {
    /// Ways to rewrite an example that must not change its findings.
    enum Variant: String, CaseIterable, CustomStringConvertible {
        case asWritten = "as written"
        case withUnrelatedEntities = "with unrelated entities added"
        case reindented = "re-indented"
        case reordered = "with top-level elements reordered"
        var description: String { rawValue }
    }

    struct Outcome {
        var expected: [Position]
        var found: [Position]
        var messages: [String]
    }

    static let file = "Example.xcdatamodeld/Example.xcdatamodel/contents"

    /// The complete `contents` file around a snippet of `<model>` children.
    static func contents(wrapping snippet: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(snippet)
        </model>
        """
    }

    /// Removes the markers and returns where they stood (the position of the character after each).
    static func extractMarkers(from marked: String) -> (text: String, markers: [Position]) {
        var text = ""
        var markers: [Position] = []
        var line = 1
        var column = 1
        for scalar in marked.unicodeScalars {
            if Character(scalar) == RuleExample.marker {
                markers.append(Position(line: line, column: column))
                continue
            }
            text.unicodeScalars.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (text, markers)
    }

    /// The rule's findings for the example rewritten as `variant`, with the positions the markers demand.
    static func run(_ example: RuleExample, rule: any Rule.Type, variant: Variant) throws -> Outcome {
        switch example.document {
        case .modelContents:
            let snippet = rewrite(example.markedText, as: variant)
            let (text, markers) = extractMarkers(from: contents(wrapping: snippet))
            let model = try ModelLoader().model(fromContents: Array(text.utf8), file: file)
            let findings = LintEngine(rules: [rule]).lint(model)
            return Outcome(expected: markers.sorted(),
                           found: findings.map { Position(line: $0.location.line, column: $0.location.column) },
                           messages: findings.map(\.message))
        case .currentVersionFile:
            return try runInBundle(example, rule: rule)
        case .migration:
            return try runMigration(example, rule: rule, variant: variant)
        case .swiftDataVersions:
            // Swift sources: parsed with swift-syntax, which this module does not link;
            // SwiftDataVersionExampleTests (SwiftDataModelTests) runs them.
            throw SwiftExampleElsewhere()
        }
    }

    struct SwiftExampleElsewhere: Error {}

    static let olderFile = "Example.xcdatamodeld/Example.xcdatamodel/contents"
    static let currentFile = "Example.xcdatamodeld/Example 2.xcdatamodel/contents"

    /// Loads the example's two versions (and the older one as the base holds it) as versions
    /// of one bundle and runs the migration rule over the pair. A position in the older version
    /// counts as line + 100,000, so that markers in both documents compare in one list.
    private static func runMigration(_ example: RuleExample, rule: any Rule.Type, variant: Variant) throws -> Outcome {
        func load(_ marked: String, file: String, name: String, current: Bool) throws -> (Model, [Position]) {
            let (text, markers) = extractMarkers(from: contents(wrapping: rewrite(marked, as: variant)))
            let version = ModelVersion(bundlePath: "Example.xcdatamodeld", name: name,
                                       bundleVersionNames: ["Example", "Example 2"],
                                       selection: current ? .declaredCurrent : .otherVersion)
            return (try ModelLoader().model(fromContents: Array(text.utf8), file: file, version: version), markers)
        }
        let (older, olderMarkers) = try load(example.markedOlderText ?? "", file: olderFile, name: "Example", current: false)
        let (current, currentMarkers) = try load(example.markedText, file: currentFile, name: "Example 2", current: true)
        let base = try example.olderAtBaseText.map { try load($0, file: olderFile, name: "Example", current: false).0 }
        let pair = MigrationPair(older: older, current: current, olderAtBase: base, baseName: base == nil ? nil : "HEAD")
        let findings = LintEngine(rules: [rule]).lintMigrations([pair])
        let shifted = olderMarkers.map { Position(line: $0.line + 100_000, column: $0.column) }
        return Outcome(expected: (currentMarkers + shifted).sorted(),
                       found: findings.map { Position(line: $0.location.line + ($0.location.file == olderFile ? 100_000 : 0),
                                                      column: $0.location.column) },
                       messages: findings.map(\.message))
    }

    /// Writes a bundle holding `Example.xcdatamodel` and the example as its `.xccurrentversion`,
    /// then loads it the way `momlint lint` does.
    private static func runInBundle(_ example: RuleExample, rule: any Rule.Type) throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("momlint-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Example.xcdatamodeld")
        let version = bundle.appendingPathComponent("Example.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try contents(wrapping: "<entity name=\"Note\"/>").write(to: version.appendingPathComponent("contents"),
                                                                atomically: true, encoding: .utf8)
        let (text, markers) = extractMarkers(from: example.markedText)
        try text.write(to: bundle.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        let result = ModelLoader().load(paths: [bundle.path])
        if let failure = result.failures.first { throw failure }
        let findings = result.models.flatMap { LintEngine(rules: [rule]).lint($0) }
        return Outcome(expected: markers.sorted(),
                       found: findings.map { Position(line: $0.location.line, column: $0.location.column) },
                       messages: findings.map(\.message))
    }

    // MARK: Rewriting

    static func rewrite(_ snippet: String, as variant: Variant) -> String {
        switch variant {
        case .asWritten:
            return snippet
        case .withUnrelatedEntities:
            return unrelatedEntity("UnrelatedLedger") + "\n" + snippet + "\n" + unrelatedEntity("UnrelatedArchive")
        case .reindented:
            return snippet.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                let content = line.drop { $0 == " " }
                let depth = (line.count - content.count) / 4
                return String(repeating: "\t", count: depth + 1) + "  " + content
            }.joined(separator: "\n")
        case .reordered:
            return topLevelElements(of: snippet).reversed().joined(separator: "\n")
        }
    }

    /// An entity no rule has anything to say about, linked to nothing.
    static func unrelatedEntity(_ name: String) -> String {
        """
        <entity name="\(name)" representedClassName="\(name)" syncable="YES">
            <attribute name="memo" optional="YES" attributeType="String"/>
            <attribute name="amount" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        </entity>
        """
    }

    /// The snippet's top-level elements (with their markers and children) as separate strings.
    static func topLevelElements(of snippet: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var depth = 0
        var index = snippet.startIndex
        while index < snippet.endIndex {
            let character = snippet[index]
            if character == "<" {
                // Read the whole tag, minding quoted attribute values.
                var tag = ""
                var quote: Character?
                while index < snippet.endIndex {
                    let c = snippet[index]
                    tag.append(c)
                    index = snippet.index(after: index)
                    if let open = quote { if c == open { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ">" { break }
                }
                current += tag
                if tag.hasPrefix("</") { depth -= 1 } else if !tag.hasSuffix("/>") && !tag.hasPrefix("<?") && !tag.hasPrefix("<!") { depth += 1 }
                if depth == 0 {
                    elements.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    current = ""
                }
                continue
            }
            if depth == 0 && character == "\n" {
                index = snippet.index(after: index)
                continue
            }
            current.append(character)
            index = snippet.index(after: index)
        }
        return elements
    }
}
