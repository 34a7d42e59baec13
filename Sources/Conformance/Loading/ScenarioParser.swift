import DataModel
import Foundation

/// Turns the YAML of one scenario file into a `Scenario`, checking every name against the model
/// and every object against the steps before it.
struct ScenarioParser {
    let file: String
    let cache: ModelCache
    private var model: Model?
    /// Each inserted object's entity, by scenario name.
    private var entityOfObject: [String: Entity] = [:]
    /// Features the steps use, with where they are first used, to check the `features` list.
    private var usedFeatures: [Feature: YAMLNode] = [:]

    init(file: String, cache: ModelCache) {
        self.file = file
        self.cache = cache
    }

    static let topLevelKeys = ["id", "description", "references", "features", "tags", "openQuestions", "notes",
                               "model", "steps"]

    mutating func scenario(from root: YAMLNode) throws(ScenarioLoadError) -> Scenario {
        let fields = try root.fields("a scenario", allowed: Self.topLevelKeys,
                                     required: ["id", "description", "references", "features", "model", "steps"])
        let idNode = fields["id"]!
        let id = try idNode.string("'id'")
        guard id.range(of: #"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$"#, options: .regularExpression) != nil else {
            throw idNode.error("id '\(id)' must be '<area>.<behaviour>' in lower-case kebab case, e.g. 'deny.non-empty-to-many'")
        }
        let summary = try fields["description"]!.string("'description'")
        let references = try fields["references"]!.sequence("'references'").map { node throws(ScenarioLoadError) in
            try node.string("a reference")
        }
        guard !references.isEmpty else {
            throw fields["references"]!.error("'references' needs at least one source (an Apple documentation URL, an error constant, or a documented observation)")
        }
        var features: Set<Feature> = []
        for node in try fields["features"]!.sequence("'features'") {
            let name = try node.string("a feature")
            guard let feature = Feature(rawValue: name) else {
                throw node.error("unknown feature '\(name)'; expected one of: "
                    + Feature.allCases.map(\.rawValue).joined(separator: ", "))
            }
            features.insert(feature)
        }
        var tags: Set<ScenarioTag> = []
        for node in try fields["tags"]?.sequence("'tags'") ?? [] {
            let name = try node.string("a tag")
            guard let tag = ScenarioTag(rawValue: name) else {
                throw node.error("unknown tag '\(name)'; expected one of: "
                    + ScenarioTag.allCases.map(\.rawValue).joined(separator: ", "))
            }
            tags.insert(tag)
        }
        let openQuestions = try (fields["openQuestions"]?.sequence("'openQuestions'") ?? []).map {
            node throws(ScenarioLoadError) in try node.int("an open question number")
        }
        if !openQuestions.isEmpty && !tags.contains(.inferred) {
            throw fields["openQuestions"]!.error("'openQuestions' is only for scenarios tagged 'inferred'; add 'tags: [inferred]'")
        }
        let notes = try fields["notes"].map { node throws(ScenarioLoadError) in try node.string("'notes'") }

        let modelNode = fields["model"]!
        let modelPath = Self.resolve(try modelNode.string("'model'"), relativeTo: file)
        if let refusal = cache.refusal(of: modelPath) { throw modelNode.error(refusal) }
        let loaded: Model
        switch cache.model(at: modelPath) {
        case .success(let model): loaded = model
        case .failure(let error): throw modelNode.error("cannot load the model: \(error)")
        }
        model = loaded

        var steps: [Step] = []
        for node in try fields["steps"]!.sequence("'steps'") {
            steps.append(Step(try action(from: node), line: node.line))
        }
        guard !steps.isEmpty else { throw fields["steps"]!.error("'steps' is empty") }
        for (feature, node) in usedFeatures.sorted(by: { $0.key < $1.key }) where !features.contains(feature) {
            throw node.error("this step needs feature '\(feature.rawValue)'; add it to 'features' so adapters "
                + "that lack it skip the scenario")
        }
        return Scenario(id: id, summary: summary, references: references, features: features, tags: tags,
                        openQuestions: openQuestions, notes: notes, modelPath: modelPath, model: loaded,
                        steps: steps, file: file)
    }

    static func resolve(_ path: String, relativeTo file: String) -> String {
        let base = URL(fileURLWithPath: file).deletingLastPathComponent()
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }

    // MARK: Steps

    static let stepNames = ["insert", "set", "link", "unlink", "delete", "save", "reset", "reopen", "expect"]

    private mutating func action(from node: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        if node.node.scalar != nil {
            switch try node.string("a step") {
            case "save": return .save(policy: .error, outcome: .succeeds)
            case "reset": return .reset
            case "reopen":
                usedFeatures[.reopen] = usedFeatures[.reopen] ?? node
                return .reopen
            case let other:
                throw node.error("unknown step '\(other)'; expected one of: " + Self.stepNames.joined(separator: ", "))
            }
        }
        let pairs = try node.mapping("a step")
        guard pairs.count == 1, let (name, keyNode, body) = pairs.first else {
            throw node.error("a step is a mapping with exactly one key, the step's name ("
                + Self.stepNames.joined(separator: ", ") + ")")
        }
        switch name {
        case "insert": return try insert(body)
        case "set": return try set(body)
        case "link", "unlink": return try link(body, unlinking: name == "unlink")
        case "delete":
            return .delete(objects: try body.oneOrMany("'delete'").map { node throws(ScenarioLoadError) in
                try knownObject(node)
            })
        case "save": return try save(body)
        case "reset", "reopen":
            guard body.isNull || (body.node.mapping?.isEmpty ?? false) else {
                throw body.error("'\(name)' takes no arguments")
            }
            if name == "reopen" { usedFeatures[.reopen] = usedFeatures[.reopen] ?? keyNode }
            return name == "reset" ? .reset : .reopen
        case "expect": return .expect(try expectations(body))
        default:
            throw keyNode.error("unknown step '\(name)'; expected one of: " + Self.stepNames.joined(separator: ", "))
        }
    }

    private mutating func insert(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'insert'", allowed: ["entity", "as", "values"], required: ["entity", "as"])
        let entityNode = fields["entity"]!
        let entityName = try entityNode.string("'entity'")
        guard let entity = model!.entity(named: entityName) else {
            throw entityNode.error("the model has no entity '\(entityName)'")
        }
        guard !entity.isAbstract else {
            throw entityNode.error("'\(entityName)' is abstract and cannot be inserted; insert one of its sub-entities")
        }
        if entity.parentEntityName != nil { usedFeatures[.inheritance] = usedFeatures[.inheritance] ?? entityNode }
        let nameNode = fields["as"]!
        let name = try nameNode.string("'as'")
        guard name.range(of: #"^[A-Za-z_][A-Za-z0-9_-]*$"#, options: .regularExpression) != nil else {
            throw nameNode.error("object name '\(name)' must start with a letter and hold only letters, digits, '_' and '-'")
        }
        guard entityOfObject[name] == nil else {
            throw nameNode.error("an object named '\(name)' is already inserted; names are unique in a scenario")
        }
        var values: [String: AttributeValue] = [:]
        if let valuesNode = fields["values"] { values = try attributeValues(valuesNode, of: entity) }
        entityOfObject[name] = entity
        return .insert(entity: entityName, object: name, values: values)
    }

    private mutating func set(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'set'", allowed: ["object", "values"], required: ["object", "values"])
        let object = try knownObject(fields["object"]!)
        return .set(object: object, values: try attributeValues(fields["values"]!, of: entityOfObject[object]!))
    }

    private mutating func link(_ body: YAMLNode, unlinking: Bool) throws(ScenarioLoadError) -> Step.Action {
        let step = unlinking ? "unlink" : "link"
        let targetKey = unlinking ? "from" : "to"
        let fields = try body.fields("'\(step)'", allowed: ["object", "relationship", targetKey],
                                     required: ["object", "relationship", targetKey])
        let object = try knownObject(fields["object"]!)
        let relationshipNode = fields["relationship"]!
        let relationship = try self.relationship(try relationshipNode.string("'relationship'"),
                                                 of: object, at: relationshipNode)
        let destinationNodes = fields[targetKey]!.oneOrMany("'\(targetKey)'")
        var destinations: [String] = []
        for node in destinationNodes {
            let destination = try knownObject(node)
            let destinationEntity = entityOfObject[destination]!
            if let expected = relationship.destinationEntityName,
               !model!.entity(destinationEntity, isKindOf: expected) {
                throw node.error("'\(relationship.name)' holds '\(expected)' objects; '\(destination)' is a '\(destinationEntity.name)'")
            }
            destinations.append(destination)
        }
        if !relationship.isToMany && !unlinking && destinations.count != 1 {
            throw fields[targetKey]!.error("'\(relationship.name)' is a to-one; link exactly one object")
        }
        if !unlinking { noteRelationshipFeatures(relationship, at: relationshipNode) }
        return unlinking ? .unlink(object: object, relationship: relationship.name, destinations: destinations)
                         : .link(object: object, relationship: relationship.name, destinations: destinations)
    }

    private mutating func noteRelationshipFeatures(_ relationship: Relationship, at node: YAMLNode) {
        if relationship.isOrdered { usedFeatures[.ordered] = usedFeatures[.ordered] ?? node }
        if relationship.isToMany, model!.inverse(of: relationship)?.isToMany == true {
            usedFeatures[.manyToMany] = usedFeatures[.manyToMany] ?? node
        }
        if relationship.deletionRule == .noAction || model!.inverse(of: relationship)?.deletionRule == .noAction {
            usedFeatures[.noAction] = usedFeatures[.noAction] ?? node
        }
    }

    private mutating func save(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        if body.isNull { return .save(policy: .error, outcome: .succeeds) }
        let fields = try body.fields("'save'", allowed: ["policy", "fails", "object", "key", "details"])
        var policy = MergePolicy.error
        if let node = fields["policy"] {
            let name = try node.string("'policy'")
            guard let known = MergePolicy(rawValue: name) else {
                throw node.error("unknown merge policy '\(name)'; expected one of: "
                    + MergePolicy.allCases.map(\.rawValue).joined(separator: ", "))
            }
            policy = known
            if policy != .error { usedFeatures[.mergePolicy] = usedFeatures[.mergePolicy] ?? node }
        }
        guard let failsNode = fields["fails"] else {
            for key in ["object", "key", "details"] where fields[key] != nil {
                throw fields[key]!.error("'\(key)' describes a failure; add 'fails: <code>'")
            }
            return .save(policy: policy, outcome: .succeeds)
        }
        var failure = ExpectedFailure(code: try failsNode.int("'fails' (a Core Data error code)"))
        failure.object = try fields["object"].map { node throws(ScenarioLoadError) in try knownObject(node) }
        failure.key = try fields["key"].map { node throws(ScenarioLoadError) in try node.string("'key'") }
        if let detailsNode = fields["details"] {
            failure.details = try detailsNode.sequence("'details'").map { node throws(ScenarioLoadError) in
                try detail(node)
            }
        }
        return .save(policy: policy, outcome: .fails(failure))
    }

    /// One entry of `details`: a code, or `{code, object, key}`.
    private func detail(_ node: YAMLNode) throws(ScenarioLoadError) -> ExpectedFailure {
        if node.node.scalar != nil { return ExpectedFailure(code: try node.int("a detail code")) }
        let fields = try node.fields("a detail", allowed: ["code", "object", "key"], required: ["code"])
        return ExpectedFailure(
            code: try fields["code"]!.int("'code'"),
            object: try fields["object"].map { node throws(ScenarioLoadError) in try knownObject(node) },
            key: try fields["key"].map { node throws(ScenarioLoadError) in try node.string("'key'") })
    }

    // MARK: Expectations

    static let expectationKeys = ["exists", "gone", "count", "values", "related", "includes", "exactlyOne"]

    private mutating func expectations(_ body: YAMLNode) throws(ScenarioLoadError) -> [Expectation] {
        var result: [Expectation] = []
        for (key, keyNode, value) in try body.mapping("'expect'") {
            switch key {
            case "exists", "gone":
                let names = try value.oneOrMany("'\(key)'").map { node throws(ScenarioLoadError) in try knownObject(node) }
                result.append(key == "exists" ? .exists(names) : .gone(names))
            case "count":
                for (entityName, entityNode, countNode) in try value.mapping("'count'") {
                    guard model!.entity(named: entityName) != nil else {
                        throw entityNode.error("the model has no entity '\(entityName)'")
                    }
                    result.append(.count(entity: entityName, equals: try countNode.int("a count")))
                }
            case "values":
                for (object, objectNode, valuesNode) in try value.mapping("'values'") {
                    _ = try knownObject(objectNode)
                    result.append(.values(object: object,
                                          values: try attributeValues(valuesNode, of: entityOfObject[object]!)))
                }
            case "related", "includes":
                for (path, pathNode, objectsNode) in try value.mapping("'\(key)'") {
                    let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                    guard parts.count == 2 else {
                        throw pathNode.error("'\(path)' must be '<object>.<relationship>'")
                    }
                    let object = try knownObject(parts[0], at: pathNode)
                    _ = try relationship(parts[1], of: object, at: pathNode)
                    let objects = objectsNode.isNull ? [] : try objectsNode.oneOrMany("objects").map {
                        node throws(ScenarioLoadError) in try knownObject(node)
                    }
                    result.append(key == "related"
                        ? .related(object: object, relationship: parts[1], objects: objects)
                        : .relatedIncludes(object: object, relationship: parts[1], objects: objects))
                }
            case "exactlyOne":
                let fields = try value.fields("'exactlyOne'", allowed: ["of", "values"], required: ["of"])
                let candidates = try fields["of"]!.sequence("'of'").map { node throws(ScenarioLoadError) in
                    try knownObject(node)
                }
                guard candidates.count >= 2 else { throw fields["of"]!.error("'of' needs two or more objects") }
                let entity = entityOfObject[candidates[0]]!
                var values: [String: AttributeValue] = [:]
                if let valuesNode = fields["values"] { values = try attributeValues(valuesNode, of: entity) }
                result.append(.exactlyOne(of: candidates, values: values))
            default:
                throw keyNode.error("unknown expectation '\(key)'; expected one of: "
                    + Self.expectationKeys.joined(separator: ", "))
            }
        }
        guard !result.isEmpty else { throw body.error("'expect' checks nothing") }
        return result
    }

    // MARK: Names

    private func knownObject(_ node: YAMLNode) throws(ScenarioLoadError) -> String {
        try knownObject(try node.string("an object name"), at: node)
    }

    private func knownObject(_ name: String, at node: YAMLNode) throws(ScenarioLoadError) -> String {
        guard entityOfObject[name] != nil else {
            throw node.error("no object named '\(name)' has been inserted by an earlier step")
        }
        return name
    }

    private func relationship(_ name: String, of object: String, at node: YAMLNode) throws(ScenarioLoadError) -> Relationship {
        let entity = entityOfObject[object]!
        guard let relationship = model!.property(named: name, in: entity)?.asRelationship else {
            throw node.error("'\(entity.name)' has no relationship '\(name)'")
        }
        return relationship
    }

    private mutating func attributeValues(_ node: YAMLNode, of entity: Entity) throws(ScenarioLoadError) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for (name, keyNode, valueNode) in try node.mapping("'values'") {
            guard let attribute = model!.property(named: name, in: entity)?.asAttribute,
                  let type = attribute.attributeType else {
                throw keyNode.error("'\(entity.name)' has no attribute '\(name)'")
            }
            do {
                values[name] = try valueNode.attributeValue("'\(name)'").coerced(to: type)
            } catch {
                throw valueNode.error("'\(entity.name).\(name)' is \(type.xmlName): \(error)")
            }
            if type == .date && values[name] != .null { usedFeatures[.dates] = usedFeatures[.dates] ?? valueNode }
        }
        return values
    }
}
