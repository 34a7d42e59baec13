import DataModel

/// An entity with more than 100 properties, own and inherited.
public struct TooManyPropertiesRule: ConfigurableRule {
    /// Xcode's model compiler warns above this count.
    static let maximumPropertyCount = 100

    public static let options = [RuleOptionDescription(
        name: "limit",
        summary: "The most properties, own and inherited, an entity may have; default \(maximumPropertyCount), "
            + "the count above which Xcode's model compiler warns.")]

    /// Properties an entity may have before it is reported.
    public var limit = Self.maximumPropertyCount

    public static let description = RuleDescription(
        id: "too_many_properties",
        name: "Too Many Properties",
        summary: "An entity has more than 100 properties, counting inherited ones.",
        rationale: """
            Xcode's model compiler warns when an entity has more than 100 properties \
            (`MOMC_NO_MAX_PROPERTY_COUNT_WARNINGS` silences it). Every property is a column of the \
            hierarchy's one table and is fetched with each row, and SQLite's default limit on columns \
            in a table is 2000 for the whole hierarchy; a very wide entity is usually several \
            entities, or data better kept in a related entity that is fetched only when needed.

            Default severity: warning. momc only warns, and the model builds and runs; the cost is \
            speed and memory, not failure. The `limit` option changes the threshold.
            """,
        sources: [
            "https://github.com/swiftlang/swift-build (Sources/SWBApplePlatform/Specs/CoreData.xcspec)",
            "https://www.sqlite.org/limits.html",
        ],
        howToFix: """
            Split the entity: move groups of rarely used attributes into related entities (a to-one \
            `details` relationship), or group values into a Composite attribute.
            """,
        category: .types,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("↓<entity name=\"Wide\">\n" + (1...101).map {
                "    <attribute name=\"field\($0)\" optional=\"YES\" attributeType=\"String\"/>"
            }.joined(separator: "\n") + "\n</entity>"),
        ],
        nonTriggeringExamples: [
            RuleExample("<entity name=\"Wide\">\n" + (1...100).map {
                "    <attribute name=\"field\($0)\" optional=\"YES\" attributeType=\"String\"/>"
            }.joined(separator: "\n") + "\n</entity>"),
        ])

    public init() {}

    public init(options: RuleOptions) throws(RuleOptionError) {
        limit = try options.integer("limit", in: 1...1_000_000) ?? Self.maximumPropertyCount
    }

    public func violations(in model: LintedModel) -> [Violation] {
        let wording = ModelWording(model.model)
        return model.entities { $0.propertyCount > limit }.map { found in
            let entity = found.entity, count = found.propertyCount, inherited = found.inheritedPropertyCount
            return Violation(
                message: "'\(entity.name)' has \(count) properties\(inherited > 0 ? " (\(inherited) inherited)" : ""), "
                    + "more than \(limit); split it into related \(wording.entitiesNoun)",
                location: entity.location, entityName: entity.name)
        }
    }
}
