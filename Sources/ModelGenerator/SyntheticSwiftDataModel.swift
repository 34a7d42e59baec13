/// SwiftData `@Model` classes of any number, as Swift source files, for benchmarks of the
/// SwiftData reader. Each class has eight attributes of the common types (one unique, one with
/// external storage, one `Codable` enum), an `#Index`, a computed and a `@Transient` property,
/// and owns the next class through a cascading to-one whose to-one inverse SwiftData pairs with it.
public enum SyntheticSwiftDataModel {
    /// `fileCount` files holding `classCount` classes between them, in order, with their names.
    public static func files(classCount: Int, fileCount: Int = 20) -> [(name: String, text: String)] {
        let perFile = max(1, (classCount + max(1, fileCount) - 1) / max(1, fileCount))
        var files: [(name: String, text: String)] = []
        var start = 0
        while start < classCount {
            let end = min(classCount, start + perFile)
            var text = "import Foundation\nimport SwiftData\n\nenum Status: String, Codable { case open, done }\n"
            for index in start..<end { text += modelClass(index, classCount: classCount) }
            files.append((name: "Models\(files.count).swift", text: text))
            start = end
        }
        return files
    }

    private static func modelClass(_ index: Int, classCount: Int) -> String {
        let name = "Record\(index)"
        var text = """

            @Model
            final class \(name) {
                #Index<\(name)>([\\.title], [\\.created, \\.count])

                @Attribute(.unique) var identifier: UUID = UUID()
                var title: String = ""
                var count: Int = 0
                var ratio: Double = 0.5
                var created: Date = Date.now
                var isDone: Bool = false
                var status: Status = Status.open
                @Attribute(.externalStorage) var payload: Data?

            """
        if index + 1 < classCount {
            text += "    @Relationship(deleteRule: .cascade)\n    var next: Record\(index + 1)?\n"
        }
        if index > 0 {
            text += "    var previous: Record\(index - 1)?\n"
        }
        text += """

                @Transient var isSelected = false

                init(title: String) {
                    self.title = title
                }

                var summary: String { "\\(title) \\(count)" }
            }

            """
        return text
    }
}

extension SyntheticSwiftDataModel {
    /// `classCount` `@Model` classes spread over `versionCount` `VersionedSchema`s, one file each
    /// (`SchemaV1` … `SchemaVn`, each with its own nested copy of the same `classCount /
    /// versionCount` classes, listed in `models`), and a file with the `SchemaMigrationPlan` that
    /// lists them in order with one lightweight stage per pair. Version k adds one optional
    /// property to class k - 1 (counting from 0, wrapping), so every version is a model of its own
    /// and every stage is inferable: a well-made plan, for benchmarks of the versions reader.
    public static func versionedFiles(classCount: Int, versionCount: Int = 20) -> [(name: String, text: String)] {
        let versions = max(1, versionCount)
        let perVersion = max(1, classCount / versions)
        var files: [(name: String, text: String)] = []
        for version in 1...versions {
            let names = (0..<perVersion).map { "Record\($0)" }
            var text = "import Foundation\nimport SwiftData\n\nenum SchemaV\(version): VersionedSchema {\n"
            text += "    static var versionIdentifier = Schema.Version(\(version), 0, 0)\n"
            text += "    static var models: [any PersistentModel.Type] {\n        ["
                + names.map { "\($0).self" }.joined(separator: ", ") + "]\n    }\n"
            for index in 0..<perVersion {
                // The properties versions 2…version added to this class.
                let extras = (2...max(2, version)).filter { version >= 2 && ($0 - 2) % perVersion == index }
                text += versionedClass(index, count: perVersion, extras: version >= 2 ? extras : [])
            }
            text += "}\n"
            files.append((name: "SchemaV\(version).swift", text: text))
        }
        var plan = "import SwiftData\n\nenum RecordsMigrationPlan: SchemaMigrationPlan {\n"
        plan += "    static var schemas: [any VersionedSchema.Type] {\n        ["
            + (1...versions).map { "SchemaV\($0).self" }.joined(separator: ", ") + "]\n    }\n"
        plan += "    static var stages: [MigrationStage] {\n        ["
            + (1..<max(1, versions)).map { "migrateV\($0)toV\($0 + 1)" }.joined(separator: ", ") + "]\n    }\n"
        for version in 1..<max(1, versions) {
            plan += "    static let migrateV\(version)toV\(version + 1) = MigrationStage.lightweight("
                + "fromVersion: SchemaV\(version).self, toVersion: SchemaV\(version + 1).self)\n"
        }
        plan += "}\n\nfunc makeContainer() throws -> ModelContainer {\n"
            + "    try ModelContainer(for: Schema(versionedSchema: SchemaV\(versions).self), migrationPlan: RecordsMigrationPlan.self)\n}\n"
        files.append((name: "RecordsMigrationPlan.swift", text: plan))
        return files
    }

    private static func versionedClass(_ index: Int, count: Int, extras: [Int]) -> String {
        var text = """

                @Model
                final class Record\(index) {
                    @Attribute(.unique) var identifier: UUID = UUID()
                    var title: String = ""
                    var count: Int = 0
                    var created: Date = Date.now
                    var payload: Data?

            """
        for version in extras { text += "        var addedInV\(version): String? = nil\n" }
        if index + 1 < count {
            text += "        @Relationship(deleteRule: .cascade)\n        var next: Record\(index + 1)?\n"
        }
        if index > 0 { text += "        var previous: Record\(index - 1)?\n" }
        text += "\n        init() {}\n    }\n"
        return text
    }
}
