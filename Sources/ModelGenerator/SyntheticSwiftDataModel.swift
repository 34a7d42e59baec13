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
