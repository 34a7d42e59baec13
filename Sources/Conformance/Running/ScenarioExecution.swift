import DataModel

/// Runs one scenario's steps against one open store, in order, stopping at the first step that
/// does not do what the scenario says. Synchronous: the runner gives it a thread of its own.
struct ScenarioExecution {
    let scenario: Scenario
    let adapter: any StoreAdapter

    /// The verdict: pass, or the first failure with its step's line.
    func run() -> ScenarioResult.Verdict {
        let store: any ConformanceStore
        do {
            store = try adapter.openStore(StoreSetup(model: scenario.model, modelPath: scenario.modelPath,
                                                     scenarioID: scenario.id, timeLimit: scenario.timeLimit))
        } catch {
            return .fail(message: "the adapter could not open a store: \(error)", line: nil)
        }
        defer { store.close() }
        let current = CurrentModel(model: scenario.model)
        for declaration in scenario.contexts {
            do {
                try expectDone(ContextStore(store: store, context: nil),
                               .addContext(name: declaration.name, parent: declaration.parent))
            } catch {
                return .fail(message: "creating context '\(declaration.name)': \(Self.verdictText(of: error))", line: nil)
            }
        }
        for step in scenario.steps {
            do {
                try perform(step, on: store, current: current)
            } catch {
                return .fail(message: "\(step): \(Self.verdictText(of: error))", line: step.line)
            }
        }
        return .pass
    }

    /// A failure as a verdict says it: the scenario's own words, the store's error, or what it threw.
    private static func verdictText(of error: any Error) -> String {
        switch error {
        case let failure as StepFailure: failure.message
        case let error as StoreAdapterError: error.verdictText
        default: "the store threw: \(error)"
        }
    }

    /// The model the store's data have now, and the entity of each object in it: a reopen with
    /// another model version changes both (`related` reads the current model to know whether a
    /// relationship is ordered).
    private final class CurrentModel {
        var model: Model
        var entityOfObject: [String: String] = [:]

        init(model: Model) { self.model = model }
    }

    /// A store seen from one context: requests to a context other than `main` travel wrapped
    /// in `inContext` (contract 1.4).
    private struct ContextStore {
        let store: any ConformanceStore
        let context: String?

        func perform(_ request: StoreRequest) throws -> StoreResponse {
            guard let context else { return try store.perform(request) }
            return try store.perform(.inContext(context: context, request: request))
        }
    }

    private func perform(_ step: Step, on whole: any ConformanceStore, current: CurrentModel) throws {
        let store = ContextStore(store: whole, context: step.context)
        switch step.action {
        case .insert(let entity, let object, let values):
            current.entityOfObject[object] = entity
            try expectDone(store, .insert(entity: entity, object: object, values: values))
        case .set(let object, let values):
            for (attribute, value) in values.sorted(by: { $0.key < $1.key }) {
                try expectDone(store, .set(object: object, attribute: attribute, value: value))
            }
        case .link(let object, let relationship, let destinations):
            for destination in destinations {
                try expectDone(store, .link(object: object, relationship: relationship, destination: destination))
            }
        case .unlink(let object, let relationship, let destinations):
            for destination in destinations {
                try expectDone(store, .unlink(object: object, relationship: relationship, destination: destination))
            }
        case .delete(let objects):
            for object in objects { try expectDone(store, .delete(object: object)) }
        case .save(let policy, let outcome):
            try save(store, policy: policy, expecting: outcome)
        case .reset:
            try expectDone(store, .reset)
        case .reopen:
            try expectDone(store, .reopen)
        case .reopenWithModel(let reopen):
            try self.reopen(whole, reopen, current: current)
        case .reopenWithOptions(let options):
            try expectDone(store, .reopenWithOptions(options))
        case .refresh(let object, let mergeChanges):
            try expectDone(store, .refresh(object: object, mergeChanges: mergeChanges))
        case .refreshAll:
            try expectDone(store, .refreshAll)
        case .validate(let object, let attribute, let value, let outcome):
            try validate(store, object: object, attribute: attribute, value: value, expecting: outcome)
        case .expect(let expectations):
            for expectation in expectations { try check(expectation, on: Reader(store: store, saved: false), current: current) }
        case .expectSaved(let expectations):
            for expectation in expectations { try check(expectation, on: Reader(store: store, saved: true), current: current) }
        case .chain(let entity, let prefix, let count, let relationship, let values):
            for index in 1...count { current.entityOfObject[GeneratedNames.name(prefix, index)] = entity }
            for index in 1...count {
                try expectDone(store, .insert(entity: entity, object: GeneratedNames.name(prefix, index), values: values))
            }
            for index in 1..<count {
                try expectDone(store, .link(object: GeneratedNames.name(prefix, index), relationship: relationship,
                                            destination: GeneratedNames.name(prefix, index + 1)))
            }
        case .fanOut(let object, let relationship, let entity, let prefix, let count, let values):
            // Inserts first, then links, as `chain` does and contract §9.2 says.
            for index in 1...count { current.entityOfObject[GeneratedNames.name(prefix, index)] = entity }
            for index in 1...count {
                try expectDone(store, .insert(entity: entity, object: GeneratedNames.name(prefix, index), values: values))
            }
            for index in 1...count {
                try expectDone(store, .link(object: object, relationship: relationship,
                                            destination: GeneratedNames.name(prefix, index)))
            }
        }
    }

    private func validate(_ store: ContextStore, object: String, attribute: String, value: AttributeValue,
                          expecting outcome: ExpectedFailure?) throws {
        let request = StoreRequest.validate(object: object, attribute: attribute, value: value)
        let response = try store.perform(request)
        switch (outcome, response) {
        case (nil, .valid):
            return
        case (nil, .invalid(let failure)):
            throw StepFailure(message: "expected the value to pass validation, but it fails with \(failure)")
        case (.some(let expected), .valid):
            throw StepFailure(message: "expected validation to fail with \(expected), but the value passes")
        case (.some(let expected), .invalid(let failure)):
            guard expected.matches(failure) else {
                throw StepFailure(message: "expected validation to fail with \(expected), but it fails with \(failure)")
            }
        default:
            throw unexpected(response, to: request)
        }
    }

    private func expectDone(_ store: ContextStore, _ request: StoreRequest) throws {
        let response = try store.perform(request)
        guard response == .done else { throw unexpected(response, to: request) }
    }

    /// Opens the store's data with another model version; on success the data now follow it.
    private func reopen(_ store: any ConformanceStore, _ reopen: ModelVersionReopen, current: CurrentModel) throws {
        let response = try store.reopen(with: reopen.model, modelPath: reopen.modelPath, migration: reopen.migration)
        let expected = reopen.expectedFailure.map { "\($0) (\(CoreDataErrorCode.name(of: $0) ?? "unknown code"))" }
        switch (reopen.expectedFailure, response) {
        case (nil, .done):
            current.model = reopen.model
            current.entityOfObject = reopen.entityOfObject
        case (nil, .openFailed(let failure)):
            throw StepFailure(message: "expected the store to open with this version, but opening failed with \(failure)")
        case (.some(let code), .openFailed(let failure)):
            guard failure.code == code else {
                throw StepFailure(message: "expected opening to fail with \(expected!), but it failed with \(failure)")
            }
        case (.some, .done):
            throw StepFailure(message: "expected opening to fail with \(expected!), but the store opened with this version")
        default:
            throw StepFailure(message: "the store answered \(response) to a reopen with '\(reopen.versionName)'")
        }
    }

    private func save(_ store: ContextStore, policy: MergePolicy, expecting outcome: SaveOutcome) throws {
        let request = StoreRequest.save(policy: policy)
        let response = try store.perform(request)
        switch (outcome, response) {
        case (.succeeds, .saved):
            return
        case (.succeeds, .saveFailed(let failure)):
            throw StepFailure(message: "expected the save to succeed, but it failed with \(failure)")
        case (.fails(let expected), .saved):
            throw StepFailure(message: "expected the save to fail with \(expected), but it succeeded")
        case (.fails(let expected), .saveFailed(let failure)):
            guard expected.matches(failure) else {
                throw StepFailure(message: "expected the save to fail with \(expected), but it failed with \(failure)")
            }
        default:
            throw unexpected(response, to: request)
        }
    }

    // MARK: Expectations

    /// Where an `expect` step reads: the current state, or the saved state alone.
    private struct Reader {
        let store: ContextStore
        let saved: Bool

        func perform(_ query: StoreRequest) throws -> StoreResponse {
            saved ? try store.store.performOnSavedState(query) : try store.perform(query)
        }
    }

    /// Checks one expectation; a failure about the saved state says so.
    private func check(_ expectation: Expectation, on store: Reader, current: CurrentModel) throws {
        do {
            try evaluate(expectation, on: store, current: current)
        } catch let failure as StepFailure where store.saved {
            throw StepFailure(message: "in the saved state, " + failure.message)
        }
    }

    private func evaluate(_ expectation: Expectation, on store: Reader, current: CurrentModel) throws {
        switch expectation {
        case .exists(let objects):
            for object in objects where try !exists(object, in: store) {
                throw StepFailure(message: "expected '\(object)' to exist, but it is gone")
            }
        case .gone(let objects):
            for object in objects where try exists(object, in: store) {
                throw StepFailure(message: "expected '\(object)' to be gone, but it exists")
            }
        case .count(let entity, let expected):
            let request = StoreRequest.count(entity: entity)
            let response = try store.perform(request)
            guard case .count(let actual) = response else { throw unexpected(response, to: request) }
            guard actual == expected else {
                throw StepFailure(message: "expected \(expected) '\(entity)' object(s), found \(actual)")
            }
        case .values(let object, let values):
            try checkValues(values, of: object, on: store)
        case .related(let object, let relationshipName, let expected):
            let actual = try related(object, relationshipName, in: store)
            let ordered = current.model.entity(named: current.entityOfObject[object] ?? "")
                .flatMap { current.model.property(named: relationshipName, in: $0)?.asRelationship?.isOrdered } ?? false
            let same = ordered ? actual == expected : actual.sorted() == expected.sorted()
            guard same else {
                throw StepFailure(message: "expected '\(object).\(relationshipName)' to hold \(Self.list(expected))"
                    + (ordered ? " in this order" : "") + ", but it holds \(Self.list(actual))")
            }
        case .relatedIncludes(let object, let relationshipName, let expected):
            let actual = try related(object, relationshipName, in: store)
            let missing = expected.filter { !actual.contains($0) }
            guard missing.isEmpty else {
                throw StepFailure(message: "expected '\(object).\(relationshipName)' to include \(Self.list(missing)), "
                    + "but it holds \(Self.list(actual))")
            }
        case .exactlyOne(let candidates, let values):
            let live = try candidates.filter { try exists($0, in: store) }
            guard live.count == 1 else {
                throw StepFailure(message: "expected exactly one of \(Self.list(candidates)) to exist, "
                    + "but \(live.isEmpty ? "none does" : Self.list(live) + " do")")
            }
            try checkValues(values, of: live[0], on: store)
        case .hasChanges(let expected):
            let changes = try self.changes(in: store)
            guard changes.hasChanges == expected else {
                throw StepFailure(message: "expected hasChanges to be \(expected), but it is \(changes.hasChanges) (\(changes))")
            }
        case .changeSet(let kind, let expected):
            let changes = try self.changes(in: store)
            let actual = switch kind {
            case .inserted: changes.inserted
            case .updated: changes.updated
            case .deleted: changes.deleted
            }
            guard actual.sorted() == expected.sorted() else {
                throw StepFailure(message: "expected the \(kind.rawValue) objects to be \(Self.list(expected.sorted())), "
                    + "but they are \(Self.list(actual.sorted()))")
            }
        case .isDeleted(let object, let expected):
            let request = StoreRequest.isDeleted(object: object)
            let response = try store.perform(request)
            guard case .isDeleted(let actual) = response else { throw unexpected(response, to: request) }
            guard actual == expected else {
                throw StepFailure(message: "expected '\(object)'.isDeleted to be \(expected), but it is \(actual)")
            }
        case .fetch(let fetchRequest, let expected):
            let request = StoreRequest.fetch(fetchRequest)
            let response = try store.perform(request)
            guard case .objects(let actual) = response else { throw unexpected(response, to: request) }
            let ordered = !fetchRequest.sortDescriptors.isEmpty
            guard ordered ? actual == expected : actual.sorted() == expected.sorted() else {
                throw StepFailure(message: "expected the fetch of \(fetchRequest) to return \(Self.list(expected))"
                    + (ordered ? " in this order" : "") + ", but it returned \(Self.list(actual))")
            }
        }
    }

    private func changes(in store: Reader) throws -> ContextChanges {
        let response = try store.perform(.changes)
        guard case .changes(let changes) = response else { throw unexpected(response, to: .changes) }
        return changes
    }

    private func checkValues(_ values: [String: AttributeValue], of object: String, on store: Reader) throws {
        for (attribute, expected) in values.sorted(by: { $0.key < $1.key }) {
            let request = StoreRequest.value(object: object, attribute: attribute)
            let response = try store.perform(request)
            guard case .value(let actual) = response else { throw unexpected(response, to: request) }
            guard AttributeValue.sameAnswer(actual, expected) else {
                throw StepFailure(message: "expected '\(object).\(attribute)' to be \(expected), but it is \(actual)")
            }
        }
    }

    private func exists(_ object: String, in store: Reader) throws -> Bool {
        let request = StoreRequest.exists(object: object)
        let response = try store.perform(request)
        guard case .exists(let answer) = response else { throw unexpected(response, to: request) }
        return answer
    }

    private func related(_ object: String, _ relationship: String, in store: Reader) throws -> [String] {
        let request = StoreRequest.related(object: object, relationship: relationship)
        let response = try store.perform(request)
        guard case .objects(let names) = response else { throw unexpected(response, to: request) }
        return names
    }

    private func unexpected(_ response: StoreResponse, to request: StoreRequest) -> StepFailure {
        StepFailure(message: "the store answered \(response) to \(request)")
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "nothing" : names.map { "'\($0)'" }.joined(separator: ", ")
    }
}

extension AttributeValue {
    /// Values compare equal after normalisation: an integer answered as a double, a UUID as a
    /// plain string, a date as an ISO 8601 string still match.
    static func sameAnswer(_ actual: AttributeValue, _ expected: AttributeValue) -> Bool {
        if actual == expected { return true }
        switch (actual, expected) {
        case (.double(let a), .integer(let e)): return a == Double(e)
        case (.integer(let a), .double(let e)): return Double(a) == e
        case (.string(let a), .uuid(let e)): return a.uppercased() == e
        case (.string(let text), .date): return AttributeValue.date(fromISO8601DateTime: text) == expected
        default: return false
        }
    }
}
