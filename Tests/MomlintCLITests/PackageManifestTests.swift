import Foundation
import Testing

/// A test folder without a test target compiles nothing and fails nothing: a merge once dropped
/// `SQLiteCrashSafetyTests` from the manifest, and the crash-safety proof silently stopped running.
/// Every folder under `Tests/` must be a test target in `Package.swift`, and every test target a folder.
/// The one exception is code the test targets share: a `.target` declared with `path: "Tests/NAME"`
/// that at least one test target depends on (a support library, which holds no tests itself).
struct PackageManifestTests {
    static let root = MomlintProcess.packageRoot

    /// Swift source with its comments blanked out (`//` to the end of the line, `/* … */`
    /// nested as Swift nests them), string literals — `"…"`, `"""…"""`, raw `#"…"#` — kept as
    /// they are, so a `//` in a URL stays. A commented-out `.testTarget(` once counted as declared.
    static func withoutComments(_ source: String) -> String {
        let text = Array(source.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }
        func starts(_ token: String) -> Bool {
            token.unicodeScalars.enumerated().allSatisfy { at($0.offset) == $0.element }
        }
        while index < text.count {
            if starts("//") {
                while index < text.count && text[index] != "\n" { index += 1 }
            } else if starts("/*") {
                var depth = 0
                repeat {
                    if starts("/*") { depth += 1; index += 2 } else if starts("*/") { depth -= 1; index += 2 } else { index += 1 }
                } while depth > 0 && index < text.count
                result.append(" ")
            } else if text[index] == "#" || text[index] == "\"" {
                // A string literal: its delimiter (#s, then " or """), its body, the same closing delimiter.
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                guard at(hashes) == "\"" else {
                    result.append(text[index])
                    index += 1
                    continue
                }
                let quotes = starts(String(repeating: "#", count: hashes) + "\"\"\"") ? 3 : 1
                let closing = String(repeating: "\"", count: quotes) + String(repeating: "#", count: hashes)
                let opening = hashes + quotes
                for scalar in text[index..<index + opening] { result.append(scalar) }
                index += opening
                while index < text.count && !starts(closing) {
                    // An escape (`\"` in "…", `\#"` in #"…"#) does not end the literal.
                    if text[index] == "\\" && starts("\\" + String(repeating: "#", count: hashes)) {
                        let length = 1 + hashes + 1
                        for scalar in text[index..<min(index + length, text.count)] { result.append(scalar) }
                        index += length
                        continue
                    }
                    result.append(text[index])
                    index += 1
                }
                for scalar in text[index..<min(index + closing.unicodeScalars.count, text.count)] { result.append(scalar) }
                index += closing.unicodeScalars.count
            } else {
                result.append(text[index])
                index += 1
            }
        }
        return String(result)
    }

    /// The names in `.testTarget(name: "…"` declarations of the manifest's code (comments left out).
    static func declaredTestTargets(in manifest: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(withoutComments(manifest))
        while let start = rest.range(of: ".testTarget(") {
            rest = rest[start.upperBound...]
            let declaration = rest.drop { $0 == " " || $0 == "\n" }
            guard declaration.hasPrefix("name: \"") else { continue }
            let name = declaration.dropFirst("name: \"".count).prefix { $0 != "\"" }
            names.insert(String(name))
        }
        return names
    }

    /// Each target declaration of the manifest's text (`.target(`, `.testTarget(`, …) up to the next one.
    static func declarations(in manifest: String) -> [Substring] {
        let starts = [".target(", ".testTarget(", ".executableTarget(", ".systemLibrary(", ".plugin("]
        var result: [Substring] = []
        var rest = Substring(withoutComments(manifest))
        while let start = starts.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let after = rest[start.upperBound...]
            let end = starts.compactMap { after.range(of: $0)?.lowerBound }.min() ?? after.endIndex
            result.append(rest[start.lowerBound..<end])
            rest = rest[end...]
        }
        return result
    }

    /// The names of `.target(name: "NAME", …, path: "Tests/NAME")` declarations that a test
    /// target depends on: the test targets' shared support code.
    static func supportTargets(in manifest: String) -> Set<String> {
        let declarations = Self.declarations(in: manifest)
        let testTargets = declarations.filter { $0.hasPrefix(".testTarget(") }
        var names: Set<String> = []
        for declaration in declarations where declaration.hasPrefix(".target(") {
            let text = declaration.dropFirst(".target(".count).drop { $0 == " " || $0 == "\n" }
            guard text.hasPrefix("name: \"") else { continue }
            let name = String(text.dropFirst("name: \"".count).prefix { $0 != "\"" })
            guard declaration.contains("path: \"Tests/\(name)\""),
                  testTargets.contains(where: { $0.contains("\"\(name)\"") }) else { continue }
            names.insert(name)
        }
        return names
    }

    @Test func everyTestFolderIsATestTarget() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = Self.declaredTestTargets(in: manifest)
        let support = Self.supportTargets(in: manifest)
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Tests").path)
            .filter { !$0.hasPrefix(".") }
        #expect(!declared.isEmpty)
        #expect(Set(folders).subtracting(declared).subtracting(support).sorted() == [],
                "folders under Tests/ that swift test never runs")
        // A support library holds no tests: `swift test` would not run them.
        for name in support {
            let files = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Tests/\(name)").path)?
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: Self.root.appendingPathComponent("Tests/\(name)/\(file)"), encoding: .utf8)
                #expect(!text.contains("@Test") && !text.contains("@Suite"), "Tests/\(name)/\(file) holds tests swift test never runs")
            }
        }
        #expect(declared.subtracting(folders).sorted() == [], "test targets without a folder under Tests/")
        #expect(declared.contains("SQLiteCrashSafetyTests"))
    }

    @Test func readsTheDeclarationsItIsGiven() {
        let manifest = """
            .testTarget(name: "A", dependencies: []),
            .testTarget(
                name: "B",
                dependencies: ["x"]
            ),
            """
        #expect(Self.declaredTestTargets(in: manifest) == ["A", "B"])
    }

    @Test func aCommentedOutTargetIsNotDeclared() {
        let manifest = #"""
            .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
            .testTarget(name: "Live", dependencies: ["A"]),
            // .testTarget(name: "LineComment", dependencies: []),
            /* .testTarget(name: "BlockComment"),
               /* nested */ .testTarget(name: "StillInTheBlock"), */
            .testTarget(name: "AfterTheBlock", dependencies: ["// not a comment", "/* nor this */"]),
            .testTarget(name: #"Raw"#, dependencies: [#"a \"// b"#]), // trailing
            .target(name: "Support", path: "Tests/Support"),
            // .testTarget(name: "Ghost", dependencies: ["Support"]),
            """#
        #expect(Self.declaredTestTargets(in: manifest) == ["Live", "AfterTheBlock"])
        #expect(Self.supportTargets(in: manifest) == [], "a support target used only by a commented-out test target")
        #expect(Self.withoutComments(#"let u = "https://x.org" // c"#) == #"let u = "https://x.org" "#)
        #expect(Self.withoutComments("a /* b /* c */ d */ e") == "a   e")
        #expect(Self.withoutComments(#"s = "a\"//b" // c"#) == #"s = "a\"//b" "#)
    }

    @Test func aSupportTargetIsOnlyOneUnderTestsThatATestTargetUses() {
        let manifest = """
            .target(name: "Used", dependencies: [], path: "Tests/Used"),
            .target(name: "Unused", path: "Tests/Unused"),
            .target(name: "Elsewhere", path: "Sources/Elsewhere"),
            .target(name: "Library"),
            .testTarget(name: "ATests", dependencies: ["Used", "Elsewhere", "Library"]),
            """
        #expect(Self.supportTargets(in: manifest) == ["Used"])
    }
}
