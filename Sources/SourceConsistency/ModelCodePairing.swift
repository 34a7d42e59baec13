import DataModel

/// An entity and a class of the sources that Core Data instantiates for it.
public struct EntityClassMatch: Sendable {
    public var entity: Entity
    public var managedClass: ManagedClass
    /// The class's properties, its extensions' and its superclasses' (nearest first).
    public var properties: [ManagedProperty]
    /// True when the class and all its superclasses up to `NSManagedObject` are in the
    /// sources, so a property absent from `properties` is absent from the class.
    public var knowsAllProperties: Bool
}

/// One model and the Swift sources, with each entity matched to its classes: what a
/// source rule reads.
public struct ModelCodePairing: Sendable {
    public let model: Model
    public let sources: SourceScan
    /// In entity order; an entity with several classes of its name (one per app target,
    /// say) has a match for each.
    public let matches: [EntityClassMatch]

    public init(model: Model, sources: SourceScan) {
        self.model = model
        self.sources = sources
        var matches: [EntityClassMatch] = []
        for entity in model.entities {
            guard let className = Self.className(representedBy: entity.representedClassName) else { continue }
            for managedClass in Self.classes(named: className, in: sources) {
                matches.append(EntityClassMatch(
                    entity: entity, managedClass: managedClass, properties: sources.allProperties(of: managedClass),
                    knowsAllProperties: sources.knowsAllProperties(of: managedClass)))
            }
        }
        self.matches = matches
    }

    /// The class name to look for: `representedClassName` without a leading `.` (the
    /// current module) or a module prefix (`MyApp.Item`). Nil when the entity names no class
    /// or `NSManagedObject` itself, which no source declares.
    public static func className(representedBy representedClassName: String?) -> String? {
        guard var name = representedClassName?.trimmingEnds(while: \.isWhitespace), !name.isEmpty else { return nil }
        if name.hasPrefix(".") { name.removeFirst() }
        if let lastDot = name.lastIndex(of: ".") { name = String(name[name.index(after: lastDot)...]) }
        guard !name.isEmpty, name != "NSManagedObject" else { return nil }
        return name
    }

    /// Classes Objective-C knows as `name`: those that say so with `@objc(name)`, and those
    /// whose Swift name it is and that give no other `@objc` name.
    private static func classes(named name: String, in sources: SourceScan) -> [ManagedClass] {
        let byObjectiveCName = sources.classes.filter { $0.objectiveCName == name }
        let bySwiftName = sources.classes(named: name).filter { $0.objectiveCName == nil }
        return byObjectiveCName + bySwiftName
    }

    /// The entity's property (own or inherited) that a Swift property stands for.
    public func entityProperty(for property: ManagedProperty, of entity: Entity) -> Property? {
        model.property(named: property.key, in: entity)
    }

    /// `entity`, or the ancestor of it, that declares the property named `name`: messages
    /// quote an inherited attribute where it is declared, so they read the same from
    /// every sub-entity.
    public func declaringEntity(of name: String, from entity: Entity) -> Entity {
        model.declaringEntity(ofProperty: name, for: entity) ?? entity
    }
}
