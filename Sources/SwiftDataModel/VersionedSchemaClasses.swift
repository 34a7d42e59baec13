import DataModel

/// Which `@Model` classes each `VersionedSchema` of a folder holds, resolved as Swift resolves
/// the names its `models` writes, and completed as SwiftData completes a `Schema`.
///
/// A name in `models` (`Item.self`) means, from inside the schema's type: its own nested class
/// (in the enum or an extension of it), else a type alias declared there (`typealias Tag =
/// SchemaV1.Tag`), else a top-level class or alias; a qualified name (`SchemaV1.Tag.self`) means
/// the class nested under that path. SwiftData's `Schema` then includes every model reachable
/// through relationships from the ones listed, so a class used by a listed class but not listed
/// itself belongs to the version too (bradleymackey/vault-ios's V3 reaches
/// `PersistedEncryptedItemDetails` this way); the name a property's type writes is resolved
/// from the class that declares it, in the same order.
struct VersionedSchemaClasses {
    /// A class of a version, with how the version holds it.
    struct Member {
        var record: ModelClassRecord
        /// Where `models` lists it; nil when the version reaches it through a relationship.
        var listedAt: SourceLocation?
        /// `Class.property` that reaches it, when it is not listed.
        var reachedThrough: String?
    }

    let versionNames: Set<String>
    private var classesByName: [String: [ModelClassRecord]] = [:]
    private var aliasesByName: [String: [TypeAliasRecord]] = [:]

    init(classes: [ModelClassRecord], typeAliases: [TypeAliasRecord], versionNames: Set<String>) {
        self.versionNames = versionNames
        for record in classes { classesByName[record.name, default: []].append(record) }
        for alias in typeAliases { aliasesByName[alias.name, default: []].append(alias) }
    }

    /// The versioned schema a class is declared in, if any.
    func version(of record: ModelClassRecord) -> String? {
        record.enclosingTypes.last { versionNames.contains($0) }
    }

    /// The version's classes: those `models` lists (or, when it cannot be read, the classes
    /// nested in the version), then every class they reach, each entity name once.
    func members(of version: SchemaTypeRecord, nested: [ModelClassRecord]) -> [Member] {
        resolvedMembers(of: version, nested: nested).members
    }

    /// `members(of:nested:)`, and the names `models` lists that name no `@Model` class of the
    /// sources.
    func resolvedMembers(of version: SchemaTypeRecord, nested: [ModelClassRecord]) -> (members: [Member], unresolved: [TypePath]) {
        var unresolved: [TypePath] = []
        var result: [Member] = []
        var names = Set<String>()
        if let models = version.models {
            for path in models {
                guard let record = resolve(path.components, in: version.scope.isEmpty ? [version.name] : version.scope) else {
                    unresolved.append(path)
                    continue
                }
                guard names.insert(record.name).inserted else { continue }
                result.append(Member(record: record, listedAt: path.location, reachedThrough: nil))
            }
        } else {
            for record in nested where names.insert(record.name).inserted {
                result.append(Member(record: record, listedAt: nil, reachedThrough: nil))
            }
        }
        complete(&result, names: &names)
        return (result, unresolved)
    }

    /// Adds to `members` every class reachable from them: through a relationship's type, and
    /// a `@Model` superclass.
    func complete(_ members: inout [Member], names: inout Set<String>) {
        var next = 0
        while next < members.count {
            let owner = members[next].record
            next += 1
            let scope = owner.enclosingTypes + [owner.name]
            var reached: [(name: String, through: String)] = []
            for property in owner.properties {
                switch property.type?.shape {
                case .named(let name)?: reached.append((name, "\(owner.name).\(property.name)"))
                case .array(let element)?:
                    if let name = element.name { reached.append((name, "\(owner.name).\(property.name)")) }
                default: continue
                }
            }
            if let parent = owner.firstInheritedName { reached.append((parent, owner.name)) }
            for (name, through) in reached where !names.contains(name) {
                guard let record = resolve([name], in: scope), names.insert(record.name).inserted else { continue }
                members.append(Member(record: record, listedAt: nil, reachedThrough: through))
            }
        }
    }

    /// The `@Model` class `path` names when written inside `scope` (enclosing types, outermost
    /// first); nil when it names none of the sources' `@Model` classes.
    func resolve(_ path: [String], in scope: [String], depth: Int = 0) -> ModelClassRecord? {
        guard let name = path.last, depth < 8 else { return nil }
        if path.count > 1 {
            let qualifier = Array(path.dropLast())
            if let record = classesByName[name]?.first(where: { $0.enclosingTypes.ends(with: qualifier) }) {
                return record
            }
            if let alias = aliasesByName[name]?.first(where: { $0.enclosingTypes.ends(with: qualifier) }) {
                return resolve(alias.target, in: alias.enclosingTypes, depth: depth + 1)
            }
            // A module name before the type (`MyApp.Item`).
            return resolve(Array(path.dropFirst()), in: scope, depth: depth + 1)
        }
        // Innermost scope first, as Swift looks a name up. A level is matched by its innermost
        // type's name, so `extension App.SchemaV2` (a module prefix) and `enum SchemaV2` are one.
        func declared(in level: ArraySlice<String>, _ enclosing: [String]) -> Bool {
            level.last.map { enclosing.last == $0 } ?? enclosing.isEmpty
        }
        for length in stride(from: scope.count, through: 0, by: -1) {
            let level = scope.prefix(length)
            if let record = classesByName[name]?.first(where: { declared(in: level, $0.enclosingTypes) }) { return record }
            if let alias = aliasesByName[name]?.first(where: { declared(in: level, $0.enclosingTypes) }) {
                return resolve(alias.target, in: Array(level), depth: depth + 1)
            }
        }
        // A class nested in some other type (not a version) that the sources name without its
        // path: as before, the class of that name outside every version.
        return classesByName[name]?.first { version(of: $0) == nil }
    }
}

extension Array where Element == String {
    func ends(with suffix: [String]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
