import DataModel
import Linting

/// A check of Swift sources against one model. Like a model rule it is pure: the same
/// pairing always gives the same violations, located in the Swift files. The checker, not
/// the rule, attaches the id and severity.
public protocol SourceRule: Sendable {
    static var description: RuleDescription { get }
    /// Each must give exactly the violations its markers show.
    static var triggeringExamples: [SourceRuleExample] { get }
    /// Each must give no violation.
    static var nonTriggeringExamples: [SourceRuleExample] { get }
    init()
    func violations(in pairing: ModelCodePairing) -> [Violation]
}

/// A model snippet and a Swift snippet that a source rule is tested and documented with.
///
/// The model snippet holds `<entity>` elements only; it is wrapped in a `<model>`. In the
/// Swift snippet, `↓` stands right before each declaration the rule must report (and is
/// removed before parsing). `file` and `line` say where the example is written, so a failing
/// example points at itself.
public struct SourceRuleExample: Sendable, CustomStringConvertible {
    public static let marker: Character = "↓"

    public var model: String
    public var source: String
    public var file: String
    public var line: Int

    public init(model: String, source: String, file: String = #filePath, line: Int = #line) {
        self.model = model
        self.source = source
        self.file = file
        self.line = line
    }

    /// The Swift snippet without markers.
    public var sourceWithoutMarkers: String {
        source.filter { $0 != Self.marker }
    }

    /// Where the markers stand once removed: line and column (Unicode scalars) from 1.
    public var markedPositions: [(line: Int, column: Int)] {
        var positions: [(line: Int, column: Int)] = []
        for (lineIndex, lineText) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var column = 1
            for character in lineText {
                if character == Self.marker {
                    positions.append((lineIndex + 1, column))
                } else {
                    column += character.unicodeScalars.count
                }
            }
        }
        return positions
    }

    /// The model snippet as a complete `contents` document.
    public var modelContents: String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
        \(model)
        </model>
        """
    }

    public var description: String { "\(file):\(line)" }
}
