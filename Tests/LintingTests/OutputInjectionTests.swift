import DataModel
import Linting
import Testing

/// Names are attribute values, and `&#10;` puts a line break in one. Whatever a model's names
/// hold, every finding and error prints as one line, so a CI log cannot be handed a forged
/// line (GitHub Actions acts on lines starting `::`).
@Suite struct OutputInjectionTests {
    static let forged = "Note&#10;::error file=x::forged&#13;&#x202E;"

    func model() throws -> Model {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="\(Self.forged)">
                    <relationship name="editor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
                </entity>
                <entity name="User"/>
            </model>
            """
        return try ModelLoader().model(fromContents: Array(contents.utf8), file: "Forged.xcdatamodel/contents")
    }

    @Test func findingsQuotingAForgedNameStayOnOneLine() throws {
        let model = try model()
        #expect(model.entities[0].name == "Note\n::error file=x::forged\r\u{202E}", "the model keeps the name as written")
        let findings = LintEngine().lint(model)
        let quoting = findings.filter { $0.message.contains("::error file=x::forged") }
        #expect(!quoting.isEmpty, "some rule quotes the entity name: \(findings.map(\.message))")
        for finding in findings {
            #expect(!finding.message.contains { $0.isNewline })
            #expect(!(finding.suggestion ?? "").contains { $0.isNewline })
        }
        #expect(quoting.allSatisfy { $0.message.contains("Note\\n::error file=x::forged\\r\\u{202E}") })
    }

    @Test func loadErrorsAndLocationsStayOnOneLine() {
        let error = LoadError(path: "Models/A\nB/contents", line: 3, column: 1, reason: .notAModel("x\u{85}y"))
        #expect(error.description == "Models/A\\nB/contents:3:1: error: x\\u{85}y")
        let location = SourceLocation(file: "a\tb\u{2028}c", line: 1, column: 2)
        #expect(location.description == "a\\tb\\u{2028}c:1:2")
    }

    @Test func ordinaryTextIsUntouched() {
        let text = "'Café.ünïcode 名前' has no inverse; add one on 'User' (e.g. 'editedNotes')"
        #expect(PrintableText.escaped(text) == text)
    }
}
