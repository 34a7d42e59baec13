import DataModel

/// Which of several model versions wrote a store, judged by structure
/// (`StoreSchema.differences(from:)`): Core Data's version hashes cannot be recomputed, their
/// algorithm being undocumented.
public struct StoreVersionMatch: Sendable {
    public struct Candidate: Sendable {
        public var model: Model
        /// How the file differs from what this version would have written; empty for a match.
        public var differences: [String]

        public var matches: Bool { differences.isEmpty }
    }

    /// Every version, matches first, then by fewest differences.
    public var candidates: [Candidate]

    public var matches: [Candidate] { candidates.filter(\.matches) }

    public init(file: StoreFileDescription, versions: [Model]) {
        candidates = versions.map { model in
            let differences: [String]
            do {
                let schema = try StoreSchema(model: model)
                if file.writer == .momlint {
                    differences = file.momlintFingerprint == schema.fingerprint ? [] : schema.differences(from: file).nonEmpty
                        ?? ["the momlint layout fingerprint differs (\(file.momlintFingerprint ?? "?") in the file, \(schema.fingerprint) for this version)"]
                } else {
                    differences = schema.differences(from: file)
                }
            } catch {
                differences = ["this version cannot be given an SQLite store: \(error)"]
            }
            return Candidate(model: model, differences: differences)
        }
        .enumerated()
        .sorted { ($0.element.differences.count, $0.offset) < ($1.element.differences.count, $1.offset) }
        .map(\.element)
    }
}

private extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}
