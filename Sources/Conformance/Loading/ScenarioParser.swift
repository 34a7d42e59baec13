import DataModel
import Foundation
import Yams

/// Turns the YAML of one scenario file into a `Scenario`, checking every name against the model
/// and every object against the steps before it.
struct ScenarioParser {
    let file: String
    let cache: ModelCache
    private var model: Model?
    /// Each inserted object's entity, by scenario name, in the model the steps have reached
    /// (a `reopen` with another version moves objects to their entity in it).
    private var entityOfObject: [String: Entity] = [:]
    /// Objects whose entity a model version reached by `reopen` no longer has, with that
    /// entity's name: `exists` and `gone` may still name them, nothing else can.
    private var objectsOfRemovedEntities: [String: String] = [:]
    /// Features the steps use, with where they are first used, to check the `features` list.
    private var usedFeatures: [Feature: YAMLNode] = [:]
    /// The contexts the scenario declares (`contexts:`), by name, besides `main`.
    private var declaredContexts: [String: ContextDeclaration] = [:]
    /// The context of the step being read, nil for `main`.
    private var stepContext: String?

    /// Every problem found so far; the parser goes on after one, so a file's problems are
    /// reported together.
    private(set) var errors: [ScenarioLoadError] = []
    /// Names of objects whose `insert` (or generator) step was wrong: later steps that use them
    /// are not reported again.
    private var unusableObjects: Set<String> = []

    init(file: String, cache: ModelCache) {
        self.file = file
        self.cache = cache
    }

    static let topLevelKeys = ["id", "description", "references", "features", "tags", "openQuestions", "notes",
                               "timeLimit", "model", "contexts", "steps"]

    /// The most a scenario may allow itself with `timeLimit:`, in seconds.
    static let maximumTimeLimit = 3_600

    /// Records that a step uses `feature`; the first use is where a missing feature is reported.
    private mutating func use(_ feature: Feature, at node: YAMLNode) {
        if usedFeatures[feature] == nil { usedFeatures[feature] = node }
    }

    /// Runs `body`, recording its error instead of stopping; nil when it failed.
    private mutating func attempt<T>(_ body: (inout ScenarioParser) throws(ScenarioLoadError) -> T) -> T? {
        do {
            return try body(&self)
        } catch {
            if !error.followsEarlierError { errors.append(error) }
            return nil
        }
    }

    /// The scenario, or nil with `errors` saying why. Problems in one field or one step do not
    /// hide problems in the others.
    mutating func scenario(from root: YAMLNode) -> Scenario? {
        guard let fields = attempt({ parser throws(ScenarioLoadError) in
            try root.fields("a scenario", allowed: Self.topLevelKeys,
                            required: ["id", "description", "references", "features", "model", "steps"])
        }) else { return nil }
        let idNode = fields["id"]!
        let id = attempt { _ throws(ScenarioLoadError) -> String in
            let id = try idNode.string("'id'")
            guard id.range(of: #"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$"#, options: .regularExpression) != nil else {
                throw idNode.error("id '\(id)' must be '<area>.<behaviour>' in lower-case kebab case, e.g. 'deny.non-empty-to-many'")
            }
            return id
        }
        let summary = attempt { _ throws(ScenarioLoadError) in try fields["description"]!.string("'description'") }
        let references = attempt { _ throws(ScenarioLoadError) -> [String] in
            let references = try fields["references"]!.sequence("'references'").map { node throws(ScenarioLoadError) in
                try node.string("a reference")
            }
            guard !references.isEmpty else {
                throw fields["references"]!.error("'references' needs at least one source (an Apple documentation URL, an error constant, or a documented observation)")
            }
            return references
        }
        var features: Set<Feature> = []
        for node in attempt({ _ throws(ScenarioLoadError) in try fields["features"]!.sequence("'features'") }) ?? [] {
            _ = attempt { _ throws(ScenarioLoadError) in
                features.insert(try Self.oneOf(node, "a feature", unknown: "feature"))
            }
        }
        var tags: Set<ScenarioTag> = []
        for node in attempt({ _ throws(ScenarioLoadError) in try fields["tags"]?.sequence("'tags'") ?? [] }) ?? [] {
            _ = attempt { _ throws(ScenarioLoadError) in
                tags.insert(try Self.oneOf(node, "a tag", unknown: "tag"))
            }
        }
        let openQuestions = attempt { _ throws(ScenarioLoadError) -> [Int] in
            let numbers = try (fields["openQuestions"]?.sequence("'openQuestions'") ?? []).map {
                node throws(ScenarioLoadError) in try node.int("an open question number")
            }
            if !numbers.isEmpty && !tags.contains(.inferred) {
                throw fields["openQuestions"]!.error("'openQuestions' is only for scenarios tagged 'inferred'; add 'tags: [inferred]'")
            }
            return numbers
        } ?? []
        let notes = attempt { _ throws(ScenarioLoadError) in
            try fields["notes"].map { node throws(ScenarioLoadError) in try node.string("'notes'") }
        } ?? nil
        let timeLimit = attempt { _ throws(ScenarioLoadError) -> Duration? in
            guard let node = fields["timeLimit"] else { return nil }
            let seconds = try node.int("'timeLimit' (seconds)")
            guard (1...Self.maximumTimeLimit).contains(seconds) else {
                throw node.error("'timeLimit' must be between 1 and \(Self.maximumTimeLimit) seconds")
            }
            return .seconds(seconds)
        } ?? nil

        let modelNode = fields["model"]!
        guard let modelPath = attempt({ parser throws(ScenarioLoadError) in
            let path = Self.resolve(try modelNode.string("'model'"), relativeTo: parser.file)
            if let refusal = parser.cache.refusal(of: path) { throw modelNode.error(refusal) }
            return path
        }) else { return nil }
        let loaded: Model
        switch cache.model(at: modelPath) {
        case .success(let model): loaded = model
        case .failure(let error):
            errors.append(modelNode.error("cannot load the model: \(error)"))
            return nil
        }
        model = loaded

        let contexts = attempt { parser throws(ScenarioLoadError) in try parser.contexts(fields["contexts"]) } ?? []
        var steps: [Step] = []
        if let stepNodes = attempt({ _ throws(ScenarioLoadError) in try fields["steps"]!.sequence("'steps'") }) {
            for node in stepNodes {
                stepContext = nil
                if let action = attempt({ parser throws(ScenarioLoadError) in try parser.action(from: node) }) {
                    steps.append(Step(action, line: node.line, context: stepContext))
                } else if Self.isReopenWithArguments(node) {
                    // The steps after it are written against the version it names, which is
                    // unknown: checking them against the old one would only add false errors.
                    break
                }
            }
            if stepNodes.isEmpty { errors.append(fields["steps"]!.error("'steps' is empty")) }
        }
        for (feature, node) in usedFeatures.sorted(by: { $0.key < $1.key }) where !Feature.expanded(features).contains(feature) {
            errors.append(node.error("this step needs feature '\(feature.rawValue)'; add it to 'features' so adapters "
                + "that lack it skip the scenario"))
        }
        guard errors.isEmpty, let id, let summary, let references else { return nil }
        return Scenario(id: id, summary: summary, references: references, features: features, tags: tags,
                        openQuestions: openQuestions, notes: notes, modelPath: modelPath, model: loaded,
                        steps: steps, contexts: contexts, timeLimit: timeLimit, file: file, idLine: idNode.line)
    }

    // MARK: Contexts

    /// `contexts: {editor: {}, draft: {parent: main}, worker: {mergePolicy: overwrite}}`: the
    /// contexts besides `main`, created in this order; one without `parent` is on the store.
    private mutating func contexts(_ node: YAMLNode?) throws(ScenarioLoadError) -> [ContextDeclaration] {
        guard let node else { return [] }
        var result: [ContextDeclaration] = []
        for (name, keyNode, body) in try node.mapping("'contexts'") {
            // Each declaration on its own: one mistake does not hide the next.
            if let declaration = attempt({ parser throws(ScenarioLoadError) in
                try parser.context(named: name, at: keyNode, body)
            }) {
                declaredContexts[name] = declaration
                result.append(declaration)
            }
        }
        return result
    }

    /// One entry of `contexts:`.
    private mutating func context(named name: String, at keyNode: YAMLNode,
                                  _ body: YAMLNode) throws(ScenarioLoadError) -> ContextDeclaration {
        guard name.range(of: #"^[A-Za-z_][A-Za-z0-9_-]*$"#, options: .regularExpression) != nil else {
            throw keyNode.error("context name '\(name)' must start with a letter and hold only letters, digits, '_' and '-'")
        }
        guard name != ContextDeclaration.defaultName else {
            throw keyNode.error("'\(name)' is the default context, which every scenario has; declare only the others")
        }
        let fields = body.isNull ? [:] : try body.fields("context '\(name)'", allowed: ["parent", "mergePolicy"])
        var declaration = ContextDeclaration(name: name)
        if let parentNode = fields["parent"] {
            let parent = try parentNode.string("'parent'")
            guard parent == ContextDeclaration.defaultName || declaredContexts[parent] != nil else {
                throw parentNode.error("no context '\(parent)' is declared before '\(name)'; a parent is '\(ContextDeclaration.defaultName)' or a context listed above")
            }
            declaration.parent = parent
            use(.childContexts, at: keyNode)
        } else {
            use(.contexts, at: keyNode)
        }
        if let policyNode = fields["mergePolicy"] {
            declaration.mergePolicy = try mergePolicy(policyNode)
        }
        return declaration
    }

    /// A step's body without its `context:` key, which names the context the step works in.
    private mutating func withoutContext(_ body: YAMLNode, step: String) throws(ScenarioLoadError) -> YAMLNode {
        guard let mapping = body.node.mapping,
              let pair = mapping.first(where: { $0.key.scalar?.string == "context" }) else { return body }
        let node = YAMLNode(node: pair.value, file: body.file)
        let name = try node.string("'context'")
        guard name == ContextDeclaration.defaultName || declaredContexts[name] != nil else {
            throw node.error("no context '\(name)' is declared; declare it under 'contexts:' (the default is '\(ContextDeclaration.defaultName)')")
        }
        guard !["chain", "fanOut", "reopen"].contains(step) else {
            throw node.error("'\(step)' does not take a context: it works on the whole store")
        }
        stepContext = name == ContextDeclaration.defaultName ? nil : name
        let rest = mapping.filter { $0.key.scalar?.string != "context" }
        return YAMLNode(node: .mapping(Node.Mapping(rest.map { ($0.key, $0.value) }, mapping.tag, mapping.style, mapping.mark)),
                        file: body.file)
    }

    /// The merge policy a save in the step's context uses when it names none.
    private var contextMergePolicy: MergePolicy {
        stepContext.flatMap { declaredContexts[$0]?.mergePolicy } ?? .error
    }

    private mutating func mergePolicy(_ node: YAMLNode) throws(ScenarioLoadError) -> MergePolicy {
        let known: MergePolicy = try Self.oneOf(node, "'policy'", unknown: "merge policy")
        if known != .error { use(.mergePolicy, at: node) }
        return known
    }

    /// The case of `T` the node names, or an error that lists them all.
    private static func oneOf<T: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, _ label: String, unknown kind: String
    ) throws(ScenarioLoadError) -> T where T.RawValue == String {
        let name = try node.string(label)
        guard let value = T(rawValue: name) else {
            throw node.error("unknown \(kind) '\(name)'; expected one of: " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    /// A `reopen` step with something after the key (a model version, or a mistake).
    static func isReopenWithArguments(_ node: YAMLNode) -> Bool {
        guard let pairs = node.node.mapping, pairs.count == 1, let (key, value) = pairs.first,
              key.scalar?.string == "reopen" else { return false }
        return !YAMLNode(node: value, file: node.file).isEmpty
    }

    static func resolve(_ path: String, relativeTo file: String) -> String {
        let base = URL(fileURLWithPath: file).deletingLastPathComponent()
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }

    // MARK: Steps

    static let stepNames = ["insert", "set", "link", "unlink", "delete", "save", "reset", "reopen", "expect",
                            "chain", "fanOut", "refresh", "refreshAll", "validate"]

    private mutating func action(from node: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        if node.node.scalar != nil {
            switch try node.string("a step") {
            case "save": return .save(policy: .error, outcome: .succeeds)
            case "reset": return .reset
            case "refreshAll":
                use(.refresh, at: node)
                return .refreshAll
            case "reopen":
                use(.reopen, at: node)
                return .reopen
            case let other:
                throw node.error("unknown step '\(other)'; expected one of: " + Self.stepNames.joined(separator: ", "))
            }
        }
        let pairs = try node.mapping("a step")
        guard pairs.count == 1, let (name, keyNode, given) = pairs.first else {
            throw node.error("a step is a mapping with exactly one key, the step's name ("
                + Self.stepNames.joined(separator: ", ") + ")")
        }
        var body = try withoutContext(given, step: name)
        if name == "delete", let mapping = body.node.mapping, mapping.count == 1, mapping.first?.key.scalar?.string == "objects" {
            body = YAMLNode(node: mapping.first!.value, file: body.file)
        }
        switch name {
        case "insert": return try insert(body)
        case "set": return try set(body)
        case "link", "unlink": return try link(body, unlinking: name == "unlink")
        case "delete":
            let objects = try knownObjects(body)
            // Deleting an object with relationships runs delete rules; a store without them
            // cannot do what the scenario expects.
            if objects.contains(where: { !model!.allRelationships(of: entityOfObject[$0]!).isEmpty }) {
                use(.deleteRules, at: body)
            }
            return .delete(objects: objects)
        case "chain": return try chain(body)
        case "fanOut": return try fanOut(body)
        case "save": return try save(body)
        case "reopen" where body.node.mapping?.contains(where: { $0.key.scalar?.string == "readOnly" }) ?? false:
            let fields = try body.fields("'reopen'", allowed: ["readOnly"])
            use(.reopen, at: keyNode)
            use(.storeOptions, at: keyNode)
            return .reopenWithOptions(StoreOptions(readOnly: try fields["readOnly"]!.bool("'readOnly'")))
        case "reopen" where body.node.mapping.map({ !$0.isEmpty }) ?? false:
            return try reopenWithModel(body, at: keyNode)
        case "refresh":
            let fields = try body.fields("'refresh'", allowed: ["object", "mergeChanges"], required: ["object", "mergeChanges"])
            use(.refresh, at: keyNode)
            return .refresh(object: try knownObject(fields["object"]!), mergeChanges: try fields["mergeChanges"]!.bool("'mergeChanges'"))
        case "refreshAll":
            guard body.isEmpty else { throw body.error("'refreshAll' takes only 'context'") }
            use(.refresh, at: keyNode)
            return .refreshAll
        case "validate":
            return try validate(body, at: keyNode)
        case "reset", "reopen":
            guard body.isEmpty else {
                throw body.error(name == "reopen"
                    ? "'reopen' takes no arguments, a mapping {model: <version>, migrate: lightweight|none, fails: <code>}, or {readOnly: true}"
                    : "'\(name)' takes no arguments")
            }
            if name == "reopen" { use(.reopen, at: keyNode) }
            return name == "reset" ? .reset : .reopen
        case "expect":
            let (expectations, saved) = try expectations(body)
            return saved ? .expectSaved(expectations) : .expect(expectations)
        default:
            throw keyNode.error("unknown step '\(name)'; expected one of: " + Self.stepNames.joined(separator: ", "))
        }
    }

    /// The codes a reopen with another model version may fail with (contract §4.9).
    static let openFailureCodes = [CoreDataErrorCode.persistentStoreIncompatibleVersionHash,
                                   CoreDataErrorCode.migration, CoreDataErrorCode.migrationMissingMappingModel]

    /// `reopen: {model: <version>, migrate: lightweight|none, fails: <code>}`: the saved data
    /// opened with another version of the model. `model` is an `.xcdatamodel` version folder
    /// (or a bundle, for its current version) relative to the scenario file; `migrate` is
    /// `lightweight` when not given, as `NSPersistentContainer` does by default. Later steps are
    /// checked against the new version, unless `fails` says opening fails (the store then
    /// keeps the version it had).
    private mutating func reopenWithModel(_ body: YAMLNode, at keyNode: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'reopen'", allowed: ["model", "migrate", "fails"], required: ["model"])
        use(.reopen, at: keyNode)
        use(.migration, at: keyNode)
        let migration = try fields["migrate"].map { node throws(ScenarioLoadError) -> MigrationMode in
            try Self.oneOf(node, "'migrate'", unknown: "'migrate' value")
        } ?? .lightweight
        var expectedFailure: Int?
        if let node = fields["fails"] {
            let code = try node.int("'fails' (a Core Data error code)")
            guard Self.openFailureCodes.contains(code) else {
                throw node.error("opening a store with another model version fails with one of "
                    + Self.openFailureCodes.map { "\($0) (\(CoreDataErrorCode.name(of: $0)!))" }.joined(separator: ", ")
                    + ", not \(code)")
            }
            expectedFailure = code
        }
        let modelNode = fields["model"]!
        let given = try modelNode.string("'model'")
        let path = Self.resolve(given, relativeTo: file)
        if let refusal = cache.refusal(of: path) { throw modelNode.error(refusal) }
        guard FileManager.default.fileExists(atPath: path) else {
            throw modelNode.error("no model version at '\(given)' (\(path)); 'model' names an .xcdatamodel version "
                + "folder or an .xcdatamodeld bundle, relative to the scenario file")
        }
        let version: Model
        switch cache.model(at: path) {
        case .success(let loaded): version = loaded
        case .failure(let error): throw modelNode.error("cannot load the model version: \(error)")
        }
        guard expectedFailure == nil else {
            return .reopenWithModel(ModelVersionReopen(model: version, modelPath: path, migration: migration,
                                                       expectedFailure: expectedFailure))
        }
        // The data now follow the new version: objects move to the entity that replaces theirs.
        let newEntityNames = ModelVersionReopen.entities(of: entityOfObject.mapValues(\.name), from: model!, to: version)
        var moved: [String: Entity] = [:]
        for (object, entity) in entityOfObject {
            if let newEntity = newEntityNames[object].flatMap(version.entity(named:)) {
                moved[object] = newEntity
            } else {
                objectsOfRemovedEntities[object] = entity.name
            }
        }
        entityOfObject = moved
        model = version
        return .reopenWithModel(ModelVersionReopen(model: version, modelPath: path, migration: migration,
                                                   entityOfObject: moved.mapValues(\.name)))
    }

    private mutating func insert(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'insert'", allowed: ["entity", "as", "values"], required: ["entity", "as"])
        let nameNode = fields["as"]!
        let name = try newObjectName(nameNode)
        let entity = try insertableEntity(fields["entity"]!, for: [name])
        let values = try attributeValues(fields["values"], of: entity)
        return .insert(entity: entity.name, object: name, values: values)
    }

    /// A name for a new object: well formed and not used before.
    private mutating func newObjectName(_ node: YAMLNode) throws(ScenarioLoadError) -> String {
        let name = try node.string("'as'")
        guard name.range(of: #"^[A-Za-z_][A-Za-z0-9_-]*$"#, options: .regularExpression) != nil else {
            throw node.error("object name '\(name)' must start with a letter and hold only letters, digits, '_' and '-'")
        }
        guard entityOfObject[name] == nil, objectsOfRemovedEntities[name] == nil else {
            throw node.error("an object named '\(name)' is already inserted; names are unique in a scenario")
        }
        return name
    }

    /// The entity an insert names, when it exists and is concrete, recorded as the entity of
    /// `names`; otherwise those are marked unusable so later steps naming them are not reported again.
    private mutating func insertableEntity(_ entityNode: YAMLNode, for names: [String]) throws(ScenarioLoadError) -> Entity {
        do throws(ScenarioLoadError) {
            let entityName = try entityNode.string("'entity'")
            guard let entity = model!.entity(named: entityName) else {
                throw entityNode.error("the model has no entity '\(entityName)'")
            }
            guard !entity.isAbstract else {
                throw entityNode.error("'\(entityName)' is abstract and cannot be inserted; insert one of its sub-entities")
            }
            if entity.parentEntityName != nil { use(.inheritance, at: entityNode) }
            if model!.ancestors(of: entity).contains(where: { !$0.uniquenessConstraints.isEmpty })
                || !entity.uniquenessConstraints.isEmpty {
                // A store that cannot enforce constraints refuses such a model (coredata-semantics §3).
                use(.constraints, at: entityNode)
            }
            for name in names { entityOfObject[name] = entity }
            return entity
        } catch {
            unusableObjects.formUnion(names)
            throw error
        }
    }

    /// `chain: {entity, as, count, relationship, values}`: `count` new objects, each linked to
    /// the next through `relationship`, named `<as>-1` … `<as>-<count>`.
    private mutating func chain(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'chain'", allowed: ["entity", "as", "count", "relationship", "values"],
                                     required: ["entity", "as", "count", "relationship"])
        let (prefix, count) = try generatedNames(fields)
        let names = (1...count).map { GeneratedNames.name(prefix, $0) }
        let entity = try insertableEntity(fields["entity"]!, for: names)
        let relationshipNode = fields["relationship"]!
        let relationship = try self.relationship(try relationshipNode.string("'relationship'"),
                                                 of: names[0], at: relationshipNode)
        if let expected = relationship.destinationEntityName, !model!.entity(entity, isKindOf: expected) {
            throw relationshipNode.error("'\(relationship.name)' holds '\(expected)' objects; a chain links '\(entity.name)' objects to each other")
        }
        noteRelationshipFeatures(relationship, at: relationshipNode)
        let values = try attributeValues(fields["values"], of: entity)
        return .chain(entity: entity.name, prefix: prefix, count: count, relationship: relationship.name, values: values)
    }

    /// `fanOut: {object, relationship, entity, as, count, values}`: `count` new objects, each
    /// linked from `object.relationship` (a to-many), named `<as>-1` … `<as>-<count>`.
    private mutating func fanOut(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'fanOut'", allowed: ["object", "relationship", "entity", "as", "count", "values"],
                                     required: ["object", "relationship", "entity", "as", "count"])
        let (prefix, count) = try generatedNames(fields)
        let names = (1...count).map { GeneratedNames.name(prefix, $0) }
        let object: String
        do throws(ScenarioLoadError) {
            object = try knownObject(fields["object"]!)
        } catch {
            unusableObjects.formUnion(names)
            throw error
        }
        let entity = try insertableEntity(fields["entity"]!, for: names)
        let relationshipNode = fields["relationship"]!
        let relationship = try self.relationship(try relationshipNode.string("'relationship'"), of: object, at: relationshipNode)
        guard relationship.isToMany else {
            throw relationshipNode.error("'\(relationship.name)' is a to-one; a fan-out needs a to-many relationship")
        }
        if let expected = relationship.destinationEntityName, !model!.entity(entity, isKindOf: expected) {
            throw fields["entity"]!.error("'\(relationship.name)' holds '\(expected)' objects, not '\(entity.name)'")
        }
        noteRelationshipFeatures(relationship, at: relationshipNode)
        let values = try attributeValues(fields["values"], of: entity)
        return .fanOut(object: object, relationship: relationship.name, entity: entity.name, prefix: prefix,
                       count: count, values: values)
    }

    /// The `as` prefix and `count` of a generator step; none of the names may be taken.
    private mutating func generatedNames(_ fields: [String: YAMLNode]) throws(ScenarioLoadError) -> (String, Int) {
        let prefix = try newObjectName(fields["as"]!)
        let countNode = fields["count"]!
        let count = try countNode.int("'count'")
        guard (1...GeneratedNames.maximumCount).contains(count) else {
            throw countNode.error("'count' must be between 1 and \(GeneratedNames.maximumCount)")
        }
        for index in 1...count where entityOfObject[GeneratedNames.name(prefix, index)] != nil
            || objectsOfRemovedEntities[GeneratedNames.name(prefix, index)] != nil {
            throw fields["as"]!.error("'\(GeneratedNames.name(prefix, index))' is already inserted; "
                + "generated names '\(prefix)-1' … '\(prefix)-\(count)' must be new")
        }
        return (prefix, count)
    }

    private mutating func set(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'set'", allowed: ["object", "values"], required: ["object", "values"])
        let object = try knownObject(fields["object"]!)
        return .set(object: object, values: try attributeValues(fields["values"], of: entityOfObject[object]!))
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
        var destinations: [String] = []
        for node in fields[targetKey]!.oneOrMany() {
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
        if relationship.isOrdered { use(.ordered, at: node) }
        if relationship.isToMany, model!.inverse(of: relationship)?.isToMany == true {
            use(.manyToMany, at: node)
        }
        if relationship.deletionRule == .noAction || model!.inverse(of: relationship)?.deletionRule == .noAction {
            use(.noAction, at: node)
        }
    }

    private mutating func save(_ body: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        if body.isEmpty { return .save(policy: contextMergePolicy, outcome: .succeeds) }
        let fields = try body.fields("'save'", allowed: ["policy", "fails", "object", "key", "details", "value", "objects"])
        var policy = contextMergePolicy
        if let node = fields["policy"] { policy = try mergePolicy(node) }
        guard let failsNode = fields["fails"] else {
            for key in ["object", "key", "details", "value", "objects"] where fields[key] != nil {
                throw fields[key]!.error("'\(key)' describes a failure; add 'fails: <code>'")
            }
            return .save(policy: policy, outcome: .succeeds)
        }
        let code = try failsNode.int("'fails' (a Core Data error code)")
        noteFeatures(ofCode: code, at: failsNode)
        return .save(policy: policy, outcome: .fails(try expectedFailure(code: code, fields)))
    }

    /// `validate: {object, key, value, fails, details}`: `validateValue(_:forKey:)` of `value`
    /// for an attribute, without setting it; without `fails` the value must pass.
    private mutating func validate(_ body: YAMLNode, at keyNode: YAMLNode) throws(ScenarioLoadError) -> Step.Action {
        let fields = try body.fields("'validate'", allowed: ["object", "key", "value", "fails", "details"],
                                     required: ["object", "key", "value"])
        use(.validate, at: keyNode)
        let object = try knownObject(fields["object"]!)
        let keyField = fields["key"]!
        let key = try keyField.string("'key'")
        let entity = entityOfObject[object]!
        guard let type = model!.property(named: key, in: entity)?.asAttribute?.attributeType else {
            throw keyField.error("'\(entity.name)' has no attribute '\(key)'")
        }
        let value: AttributeValue
        do {
            value = try fields["value"]!.attributeValue("'value'").coerced(to: type)
        } catch {
            throw fields["value"]!.error("'\(entity.name).\(key)' is \(type.xmlName): \(error)")
        }
        guard let failsNode = fields["fails"] else {
            if let details = fields["details"] { throw details.error("'details' describes a failure; add 'fails: <code>'") }
            return .validate(object: object, attribute: key, value: value, outcome: nil)
        }
        var failure = ExpectedFailure(code: try failsNode.int("'fails' (a Core Data error code)"))
        if failure.code != CoreDataErrorCode.multipleErrors {
            // A single failure is about the object and key validated.
            failure.object = object
            failure.key = key
        }
        failure.details = try details(fields["details"])
        return .validate(object: object, attribute: key, value: value, outcome: failure)
    }

    /// What a store must support to report `code`: Deny is a delete rule, the validation codes
    /// need validation, the constraint merge codes need constraints.
    private mutating func noteFeatures(ofCode code: Int, at node: YAMLNode) {
        let feature: Feature?
        switch code {
        case CoreDataErrorCode.relationshipDeniedDelete: feature = .deleteRules
        case CoreDataErrorCode.multipleErrors: feature = nil  // its details say
        case 1550...1699: feature = .validation
        case CoreDataErrorCode.managedObjectMerge where declaredContexts.values.contains(where: { $0.parent == nil }):
            feature = .contexts  // an optimistic-locking conflict between contexts on the store
        case CoreDataErrorCode.managedObjectConstraintMerge, CoreDataErrorCode.managedObjectMerge: feature = .constraints
        case CoreDataErrorCode.fileWriteNoPermission: feature = .storeOptions
        default: feature = nil
        }
        if let feature { use(feature, at: node) }
    }

    /// One entry of `details`: a code, or `{code, object, key}`.
    private mutating func detail(_ node: YAMLNode) throws(ScenarioLoadError) -> ExpectedFailure {
        if node.node.scalar != nil {
            let code = try node.int("a detail code")
            noteFeatures(ofCode: code, at: node)
            return ExpectedFailure(code: code)
        }
        let fields = try node.fields("a detail", allowed: ["code", "object", "key", "value", "objects"], required: ["code"])
        let codeNode = fields["code"]!
        let code = try codeNode.int("'code'")
        noteFeatures(ofCode: code, at: codeNode)
        return try expectedFailure(code: code, fields)
    }

    /// `details: [...]`, the failures a multiple-errors failure holds; nil when not given.
    private mutating func details(_ node: YAMLNode?) throws(ScenarioLoadError) -> [ExpectedFailure]? {
        try node?.sequence("'details'").map { node throws(ScenarioLoadError) in try detail(node) }
    }

    /// The failure `code` as the fields of a failing `save` or of one of its `details` describe
    /// it: `object`, `key`, `details`, `value` (the value that failed, read as the type of
    /// `object.key` when both are given) and `objects` (every object of a uniqueness conflict).
    private mutating func expectedFailure(code: Int, _ fields: [String: YAMLNode]) throws(ScenarioLoadError) -> ExpectedFailure {
        var failure = ExpectedFailure(
            code: code,
            object: try fields["object"].map { node throws(ScenarioLoadError) in try knownObject(node) },
            key: try fields["key"].map { node throws(ScenarioLoadError) in try node.string("'key'") },
            details: try details(fields["details"]))
        if let node = fields["value"] {
            var value = try node.attributeValue("'value'")
            if let object = failure.object, let key = failure.key,
               let type = model!.property(named: key, in: entityOfObject[object]!)?.asAttribute?.attributeType {
                do {
                    value = try value.coerced(to: type)
                } catch {
                    throw node.error("'\(object).\(key)' is \(type.xmlName): \(error)")
                }
            }
            failure.value = value
            use(.errorValues, at: node)
        }
        if let node = fields["objects"] {
            failure.objects = try node.sequence("'objects'").map { node throws(ScenarioLoadError) in try knownObject(node) }
            use(.conflictObjects, at: node)
        }
        return failure
    }

    // MARK: Expectations

    static let expectationKeys = ["exists", "gone", "count", "values", "related", "includes", "exactlyOne", "saved",
                                  "hasChanges", "inserted", "updated", "deleted", "isDeleted", "fetch"]

    /// The checks of an `expect` step, and whether they read the saved state alone (`saved: true`).
    private mutating func expectations(_ body: YAMLNode) throws(ScenarioLoadError) -> ([Expectation], saved: Bool) {
        var result: [Expectation] = []
        var saved = false
        for (key, keyNode, value) in try body.mapping("'expect'") {
            switch key {
            case "saved":
                saved = try value.bool("'saved'")
                if saved { use(.savedState, at: keyNode) }
            case "exists", "gone":
                let names = try knownObjects(value, inAnyVersion: true)
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
                    let objects = try knownObjects(objectsNode, nullMeansNone: true)
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
                result.append(.exactlyOne(of: candidates, values: try attributeValues(fields["values"], of: entity)))
            case "hasChanges":
                use(.changeTracking, at: keyNode)
                result.append(.hasChanges(try value.bool("'hasChanges'")))
            case "inserted", "updated", "deleted":
                use(.changeTracking, at: keyNode)
                result.append(.changeSet(ChangeKind(rawValue: key)!, objects: try knownObjects(value, nullMeansNone: true)))
            case "isDeleted":
                use(.changeTracking, at: keyNode)
                for (object, objectNode, flag) in try value.mapping("'isDeleted'") {
                    _ = try knownObject(objectNode)
                    result.append(.isDeleted(object: object, try flag.bool("'isDeleted'")))
                }
            case "fetch":
                use(.fetchRequests, at: keyNode)
                for node in value.oneOrMany() { result.append(try fetch(node)) }
            default:
                throw keyNode.error("unknown expectation '\(key)'; expected one of: "
                    + Self.expectationKeys.joined(separator: ", "))
            }
        }
        guard !result.isEmpty else { throw body.error("'expect' checks nothing") }
        if saved, let name = result.lazy.compactMap(Self.contextOnlyKey).first {
            throw body.error("'saved: true' reads the store's saved data, which has no '\(name)'; check it without 'saved'")
        }
        return (result, saved)
    }

    /// The key of an expectation that reads what only a context has (its changes, a fetch).
    private static func contextOnlyKey(_ expectation: Expectation) -> String? {
        switch expectation {
        case .hasChanges: "hasChanges"
        case .changeSet(let kind, _): kind.rawValue
        case .isDeleted: "isDeleted"
        case .fetch: "fetch"
        default: nil
        }
    }

    static let fetchKeys = ["entity", "where", "sortBy", "includesPendingChanges", "limit", "offset", "result"]

    /// `fetch: {entity, where, sortBy, includesPendingChanges, limit, offset, result}`: a fetch
    /// request and the objects it returns (in order when it sorts).
    private mutating func fetch(_ node: YAMLNode) throws(ScenarioLoadError) -> Expectation {
        let fields = try node.fields("a fetch", allowed: Self.fetchKeys, required: ["entity", "result"])
        let entityNode = fields["entity"]!
        let entityName = try entityNode.string("'entity'")
        guard let entity = model!.entity(named: entityName) else { throw entityNode.error("the model has no entity '\(entityName)'") }
        var request = FetchRequest(entity: entityName)
        if let whereNode = fields["where"] {
            let format = try whereNode.string("'where' (a predicate)")
            do {
                request.predicate = try FetchPredicate(format: format)
            } catch {
                throw whereNode.error("cannot read the predicate '\(format)': \(error)")
            }
            for path in request.predicate!.expression.keyPaths {
                if let problem = keyPathProblem(path, from: entity, sorting: false) { throw whereNode.error(problem) }
            }
        }
        if let sortNode = fields["sortBy"] {
            for item in sortNode.oneOrMany() {
                var descriptor: SortDescriptor
                if item.node.scalar != nil {
                    descriptor = SortDescriptor(key: try item.string("a sort key"))
                } else {
                    let parts = try item.fields("a sort descriptor", allowed: ["key", "ascending"], required: ["key"])
                    descriptor = SortDescriptor(key: try parts["key"]!.string("'key'"),
                                                ascending: try parts["ascending"]?.bool("'ascending'") ?? true)
                }
                if let problem = keyPathProblem(descriptor.key.split(separator: ".").map(String.init), from: entity, sorting: true) {
                    throw item.error(problem)
                }
                request.sortDescriptors.append(descriptor)
            }
        }
        if let pending = fields["includesPendingChanges"] { request.includesPendingChanges = try pending.bool("'includesPendingChanges'") }
        for (key, keyPath) in [("limit", \FetchRequest.fetchLimit), ("offset", \FetchRequest.fetchOffset)] {
            guard let number = fields[key] else { continue }
            let count = try number.int("'\(key)'")
            guard count >= 0 else { throw number.error("'\(key)' must be 0 or more") }
            guard !request.sortDescriptors.isEmpty else {
                throw number.error("a fetch with '\(key)' needs 'sortBy': without sort descriptors which objects come first is unspecified")
            }
            request[keyPath: keyPath] = count
        }
        return .fetch(request, objects: try knownObjects(fields["result"]!, nullMeansNone: true))
    }

    /// Why a key path does not fit the entity: each step but the last a to-one relationship,
    /// the last an attribute (or, in a predicate, a to-one compared with nil).
    private func keyPathProblem(_ path: [String], from entity: Entity, sorting: Bool) -> String? {
        var current = entity
        for (index, key) in path.enumerated() {
            guard let property = model!.property(named: key, in: current) else {
                return "'\(current.name)' has no attribute or relationship '\(key)' (in the key path '\(path.joined(separator: "."))')"
            }
            let isLast = index == path.count - 1
            if let relationship = property.asRelationship {
                guard !relationship.isToMany else {
                    return "'\(key)' is a to-many relationship; key paths here go through to-one relationships only"
                }
                if isLast {
                    return sorting ? "sort by an attribute, not the relationship '\(key)'" : nil
                }
                guard let next = relationship.destinationEntityName.flatMap(model!.entity(named:)) else {
                    return "'\(key)' has no destination entity"
                }
                current = next
            } else if !isLast {
                return "'\(key)' is an attribute; only a to-one relationship can be followed with '.'"
            }
        }
        return nil
    }

    // MARK: Names

    /// An object inserted by an earlier step. Only with `inAnyVersion` may it be one whose
    /// entity the current model version no longer has (for `exists` and `gone`).
    private func knownObject(_ node: YAMLNode, inAnyVersion: Bool = false) throws(ScenarioLoadError) -> String {
        try knownObject(try node.string("an object name"), at: node, inAnyVersion: inAnyVersion)
    }

    /// The objects a list, or a single name, names (`knownObject`); with `nullMeansNone`, `~`
    /// names none.
    private func knownObjects(_ node: YAMLNode, nullMeansNone: Bool = false,
                              inAnyVersion: Bool = false) throws(ScenarioLoadError) -> [String] {
        if nullMeansNone && node.isNull { return [] }
        return try node.oneOrMany().map { node throws(ScenarioLoadError) in try knownObject(node, inAnyVersion: inAnyVersion) }
    }

    private func knownObject(_ name: String, at node: YAMLNode, inAnyVersion: Bool = false) throws(ScenarioLoadError) -> String {
        if unusableObjects.contains(name) {
            var error = node.error("'\(name)' was not inserted (see the error above)")
            error.followsEarlierError = true
            throw error
        }
        if let removed = objectsOfRemovedEntities[name] {
            if inAnyVersion { return name }
            throw node.error("'\(name)' is a '\(removed)', an entity the model version opened by an earlier "
                + "'reopen' no longer has; only 'exists' and 'gone' can name it")
        }
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

    /// The attribute values of a `values:` mapping, each read as its attribute's type; none
    /// when the step has no `values`.
    private mutating func attributeValues(_ node: YAMLNode?, of entity: Entity) throws(ScenarioLoadError) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        guard let node else { return values }
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
            if type == .date && values[name] != .null { use(.dates, at: valueNode) }
        }
        return values
    }
}
