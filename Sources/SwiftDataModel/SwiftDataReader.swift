import DataModel
import SourceConsistency

/// Reads SwiftData `@Model` classes from Swift sources into a `DataModel.Model`, so the rules
/// that check a `contents` file check a SwiftData schema unchanged. Every entity, attribute and
/// relationship is located at its Swift `file:line:column` (the class or property name).
///
/// Each path (a folder searched recursively, or a `.swift` file) is one schema: SwiftData builds
/// one schema from the model classes an app names, and an app's classes usually live together.
/// How each declaration maps is documented in `docs/swiftdata.md`.
public struct SwiftDataReader: Sendable {
    /// What reading the paths gave: one model per path holding `@Model` classes, and the paths
    /// or files that could not be used.
    public struct Result: Sendable {
        public var models: [Model]
        public var problems: [SourceProblem]
        public var notes: [LoadNote]
    }

    /// True when the configuration says the app syncs with CloudKit, whatever its code shows.
    public var usesCloudKit: Bool

    public init(usesCloudKit: Bool = false) {
        self.usesCloudKit = usesCloudKit
    }

    public func read(paths: [String]) -> Result {
        var result = Result(models: [], problems: [], notes: [])
        for path in paths { read(path: path, into: &result) }
        return result
    }

    /// Reads the sources under `path` into `result` (its model, problems and notes), and gives
    /// them, parsed, when they declare a model.
    @discardableResult
    func read(path: String, into result: inout Result) -> SwiftDataSources? {
        let (files, problems) = SwiftSourceFinder(optionName: "--swiftdata").files(under: [path])
        result.problems += problems
        guard !files.isEmpty else { return nil }
        let sources = SwiftDataSources(files: files)
        result.problems += sources.problems
        let (model, notes) = model(of: sources, name: path)
        result.notes += notes
        guard let model else {
            if sources.problems.isEmpty {
                result.problems.append(SourceProblem(path: path, reason: .noSwiftSources(
                    "no @Model class in these Swift sources; pass the folder that declares the app's SwiftData models")))
            }
            return nil
        }
        result.models.append(model)
        return sources
    }

    /// Builds the model that `files` (already read) declare, named `name` (the path they came
    /// from); nil when they declare no `@Model` class.
    public func read(files: [SwiftSourceFile], name: String) -> (model: Model?, problems: [SourceProblem], notes: [LoadNote]) {
        let sources = SwiftDataSources(files: files)
        let (model, notes) = model(of: sources, name: name)
        return (model, sources.problems, notes)
    }

    /// The model of the latest version of `sources` (or of all their classes, unversioned).
    func model(of sources: SwiftDataSources, name: String) -> (model: Model?, notes: [LoadNote]) {
        let allClasses = sources.classes
        guard !allClasses.isEmpty else { return (nil, []) }
        // One version of a versioned schema, and each class name once.
        let selection = SchemaVersionSelection(classes: allClasses, schemaTypes: sources.schemaTypes,
                                               typeAliases: sources.typeAliases)
        let classes = selection.classes
        var notes = selection.notes
        for record in classes where !record.untypedProperties.isEmpty {
            notes.append(LoadNote(path: record.location.description, message:
                "the type of \(record.untypedProperties.map { "'\(record.name).\($0)'" }.joined(separator: ", ")) "
                + "cannot be told without compiling (no type annotation); add one so momlint can check it"))
        }
        let model = SwiftDataModelBuilder(classes: classes).model(
            file: name, location: SourceLocation(file: name, line: 1, column: 1), syncs: syncs(sources),
            versionedSchema: selection.versionName)
        return (model, notes)
    }

    /// True when the app syncs with CloudKit: the configuration says so, or a
    /// `ModelConfiguration` names a database.
    func syncs(_ sources: SwiftDataSources) -> Bool {
        usesCloudKit || sources.cloudKitUses.contains { !Self.isNoDatabase($0.database) }
    }

    /// The model's `xmlAttributes` key naming the `VersionedSchema` linted, when the classes are
    /// versioned (see `SchemaVersionSelection`).
    public static let versionedSchemaKey = "swiftDataVersionedSchema"

    /// `cloudKitDatabase: .none` (or `ModelConfiguration.CloudKitDatabase.none`) turns sync off.
    private static func isNoDatabase(_ expression: String) -> Bool {
        expression == ".none" || expression.hasSuffix("CloudKitDatabase.none")
    }
}

/// What Swift files declare for SwiftData: one file's (`ModelClassCollector`), or those of one
/// schema folder, each file parsed once.
struct SwiftDataSources: Sendable {
    var classes: [ModelClassRecord] = []
    /// `ModelConfiguration(…, cloudKitDatabase: …)` calls.
    var cloudKitUses: [CloudKitUse] = []
    /// Types that conform to `VersionedSchema` or `SchemaMigrationPlan`, or declare what they
    /// require, in declaration order. As declared: a type's declaration and extensions are
    /// separate records (`SchemaVersionSelection.merged` joins them).
    var schemaTypes: [SchemaTypeRecord] = []
    var typeAliases: [TypeAliasRecord] = []
    var containers: [ContainerRecord] = []
    /// Every `Schema(versionedSchema: X.self)`: the schema of a container made from a variable.
    var versionedSchemaUses: [TypePath] = []
    var problems: [SourceProblem] = []

    init() {}

    init(files: [SwiftSourceFile]) {
        for file in files {
            let (tree, locations, problem) = file.parseTree()
            if let problem { problems.append(problem) }
            let collector = ModelClassCollector(locations: locations)
            collector.walk(tree)
            let declarations = collector.declarations
            classes += declarations.classes
            cloudKitUses += declarations.cloudKitUses
            schemaTypes += declarations.schemaTypes
            typeAliases += declarations.typeAliases
            containers += declarations.containers
            versionedSchemaUses += declarations.versionedSchemaUses
        }
    }
}
