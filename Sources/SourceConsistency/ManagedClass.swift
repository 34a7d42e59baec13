import DataModel

/// A Swift class found in the sources that Core Data may instantiate: it inherits from
/// `NSManagedObject` (directly, or through classes declared in the same sources), or it or an
/// extension of it declares `@NSManaged` properties.
public struct ManagedClass: Hashable, Sendable {
    /// The class's own name, e.g. `Item` (for a nested class, the innermost name).
    public var name: String
    /// The name with its enclosing types, e.g. `Catalogue.Item`.
    public var qualifiedName: String
    /// The Objective-C runtime name given by `@objc(Name)`, if any. Core Data looks a
    /// `representedClassName` without a module up by this name.
    public var objectiveCName: String?
    /// The first type of the inheritance clause, module prefix removed; nil when the class
    /// declaration was not found (only extensions of it were).
    public var superclassName: String?
    /// Where the `class` declaration starts; nil when only extensions were found.
    public var declaration: SourceLocation?
    /// Instance properties declared in the class body and in its extensions, in file and
    /// line order. Inherited ones are not included: see `SourceScan.allProperties(of:)`.
    public var properties: [ManagedProperty] = []
    /// True when the superclass chain, followed through the sources, ends at
    /// `NSManagedObject`; false when it leaves the sources (or only extensions were found).
    public var reachesManagedObject = false
    /// False when the class declaration or an extension of it holds a syntax error, so
    /// the parser may have lost some of its members.
    public var isComplete = true
}

/// An instance property of a managed class, `@NSManaged` or not (a computed property with
/// custom accessors still gives the entity's property a home in the class).
public struct ManagedProperty: Hashable, Sendable {
    /// The Swift name.
    public var name: String
    /// The key Core Data sees: `@objc(key)` when given, else the Swift name.
    public var key: String
    /// The type that declares it (class or extended type), for messages.
    public var ownerName: String
    public var isManaged: Bool
    /// Nil when the declaration has no type annotation.
    public var type: SwiftTypeReference?
    /// False when the declaration holds a syntax error: its name counts as declared, but no
    /// rule judges its type.
    public var isWellFormed: Bool
    /// Where the declaration starts (its first attribute, e.g. `@NSManaged`).
    public var location: SourceLocation

    /// `Owner.name`, how messages quote the property.
    public var quotedName: String { "'\(ownerName).\(name)'" }
}
