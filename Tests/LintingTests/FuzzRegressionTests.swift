import DataModel
import Foundation
import Linting
import Testing

/// Every input in `Fixtures/Fuzz/regressions/` loads and lints to the outcome pinned here:
/// no crash, no hang, one-line errors. A new file there without an entry here fails the test,
/// so a regression cannot be added without saying what it must do.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Fuzz/regressions")

    enum Outcome {
        /// Loads, with these entity names, and lints.
        case loads(entities: [String])
        /// Refused with an error whose message starts so.
        case fails(messagePrefix: String)
    }

    static let expected: [String: Outcome] = [
        "declared-iso-2022-jp.contents": .loads(entities: ["M\u{FC}ller"]),
    ]

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0 != "README.md" }.sorted()
    }

    @Test func everyRegressionHasAnExpectedOutcome() {
        #expect(Set(Self.inputs) == Set(Self.expected.keys))
    }

    @Test(arguments: FuzzRegressionTests.inputs)
    func regressionEndsAsPinned(name: String) throws {
        let outcome = try #require(Self.expected[name])
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let file = "regressions/" + name
        switch (Result { () throws(LoadError) in try ModelLoader().model(fromContents: bytes, file: file) }, outcome) {
        case (.success(let model), .loads(let entities)):
            #expect(model.entities.map(\.name) == entities)
            for finding in LintEngine().lint(model) {
                #expect(!finding.message.isEmpty && finding.location.file == file)
            }
        case (.failure(let error), .fails(let prefix)):
            #expect(error.message.hasPrefix(prefix))
            #expect(!error.description.contains("\n"))
        case (.success, .fails), (.failure, .loads):
            Issue.record("\(name) ended as \(outcome) did not expect")
        }
    }
}
