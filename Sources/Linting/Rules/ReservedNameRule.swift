import DataModel

/// A property named like an NSObject/NSManagedObject method, or like a language keyword.
public struct ReservedNameRule: Rule {
    public static let description = RuleDescription(
        id: "reserved_name",
        name: "Reserved Name",
        summary: "A property is named like a zero-argument NSObject or NSManagedObject method, or like a keyword codegen cannot emit.",
        rationale: """
            Apple's documentation of NSPropertyDescription says a property must not share the name of \
            any no-parameter method of NSObject or NSManagedObject (for example `description`), because \
            Core Data generates accessors that would override them. The Core Data programming guide lists \
            the methods Core Data relies on and that must never be overridden: `hash`, `superclass`, \
            `class`, `self`, `zone`, `isProxy`, `managedObjectContext`, `entity`, `objectID`, \
            `isInserted`, `isUpdated`, `isDeleted`, `isFault` (older versions add `retain`, `release`, \
            `autorelease`, `retainCount`, `alloc`, `new`). Names such as `deleted` or `inserted` \
            collide with the getters of `isDeleted`/`isInserted` and misbehave silently. A property named \
            like a Swift keyword (for a Swift model) or an Objective-C/C keyword (for an Objective-C \
            model) makes Xcode's generated class fail to compile; keywords are flagged only on entities \
            whose class Xcode generates (Codegen "Class Definition" or "Category/Extension"), because a \
            hand-written Swift class can escape the name with backticks.

            Default severity: error for a keyword in a generated class (the build fails) and for the \
            names of methods Core Data relies on (overriding them breaks the object at run time). \
            `deleted`, `inserted`, `updated` and `fault` are warnings: they are the property names \
            behind `isDeleted`, `isInserted`, `isUpdated` and `isFault`, not the methods Core Data calls, \
            and models using them build and ship (Simplenote's `Note.deleted`, SyncKit's \
            `QSSyncedEntity.updated`); what goes wrong is silent, as key-value coding and Objective-C \
            code may read the wrong one (inferred).
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nspropertydescription",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/LifeofaManagedObject.html",
            "https://docs.swift.org/swift-book/documentation/the-swift-programming-language/lexicalstructure/#Keywords-and-Punctuation",
            "docs/coredata-semantics.md §4 Reserved names",
        ],
        howToFix: """
            Rename the property (`noteDescription`, `isArchived`, `kind`). To keep stored data, set the \
            old name as the renaming identifier of the new property in a new model version.
            """,
        category: .names,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<attribute name="description" optional="YES" attributeType="String"/>
                    ↓<attribute name="deleted" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                    ↓<relationship name="entity" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
                </entity>
                <entity name="Folder"/>
                """),
            RuleExample("""
                <entity name="Setting" codeGenerationType="class">
                    ↓<attribute name="default" optional="YES" attributeType="String"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <attribute name="noteDescription" optional="YES" attributeType="String"/>
                    <attribute name="isArchived" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                    <attribute name="id" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                    <attribute name="open" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                </entity>
                <entity name="Setting">
                    <attribute name="default" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    public init() {}

    /// Zero-argument NSManagedObject methods Core Data relies on, and the getter-less spellings of
    /// its `is…` properties (`deleted` is the property behind `isDeleted`).
    static let everyReservedName = managedObjectMethodNames.union(objectMethodNames).union(swiftKeywords)
        .union(objectiveCKeywords)

    /// Which (length, first byte) pairs some reserved name has. Looking a name up in
    /// `everyReservedName` means hashing it; this table rules out nearly every property name of
    /// a model first, by two array reads.
    static let possiblyReserved: [Bool] = {
        var table = [Bool](repeating: false, count: 64 * 256)
        for name in everyReservedName {
            if let slot = prefilterSlot(of: name) { table[slot] = true }
        }
        return table
    }()

    /// The name's place in `possiblyReserved`; nil for a name longer than any reserved one
    /// could be (or empty).
    static func prefilterSlot(of name: String) -> Int? {
        let utf8 = name.utf8
        guard let first = utf8.first, utf8.count < 64 else { return nil }
        return utf8.count * 256 + Int(first)
    }

    static let managedObjectMethodNames: Set<String> = [
        "managedObjectContext", "entity", "objectID", "isInserted", "isUpdated", "isDeleted", "isFault",
        "inserted", "updated", "deleted", "fault", "hasChanges", "hasPersistentChangedValues",
        "changedValues", "changedValuesForCurrentEvent", "faultingState", "awakeFromFetch", "awakeFromInsert",
        "willSave", "didSave", "willTurnIntoFault", "didTurnIntoFault", "prepareForDeletion",
    ]

    /// The `is…` properties' own names: a clash with them compiles and misbehaves silently, so it
    /// is a warning.
    static let shadowedPropertyNames: Set<String> = ["deleted", "inserted", "updated", "fault"]

    /// Zero-argument NSObject methods.
    static let objectMethodNames: Set<String> = [
        "description", "debugDescription", "hash", "class", "superclass", "self", "zone", "isProxy",
        "isEqual", "copy", "mutableCopy", "init", "dealloc", "retain", "release", "autorelease",
        "retainCount", "alloc", "new",
    ]

    /// Swift keywords that cannot name a declaration without backticks, which Xcode's codegen does
    /// not write. Contextual keywords (`open`, `type`, `get`) are fine and not listed.
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try",
    ]

    /// C and Objective-C keywords, which a generated `@property` cannot be named. Type names such as
    /// `id` or `BOOL` are not keywords and make valid property names.
    static let objectiveCKeywords: Set<String> = [
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
        "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
        "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
        "volatile", "while", "_Bool", "_Complex", "_Imaginary", "self", "super",
        // Macros: the preprocessor replaces them before the compiler sees a name.
        "nil", "Nil", "YES", "NO",
    ]

    public func violations(in model: LintedModel) -> [Violation] {
        // Keywords matter for the language Xcode generates classes in; models older than Swift
        // support carry no sourceLanguage and are Objective-C.
        let isSwift = model.sourceLanguage == "Swift"
        let keywords = isSwift ? Self.swiftKeywords : Self.objectiveCKeywords
        let language = isSwift ? "Swift" : "Objective-C"
        var violations: [Violation] = []
        for found in model.properties(whereName: Self.isReserved) {
            let name = found.name, entity = found.owner.entity
            let isGenerated = entity.codeGeneration == .classDefinition || entity.codeGeneration == .category
            let problem: String
            if Self.objectMethodNames.contains(name) {
                problem = "clashes with NSObject's '\(name)', which Core Data relies on"
            } else if Self.shadowedPropertyNames.contains(name) {
                problem = "has the name of NSManagedObject's 'is\(Naming.uppercasingFirst(name))' property, so key-value "
                    + "coding and Objective-C code may read Core Data's value instead of yours"
            } else if Self.managedObjectMethodNames.contains(name) {
                problem = "clashes with NSManagedObject's '\(name)', which Core Data relies on"
            } else if isGenerated && keywords.contains(name) {
                problem = "is a \(language) keyword, so the generated class cannot declare it"
            } else {
                continue
            }
            violations.append(Violation(
                message: "'\(entity.name).\(name)' \(problem); rename it (e.g. '\(Self.suggestedName(for: name, in: entity))')",
                location: found.property.location, entityName: entity.name, propertyName: name,
                severity: Self.shadowedPropertyNames.contains(name) && !(isGenerated && keywords.contains(name)) ? .warning : nil))
        }
        return violations
    }

    /// True when `name` is on one of the lists. One lookup in `possiblyReserved` rules out
    /// nearly every name of a model before any is hashed.
    static func isReserved(_ name: String) -> Bool {
        guard let slot = prefilterSlot(of: name), possiblyReserved[slot] else { return false }
        return everyReservedName.contains(name)
    }

    /// `deleted` -> `isMarkedDeleted`, `description` -> `noteDescription`, `default` -> `defaultValue`.
    static func suggestedName(for name: String, in entity: Entity) -> String {
        switch name {
        case "deleted", "inserted", "updated", "fault":
            return "isMarked" + Naming.uppercasingFirst(name)
        case "description", "debugDescription", "entity", "class", "hash", "self", "zone":
            return Naming.lowerCamelCase(entity.name) + Naming.uppercasingFirst(name)
        default:
            return name + "Value"
        }
    }
}
