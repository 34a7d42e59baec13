import Configuring
import Foundation
import Testing

/// A `.momlint.yml` from an untrusted pull request ends in one clear error with its place,
/// never in a hang, a crash or a huge read. (SafeYAMLTests prove the bounds themselves; these
/// prove the configuration loader goes through them.)
@Suite struct HostileConfigurationTests {
    func diagnostic(_ yaml: String) throws -> ConfigurationDiagnostic {
        do {
            _ = try ConfigurationFile.parse(yaml, file: ".momlint.yml", folder: "/project", catalogue: TestRules.all)
        } catch {
            return error
        }
        Issue.record("expected the configuration to be refused")
        throw CancellationError()
    }

    @Test func aliasBombIsRefusedWithItsPlace() throws {
        let yaml = """
            strict: true
            a: &a [x, x, x, x, x, x, x, x, x, x]
            b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
            c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
            d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
            e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
            excluded: *e
            """
        let error = try diagnostic(yaml)
        #expect(error.level == .error)
        #expect(error.line == 6)
        #expect(error.description.hasPrefix(".momlint.yml:6:"))
        #expect(error.message.hasPrefix("refused: the document expands to more than 100000 nodes"))
    }

    @Test func deepNestingIsRefused() throws {
        let error = try diagnostic("excluded: " + String(repeating: "[", count: 100_000))
        #expect(error.message == "refused: sequences and mappings nest deeper than 64 levels")
        #expect(error.line == 1)
    }

    @Test func oversizedFileIsRefusedWithoutReadingItAll() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(".momlint.yml")
        try Data(String(repeating: "# a comment line\n", count: 70_000).utf8).write(to: file)  // 1.2 MB
        do {
            _ = try ConfigurationFile.read(file.path, catalogue: TestRules.all)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.message == "refused: the file is larger than 1048576 bytes, the limit for a YAML file; "
                        + "momlint's YAML files are a few kilobytes")
            #expect(error.file == file.path)
        }
    }

    @Test func aConfigurationThatIsNotUTF8IsUnreadable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(".momlint.yml")
        try Data([0x73, 0x74, 0xFF, 0x0A]).write(to: file)
        #expect(throws: ConfigurationDiagnostic(.error, file: file.path,
                                                message: "cannot read the configuration file: it is not UTF-8 text")) {
            try ConfigurationFile.read(file.path, catalogue: TestRules.all)
        }
    }
}
