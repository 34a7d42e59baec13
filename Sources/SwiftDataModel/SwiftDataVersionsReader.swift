import DataModel
import Linting
import SourceConsistency
import VersionHashes

/// Reads every `VersionedSchema` and `SchemaMigrationPlan` of a SwiftData folder into
/// `SwiftDataVersions`: each version's classes (`VersionedSchemaClasses`: its `models`, the
/// classes they reach, type aliases, classes declared in extensions in other files) turned into
/// the Core Data model SwiftData builds from them (`SwiftDataModelBuilder`, the mapping
/// `SwiftDataReader` uses for the latest version), with its version hashes (`VersionHasher`);
/// each plan's `schemas` and `stages` (inline, through static properties, or arrays of them);
/// and the schema and plan each `ModelContainer` is made with.
public struct SwiftDataVersionsReader: Sendable {
    public var usesCloudKit: Bool

    public init(usesCloudKit: Bool = false) {
        self.usesCloudKit = usesCloudKit
    }

    /// The versions of the `.swift` files under `folder` (searched as `--swiftdata` searches);
    /// nil when they declare no `VersionedSchema`.
    public func read(folder: String) -> (versions: SwiftDataVersions?, problems: [SourceProblem], notes: [LoadNote]) {
        let (files, problems) = SwiftSourceFinder(optionName: "--swiftdata").files(under: [folder])
        guard !files.isEmpty else {
            return (nil, problems.isEmpty ? [SourceProblem(path: folder, reason: .noSwiftSources(
                "no Swift sources; pass the folder that declares the app's VersionedSchemas"))] : problems, [])
        }
        let read = read(files: files, folder: folder)
        return (read.versions, problems + read.problems, read.notes)
    }

    /// The versions `files` (already read) declare; nil when they declare no `VersionedSchema`.
    public func read(files: [SwiftSourceFile], folder: String) -> (versions: SwiftDataVersions?, problems: [SourceProblem],
                                                                   notes: [LoadNote]) {
        let sources = SwiftDataSources(files: files)
        let (versions, notes) = versions(of: sources, folder: folder)
        return (versions, sources.problems, notes)
    }

    func versions(of sources: SwiftDataSources, folder: String) -> (SwiftDataVersions?, [LoadNote]) {
        let merged = SchemaVersionSelection.merged(sources.schemaTypes)
        let versionRecords = merged.filter(\.isVersionedSchema)
        guard !versionRecords.isEmpty else { return (nil, []) }
        let resolver = VersionedSchemaClasses(classes: sources.classes, typeAliases: sources.typeAliases,
                                              versionNames: Set(versionRecords.map(\.name)))
        let syncs = SwiftDataReader(usesCloudKit: usesCloudKit).syncs(sources)
        var notes: [LoadNote] = []
        let versions = versionRecords.map { record -> SwiftDataVersions.Version in
            let nested = sources.classes.filter { resolver.version(of: $0) == record.name }
            let (members, unresolved) = resolver.resolvedMembers(of: record, nested: nested)
            if !unresolved.isEmpty {
                notes.append(LoadNote(path: unresolved[0].location.description, message:
                    "'\(record.name).models' lists " + unresolved.map { "'\($0.components.joined(separator: "."))'" }
                        .joined(separator: ", ") + ", which momlint finds no @Model class for in these sources; the "
                    + "version is not compared with the others (pass the folder that declares all its classes)"))
            }
            let model = SwiftDataModelBuilder(classes: members.map(\.record)).model(
                file: folder, version: ModelVersion(bundlePath: nil, name: record.name, bundleVersionNames: [], selection: .standalone),
                location: record.location, syncs: syncs, versionedSchema: record.name, compositeStandIns: true)
            let live = members.filter { resolver.version(of: $0.record) == nil }.map { member in
                SwiftDataVersions.LiveClass(name: member.record.name, declaration: member.record.location,
                                            listedAt: member.listedAt, reachedThrough: member.reachedThrough)
            }
            return SwiftDataVersions.Version(
                name: record.name, location: record.location, identifier: record.versionIdentifier,
                identifierLocation: record.versionIdentifierLocation, model: model,
                hashes: VersionHasher.hashes(of: model), liveClasses: live,
                isComplete: unresolved.isEmpty)
        }
        let plans = merged.filter(\.isMigrationPlan).map { record in
            var readable = true
            let stages = record.stages.map { expression in
                Self.stages(of: expression, in: record, among: merged, readable: &readable)
            }
            if record.stages != nil && !readable {
                notes.append(LoadNote(path: record.location.description, message:
                    "the stages of '\(record.name)' cannot all be read without running the code; momlint checks its "
                    + "schemas but not which pairs of versions have a stage"))
            }
            return SwiftDataVersions.Plan(
                name: record.name, location: record.location,
                schemas: record.schemas?.map(\.reference), stages: readable ? stages : nil)
        }
        // A container made from a variable: the one `Schema(versionedSchema:)` of the sources.
        let onlySchema = sources.versionedSchemaUses.count == 1 ? sources.versionedSchemaUses.first : nil
        let containers = sources.containers.compactMap { container -> SwiftDataVersions.Container? in
            let schema = container.schema ?? (container.plan != nil ? onlySchema : nil)
            guard schema != nil || container.plan != nil else { return nil }
            return SwiftDataVersions.Container(schema: schema?.reference, plan: container.plan?.reference,
                                               location: container.location)
        }
        return (SwiftDataVersions(folder: folder, versions: versions, plans: plans, containers: containers), notes)
    }

    /// The stages `expression` holds, static properties followed (the plan's own first, then a
    /// property of that name on any other type); `readable` turns false when some part is code.
    static func stages(of expression: StageExpression, in plan: SchemaTypeRecord, among types: [SchemaTypeRecord],
                       readable: inout Bool, depth: Int = 0) -> [SwiftDataVersions.Stage] {
        guard depth < 16 else {
            readable = false
            return []
        }
        switch expression {
        case .stage(let record):
            return [SwiftDataVersions.Stage(
                kind: record.isCustom ? .custom : .lightweight,
                from: record.from?.reference, to: record.to?.reference, location: record.location,
                hasWillMigrate: record.hasWillMigrate, hasDidMigrate: record.hasDidMigrate)]
        case .list(let parts):
            return parts.flatMap { stages(of: $0, in: plan, among: types, readable: &readable, depth: depth + 1) }
        case .reference(let name):
            let candidates = types.compactMap { $0.stageProperties[name] }
            guard let target = plan.stageProperties[name] ?? (candidates.count == 1 ? candidates[0] : nil) else {
                readable = false
                return []
            }
            return stages(of: target, in: plan, among: types, readable: &readable, depth: depth + 1)
        case .unreadable:
            readable = false
            return []
        }
    }
}

extension TypePath {
    /// The type as `SwiftDataVersions` names it: by its last component.
    var reference: SwiftDataVersions.Reference { .init(name: name ?? "", location: location) }
}
