import DataModel
import Foundation
import ModelDiff

/// One behaviour of a Core Data–compatible store, pinned down as data: a model, steps that
/// change and save an object graph, and expectations about the result. Read from one YAML file
/// under `Fixtures/Scenarios/<area>/` by `ScenarioLoader`; the format is in
/// `Fixtures/Scenarios/schema.json` and `docs/adapter-contract.md`.
public struct Scenario: Identifiable, Sendable, CustomStringConvertible {
    /// Stable, unique across the suite: `<area>.<behaviour>` in kebab case, e.g. `deny.non-empty-to-many`.
    public var id: String
    /// One line saying what the scenario checks (`description:` in the file).
    public var summary: String
    /// Where the behaviour is stated: an Apple documentation URL, an error constant, or a
    /// documented observation (a URL).
    public var references: [String]
    /// What a store needs to run the scenario.
    public var features: Set<Feature>
    public var tags: Set<ScenarioTag>
    /// Numbers of the open questions of docs/coredata-semantics.md the scenario depends on, when `inferred`.
    public var openQuestions: [Int]
    /// Free text: why the behaviour is inferred, what is deliberately not checked.
    public var notes: String?
    /// The `.xcdatamodeld` bundle, as an absolute path.
    public var modelPath: String
    /// The model, loaded by the real parser.
    public var model: Model
    public var steps: [Step]
    /// The contexts besides the default one, `main`, in the order they are created (contract
    /// 1.4): each on the store or a child of another.
    public var contexts: [ContextDeclaration]
    /// How long this scenario may take (`timeLimit:` in seconds), when it says; the runner
    /// allows the larger of this and its own limit.
    public var timeLimit: Duration?
    /// The scenario file, for messages.
    public var file: String
    /// The line of `id:` in the file, for messages about the id.
    public var idLine: Int?

    public init(id: String, summary: String, references: [String], features: Set<Feature>,
                tags: Set<ScenarioTag> = [], openQuestions: [Int] = [], notes: String? = nil,
                modelPath: String, model: Model, steps: [Step], contexts: [ContextDeclaration] = [],
                timeLimit: Duration? = nil, file: String, idLine: Int? = nil) {
        self.id = id
        self.summary = summary
        self.references = references
        self.features = features
        self.tags = tags
        self.openQuestions = openQuestions
        self.notes = notes
        self.modelPath = modelPath
        self.model = model
        self.steps = steps
        self.contexts = contexts
        self.timeLimit = timeLimit
        self.file = file
        self.idLine = idLine
    }

    /// The scenario's area: the part of the id before the first dot.
    public var area: String { String(id.prefix { $0 != "." }) }

    public var isInferred: Bool { tags.contains(.inferred) }

    public var description: String { id }
}

/// The names generator steps give their objects: `<prefix>-1` … `<prefix>-<count>`.
public enum GeneratedNames {
    /// The most objects one generator step may make: bounded so a scenario file cannot ask a
    /// store for unbounded work.
    public static let maximumCount = 1_000_000

    public static func name(_ prefix: String, _ index: Int) -> String { "\(prefix)-\(index)" }
}

/// A context a scenario declares besides the default one (`contexts:`, contract 1.4).
public struct ContextDeclaration: Hashable, Sendable {
    /// The name steps use (`context: editor`).
    public var name: String
    /// The context whose child this is; nil for a context on the store, beside `main`.
    public var parent: String?
    /// The merge policy its saves use when a `save` step names none (`mergePolicy` of
    /// `NSManagedObjectContext`); nil for the error policy, the default.
    public var mergePolicy: MergePolicy?

    public init(name: String, parent: String? = nil, mergePolicy: MergePolicy? = nil) {
        self.name = name
        self.parent = parent
        self.mergePolicy = mergePolicy
    }

    /// The name of the context every scenario has, and steps use when they name none.
    public static let defaultName = "main"
}

/// One step of a scenario, with the line it was written on.
public struct Step: Sendable, CustomStringConvertible {
    public var action: Action
    /// The step's line in the scenario file (1-based), when known.
    public var line: Int?
    /// The context the step works in (`context:`); nil for the default context, `main`.
    public var context: String?

    public init(_ action: Action, line: Int? = nil, context: String? = nil) {
        self.action = action
        self.line = line
        self.context = context
    }

    public enum Action: Hashable, Sendable {
        /// Insert a new object of `entity` named `object` with attribute values.
        case insert(entity: String, object: String, values: [String: AttributeValue])
        /// Set attributes of an object.
        case set(object: String, values: [String: AttributeValue])
        /// Add destinations to a relationship, in order (a to-one takes exactly one).
        case link(object: String, relationship: String, destinations: [String])
        /// Remove destinations from a relationship.
        case unlink(object: String, relationship: String, destinations: [String])
        /// Mark objects deleted, in order.
        case delete(objects: [String])
        /// Save with a merge policy, expecting an outcome.
        case save(policy: MergePolicy, outcome: SaveOutcome)
        /// Discard pending changes.
        case reset
        /// Discard pending changes, close the store and open it again.
        case reopen
        /// Discard pending changes, close the store and open its saved data with another
        /// version of the model, migrating or not (contract 1.3, feature `migration`).
        case reopenWithModel(ModelVersionReopen)
        /// Check the current state.
        case expect([Expectation])
        /// Check the saved state alone, leaving pending changes pending (`saved: true`).
        case expectSaved([Expectation])
        /// Insert `count` objects of `entity` named `<prefix>-1` … `<prefix>-<count>`, each with
        /// `values`, then link each one's `relationship` to the next: a chain of `count` objects.
        case chain(entity: String, prefix: String, count: Int, relationship: String, values: [String: AttributeValue])
        /// Insert `count` objects of `entity` named `<prefix>-1` … `<prefix>-<count>`, each with
        /// `values`, and link `object.relationship` to every one, in order.
        case fanOut(object: String, relationship: String, entity: String, prefix: String, count: Int,
                    values: [String: AttributeValue])
        /// Refresh one object, merging its pending changes or dropping them (contract 1.4).
        case refresh(object: String, mergeChanges: Bool)
        /// Refresh every object the context holds, merging pending changes.
        case refreshAll
        /// `validateValue(_:forKey:)`: the value passes (`outcome` nil) or fails as stated.
        case validate(object: String, attribute: String, value: AttributeValue, outcome: ExpectedFailure?)
        /// Discard pending changes, close the store and open it again with these options.
        case reopenWithOptions(StoreOptions)
    }

    public var description: String {
        guard let context else { return actionDescription }
        return actionDescription + " in '\(context)'"
    }

    private var actionDescription: String {
        switch action {
        case .insert(let entity, let object, _): "insert \(entity) '\(object)'"
        case .set(let object, let values): "set \(values.keys.sorted().map { "'\(object).\($0)'" }.joined(separator: ", "))"
        case .link(let object, let relationship, let destinations):
            "link '\(object).\(relationship)' to \(destinations.map { "'\($0)'" }.joined(separator: ", "))"
        case .unlink(let object, let relationship, let destinations):
            "unlink \(destinations.map { "'\($0)'" }.joined(separator: ", ")) from '\(object).\(relationship)'"
        case .delete(let objects): "delete \(objects.map { "'\($0)'" }.joined(separator: ", "))"
        case .save(let policy, _): "save (\(policy.rawValue))"
        case .reset: "reset"
        case .reopen: "reopen"
        case .reopenWithModel(let reopen): "reopen with '\(reopen.versionName)' (migrate: \(reopen.migration.rawValue))"
        case .expect: "expect"
        case .expectSaved: "expect (saved)"
        case .chain(let entity, let prefix, let count, let relationship, _):
            "chain of \(count) '\(entity)' objects '\(GeneratedNames.name(prefix, 1))'… linked by '\(relationship)'"
        case .fanOut(let object, let relationship, let entity, let prefix, let count, _):
            "fan out '\(object).\(relationship)' to \(count) '\(entity)' objects '\(GeneratedNames.name(prefix, 1))'…"
        case .refresh(let object, let mergeChanges): "refresh '\(object)' (mergeChanges: \(mergeChanges))"
        case .refreshAll: "refreshAll"
        case .validate(let object, let attribute, let value, _): "validate \(value) for '\(object).\(attribute)'"
        case .reopenWithOptions(let options): "reopen (\(options))"
        }
    }
}

/// A `reopen` step with a model: the store's saved data opened with another version of the
/// model (`reopen: {model: …, migrate: lightweight|none, fails: CODE}`).
public struct ModelVersionReopen: Hashable, Sendable {
    /// The version, loaded by the real parser.
    public var model: Model
    /// The `.xcdatamodel` version folder (or bundle) the step names, absolute.
    public var modelPath: String
    public var migration: MigrationMode
    /// The Core Data code opening must fail with (134100, 134110, 134140), or nil when it must
    /// succeed. After a failure the store keeps its data and the model it had.
    public var expectedFailure: Int?
    /// Once the reopen succeeded: the entity each object named so far belongs to in `model`
    /// (an entity renamed through its renaming identifier keeps its objects). Objects whose
    /// entity the version no longer has are absent.
    public var entityOfObject: [String: String]

    public init(model: Model, modelPath: String, migration: MigrationMode, expectedFailure: Int? = nil,
                entityOfObject: [String: String] = [:]) {
        self.model = model
        self.modelPath = modelPath
        self.migration = migration
        self.expectedFailure = expectedFailure
        self.entityOfObject = entityOfObject
    }

    /// The entity each object belongs to once data saved under `older` are opened with
    /// `newer`: an entity renamed through its renaming identifier keeps its objects, matched as
    /// the schema diff matches entities (`SchemaDiff`, the one diff engine); objects of an entity
    /// `newer` no longer has are left out.
    public static func entities(of objects: [String: String], from older: Model, to newer: Model) -> [String: String] {
        var renamed: [String: String] = [:]
        var removed: Set<String> = []
        for change in SchemaDiff(from: older, to: newer).changes where change.element == .entity {
            if change.kind == .renamed, let oldName = change.oldName { renamed[oldName] = change.entityName }
            if change.kind == .removed { removed.insert(change.entityName) }
        }
        return objects.compactMapValues { entity in
            guard !removed.contains(entity) else { return nil }
            let name = renamed[entity] ?? entity
            return newer.entity(named: name) != nil ? name : nil
        }
    }

    /// The version's folder name without its extension, for messages.
    public var versionName: String {
        let last = (modelPath as NSString).lastPathComponent
        return (last as NSString).deletingPathExtension
    }

    // `Model` is not Hashable: a reopen is identified by what the step says.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.modelPath == rhs.modelPath && lhs.migration == rhs.migration && lhs.expectedFailure == rhs.expectedFailure
            && lhs.entityOfObject == rhs.entityOfObject
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(modelPath)
        hasher.combine(migration)
        hasher.combine(expectedFailure)
    }
}

/// What a save must do.
public enum SaveOutcome: Hashable, Sendable {
    case succeeds
    case fails(ExpectedFailure)
}

/// The failure a save must report. `object`, `key` and `details` are checked only when the
/// scenario gives them; `details` are matched as a multiset (order is not specified).
public struct ExpectedFailure: Hashable, Sendable, CustomStringConvertible {
    public var code: Int
    public var object: String?
    public var key: String?
    public var details: [ExpectedFailure]?
    /// The value that failed validation, when the scenario states it.
    public var value: AttributeValue?
    /// Every object of a uniqueness conflict, as a set, when the scenario states them.
    public var objects: [String]?

    public init(code: Int, object: String? = nil, key: String? = nil, details: [ExpectedFailure]? = nil,
                value: AttributeValue? = nil, objects: [String]? = nil) {
        self.code = code
        self.object = object
        self.key = key
        self.details = details
        self.value = value
        self.objects = objects
    }

    /// True when `failure` has this code and every part the scenario states.
    public func matches(_ failure: SaveFailure) -> Bool {
        guard failure.code == code else { return false }
        if let object, failure.object != object { return false }
        if let key, failure.key != key { return false }
        if let value {
            guard let actual = failure.value, AttributeValue.sameAnswer(actual, value) else { return false }
        }
        if let objects, failure.objects?.sorted() != objects.sorted() { return false }
        guard let details else { return true }
        return Self.matchAll(details, failure.details)
    }

    /// A perfect matching of expected details onto actual ones (small lists: backtracking).
    private static func matchAll(_ expected: [ExpectedFailure], _ actual: [SaveFailure]) -> Bool {
        guard expected.count == actual.count else { return false }
        guard let first = expected.first else { return true }
        for (index, candidate) in actual.enumerated() where first.matches(candidate) {
            var rest = actual
            rest.remove(at: index)
            if matchAll(Array(expected.dropFirst()), rest) { return true }
        }
        return false
    }

    public var description: String {
        SaveFailure.describe(code: code, object: object, key: key, details: details?.map(\.description),
                             value: value, objects: objects)
    }
}

/// A check of the store's current state (saved data plus pending changes).
public enum Expectation: Hashable, Sendable {
    /// Each object is live (inserted or saved, not deleted).
    case exists([String])
    /// Each object is not live: deleted, discarded, or merged away.
    case gone([String])
    /// `entity` (with its sub-entities) has exactly `count` live objects.
    case count(entity: String, equals: Int)
    /// The object's attributes have these values.
    case values(object: String, values: [String: AttributeValue])
    /// The relationship holds exactly these objects: in this order for an ordered to-many,
    /// as a set for an unordered one, none or one for a to-one.
    case related(object: String, relationship: String, objects: [String])
    /// The relationship holds at least these objects (others may be there too).
    case relatedIncludes(object: String, relationship: String, objects: [String])
    /// Exactly one of `candidates` is live, and it has these values — for outcomes Core Data
    /// leaves unspecified, such as which of two new conflicting objects survives a merge.
    case exactlyOne(of: [String], values: [String: AttributeValue])
    /// The context's `hasChanges` (contract 1.4, feature `change-tracking`).
    case hasChanges(Bool)
    /// The names in the context's inserted, updated or deleted objects, as a set.
    case changeSet(ChangeKind, objects: [String])
    /// `isDeleted` of each object.
    case isDeleted(object: String, Bool)
    /// A fetch request's result: in this order when it sorts, as a set otherwise (contract
    /// 1.4, feature `fetch-requests`).
    case fetch(FetchRequest, objects: [String])
}

/// Which of a context's change sets an expectation reads.
public enum ChangeKind: String, Hashable, Sendable, CaseIterable {
    case inserted, updated, deleted
}
