/// The managed classes of a set of Swift sources, with class bodies and extensions merged,
/// type aliases resolved and superclasses linked, plus the problems met reading them.
public struct SourceScan: Sendable {
    /// Classes Core Data may instantiate, in the order their first declaration was found.
    public let classes: [ManagedClass]
    public let problems: [SourceProblem]
    /// How many Swift files were parsed.
    public let fileCount: Int
    private let classIndexesByName: [String: [Int]]

    /// Parses `files` (in memory) and links what they declare.
    public init(files: [SwiftSourceFile], problems: [SourceProblem] = []) {
        var allProblems = problems
        var parsed: [FileDeclarations] = []
        for file in files {
            let (declarations, problem) = file.parse()
            parsed.append(declarations)
            if let problem { allProblems.append(problem) }
        }
        self.init(declarations: parsed, problems: allProblems, fileCount: files.count)
    }

    /// Finds, reads and parses the Swift files under `paths` (folders or `.swift` files).
    public init(paths: [String]) {
        let (files, problems) = SwiftSourceFinder().files(under: paths)
        self.init(files: files, problems: problems)
    }

    private init(declarations: [FileDeclarations], problems: [SourceProblem], fileCount: Int) {
        let aliases = declarations.reduce(into: [String: SwiftTypeReference]()) { $0.merge($1.typeAliases) { first, _ in first } }
        let resolve = { (property: ManagedProperty) in Self.resolvingAliases(in: property, aliases) }

        // Every class is kept until inheritance is linked: whether a class is managed may
        // depend on a superclass declared in another file.
        var all: [ManagedClass] = []
        var indexesByQualifiedName: [String: [Int]] = [:]
        var indexesByName: [String: [Int]] = [:]
        for file in declarations {
            for record in file.classes {
                indexesByQualifiedName[record.qualifiedName, default: []].append(all.count)
                indexesByName[record.name, default: []].append(all.count)
                all.append(ManagedClass(
                    name: record.name, qualifiedName: record.qualifiedName, objectiveCName: record.objectiveCName,
                    superclassName: record.superclassName, declaration: record.location,
                    properties: record.properties.map(resolve), isComplete: record.isComplete))
            }
        }
        // Extensions join every class of their name (qualified first, then simple); an
        // extension of a class the sources do not declare still counts when it holds
        // `@NSManaged` properties, because only a managed class can.
        for file in declarations {
            for record in file.extensions {
                let simpleName = record.extendedTypeName.split(separator: ".").last.map(String.init)
                    ?? record.extendedTypeName
                let targets = indexesByQualifiedName[record.extendedTypeName] ?? indexesByName[simpleName] ?? []
                let properties = record.properties.map(resolve)
                if targets.isEmpty {
                    guard properties.contains(where: \.isManaged) else { continue }
                    indexesByQualifiedName[record.extendedTypeName, default: []].append(all.count)
                    indexesByName[simpleName, default: []].append(all.count)
                    all.append(ManagedClass(name: simpleName, qualifiedName: record.extendedTypeName,
                                            properties: properties, isComplete: record.isComplete))
                } else {
                    for index in targets {
                        all[index].properties += properties
                        all[index].isComplete = all[index].isComplete && record.isComplete
                    }
                }
            }
        }

        for index in all.indices {
            all[index].reachesManagedObject = Self.reachesManagedObject(from: index, in: all,
                                                                        indexesByName: indexesByName)
        }
        let kept = all.filter { $0.reachesManagedObject || $0.properties.contains(where: \.isManaged) }
        self.classes = kept
        self.classIndexesByName = Dictionary(grouping: kept.indices, by: { kept[$0].name })
        self.problems = problems
        self.fileCount = fileCount
    }

    // MARK: Lookups

    /// Managed classes whose Swift name (innermost) is `name`.
    public func classes(named name: String) -> [ManagedClass] {
        (classIndexesByName[name] ?? []).map { classes[$0] }
    }

    /// The class's superclass, when the sources declare it as a managed class.
    public func superclass(of managedClass: ManagedClass) -> ManagedClass? {
        managedClass.superclassName.flatMap { classes(named: $0).first }
    }

    /// The class's properties, then its superclasses' (nearest first); never loops.
    public func allProperties(of managedClass: ManagedClass) -> [ManagedProperty] {
        var result = managedClass.properties
        var seen: Set<String> = [managedClass.qualifiedName]
        var current = superclass(of: managedClass)
        while let next = current, seen.insert(next.qualifiedName).inserted {
            result += next.properties
            current = superclass(of: next)
        }
        return result
    }

    /// True when the class's declaration and every superclass up to `NSManagedObject` are
    /// in the sources and parsed cleanly, so a property missing from `allProperties(of:)`
    /// is really missing.
    public func knowsAllProperties(of managedClass: ManagedClass) -> Bool {
        guard managedClass.declaration != nil, managedClass.reachesManagedObject else { return false }
        var seen: Set<String> = []
        var current: ManagedClass? = managedClass
        while let next = current, seen.insert(next.qualifiedName).inserted {
            guard next.isComplete else { return false }
            current = superclass(of: next)
        }
        return true
    }

    // MARK: Building

    private static func reachesManagedObject(from start: Int, in all: [ManagedClass],
                                             indexesByName: [String: [Int]]) -> Bool {
        var seen: Set<Int> = []
        var current = start
        while seen.insert(current).inserted {
            let candidate = all[current]
            guard candidate.declaration != nil, let superclass = candidate.superclassName else { return false }
            if superclass == "NSManagedObject" { return true }
            guard let next = indexesByName[superclass]?.first(where: { all[$0].declaration != nil }) else {
                return false
            }
            current = next
        }
        return false
    }

    /// Replaces a type alias by the type it names (following chains, never looping); an
    /// optional alias keeps the property optional.
    private static func resolvingAliases(in property: ManagedProperty,
                                         _ aliases: [String: SwiftTypeReference]) -> ManagedProperty {
        guard var type = property.type else { return property }
        var seen: Set<String> = []
        while let aliased = aliases[type.baseName], seen.insert(type.baseName).inserted {
            type.baseName = aliased.baseName
            if type.optionality == .nonOptional { type.optionality = aliased.optionality }
        }
        var resolved = property
        resolved.type = type
        return resolved
    }
}
