import DataModel
import Foundation

/// Which `@Model` classes of a folder form the schema momlint lints.
///
/// SwiftData versions a schema with `VersionedSchema` types (`enum SchemaV2: VersionedSchema`),
/// each naming its models in `static var models` and usually declaring its own copy of every
/// class (`SchemaV1.Item`, `SchemaV2.Item`), and orders them in a `SchemaMigrationPlan`'s
/// `static var schemas`. Each version is a schema of its own: merging them would give two
/// `Item` entities and pair the inverses of one version with the other's. So when classes are
/// nested in versioned schemas, only the latest version is linted:
///
/// 1. the last schema listed in a `SchemaMigrationPlan`'s `schemas` (Apple's WWDC23 session
///    "Model your schema with SwiftData" lists them oldest first, and the plan migrates a store
///    through them in that order);
/// 2. else, when every version declares one, the highest `versionIdentifier`
///    (`Schema.Version(2, 0, 0)`, compared number by number);
/// 3. else the last by name in natural order (`SchemaV2` before `SchemaV10`), with a note.
///
/// The latest version's classes are those its `models` names (its own nested class of that
/// name, else a top-level one), or its nested classes when `models` cannot be read; classes
/// declared outside every versioned schema are added unless some version's `models` names
/// them (then they belong to that version). Classes of older versions are not linted.
///
/// In what is linted, two classes of the same name (SwiftData names an entity by its class)
/// cannot both be in one schema: the first is kept and a note names both.
struct SchemaVersionSelection {
    var classes: [ModelClassRecord]
    var notes: [LoadNote]
    /// The versioned schema linted, when the classes were versioned.
    var versionName: String?

    init(classes all: [ModelClassRecord], schemaTypes: [SchemaTypeRecord], typeAliases: [TypeAliasRecord] = []) {
        let merged = Self.merged(schemaTypes)
        let versions = merged.filter(\.isVersionedSchema)
        let resolver = VersionedSchemaClasses(classes: all, typeAliases: typeAliases, versionNames: Set(versions.map(\.name)))
        var notes: [LoadNote] = []
        guard all.contains(where: { resolver.version(of: $0) != nil }),
              let latest = Self.latest(of: versions, plans: merged.filter(\.isMigrationPlan), notes: &notes)
        else {
            (classes, self.notes) = Self.withoutDuplicates(all)
            versionName = nil
            return
        }
        let topLevel = all.filter { resolver.version(of: $0) == nil }
        var chosen = resolver.members(of: latest, nested: all.filter { resolver.version(of: $0) == latest.name }).map(\.record)
        // Top-level classes no version names (or reaches) are outside the versioning: linted with
        // the latest. (A version's unqualified name means its own nested class when it has one.)
        var named = Set<SourceLocation>()
        for version in versions {
            let nested = all.filter { resolver.version(of: $0) == version.name }
            for member in resolver.members(of: version, nested: nested) where resolver.version(of: member.record) == nil {
                named.insert(member.record.location)
            }
        }
        chosen += topLevel.filter { record in
            !named.contains(record.location) && !chosen.contains { $0.location == record.location }
        }
        let (unique, duplicateNotes) = Self.withoutDuplicates(chosen)
        classes = unique
        self.notes = notes + duplicateNotes
        versionName = latest.name
    }

    /// One record per type name, the facts of its declaration and extensions merged, in the
    /// order the names first appear.
    static func merged(_ schemaTypes: [SchemaTypeRecord]) -> [SchemaTypeRecord] {
        var types: [String: SchemaTypeRecord] = [:]
        var order: [String] = []
        for record in schemaTypes {
            if types[record.name] != nil {
                types[record.name]!.merge(record)
            } else {
                types[record.name] = record
                order.append(record.name)
            }
        }
        return order.compactMap { types[$0] }
    }

    /// The latest version (see the type's documentation), noting when only names order them.
    static func latest(of versions: [SchemaTypeRecord], plans: [SchemaTypeRecord],
                               notes: inout [LoadNote]) -> SchemaTypeRecord? {
        guard !versions.isEmpty else { return nil }
        let byName = Dictionary(versions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for plan in plans {
            if let last = plan.schemas?.last?.name, let version = byName[last] { return version }
        }
        let identified = versions.compactMap { version in version.versionIdentifier.map { (version, $0) } }
        if identified.count == versions.count {
            return identified.max { $0.1.lexicographicallyPrecedes($1.1) }?.0
        }
        let last = versions.max { $0.name.compare($1.name, options: .numeric) == .orderedAscending }
        if let last, versions.count > 1 {
            notes.append(LoadNote(path: last.location.description, message:
                "no SchemaMigrationPlan lists the versioned schemas and not every one declares a versionIdentifier, so "
                + "momlint takes '\(last.name)', the last by name, as the current version and lints only its models"))
        }
        return last
    }

    /// The classes with the first of each name kept, and a note for each name declared twice.
    private static func withoutDuplicates(_ classes: [ModelClassRecord]) -> ([ModelClassRecord], [LoadNote]) {
        var kept: [ModelClassRecord] = []
        var names: Set<String> = []
        var repeats: [String: [ModelClassRecord]] = [:]
        for record in classes {
            if names.insert(record.name).inserted {
                kept.append(record)
            } else {
                repeats[record.name, default: []].append(record)
            }
        }
        let notes = kept.compactMap { first -> LoadNote? in
            guard let others = repeats[first.name] else { return nil }
            let places = ([first] + others).map { "\($0.location)" }.joined(separator: ", ")
            return LoadNote(path: others[0].location.description, message:
                "'\(first.name)' is declared as a @Model class \(others.count + 1) times (\(places)); SwiftData names an "
                + "entity by its class, so one schema cannot hold both: momlint lints the first. Keep each version's "
                + "classes in its own VersionedSchema, or pass the folder of one schema")
        }
        return (kept, notes)
    }
}
