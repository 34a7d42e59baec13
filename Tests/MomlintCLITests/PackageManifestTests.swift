import Foundation
import Testing

/// A test folder without a test target compiles nothing and fails nothing: a merge once dropped
/// `SQLiteCrashSafetyTests` from the manifest, and the crash-safety proof silently stopped running.
/// Every folder under `Tests/` must be a test target in `Package.swift`, and every test target a folder.
struct PackageManifestTests {
    static let root = MomlintProcess.packageRoot

    /// The names in `.testTarget(name: "…"` declarations of the manifest's text.
    static func declaredTestTargets(in manifest: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(manifest)
        while let start = rest.range(of: ".testTarget(") {
            rest = rest[start.upperBound...]
            let declaration = rest.drop { $0 == " " || $0 == "\n" }
            guard declaration.hasPrefix("name: \"") else { continue }
            let name = declaration.dropFirst("name: \"".count).prefix { $0 != "\"" }
            names.insert(String(name))
        }
        return names
    }

    @Test func everyTestFolderIsATestTarget() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = Self.declaredTestTargets(in: manifest)
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Tests").path)
            .filter { !$0.hasPrefix(".") }
        #expect(!declared.isEmpty)
        #expect(Set(folders).subtracting(declared).sorted() == [], "folders under Tests/ that swift test never runs")
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
}
