/// What loading a list of paths produced, in input order.
public struct LoadResult: Sendable {
    public enum Outcome: Sendable {
        case model(Model)
        case failure(LoadError)
    }

    public var outcomes: [Outcome] = []
    public var notes: [LoadNote] = []

    public var models: [Model] {
        outcomes.compactMap { if case .model(let model) = $0 { model } else { nil } }
    }

    public var failures: [LoadError] {
        outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
    }
}
