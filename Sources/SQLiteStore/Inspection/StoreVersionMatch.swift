import DataModel
import VersionHashes

/// Which of several model versions wrote a store. Decided as Core Data decides, by the entity
/// version hashes the store's metadata keeps (`StoreHashIdentity`); only a store whose metadata
/// has no hashes (a momlint store, damaged metadata) is matched by structure
/// (`StoreSchema.differences(from:)`: `Z_PRIMARYKEY`'s entity numbers and parents, tables,
/// columns, join tables), and `method` says which.
public struct StoreVersionMatch: Sendable {
    public enum Method: String, Sendable {
        /// By `NSStoreModelVersionHashes`, as Core Data matches.
        case versionHashes = "version hashes"
        /// By the file's tables and columns: the store's metadata holds no version hashes.
        case structure
    }

    public struct Candidate: Sendable {
        public var model: Model
        /// How the file differs from what this version would have written; empty for a match.
        public var differences: [String]
        /// By hashes: each entity whose hash differs (empty for a match and when matched by structure).
        public var entityDifferences: [StoreHashIdentity.EntityDifference]
        /// By hashes, when no version matches: how the file's layout differs from this version's,
        /// which ranks the candidates (a version edited after it wrote the store is usually the
        /// one whose tables the store still has, or nearly).
        public var layoutDifferences: [String] = []

        public var matches: Bool { differences.isEmpty }
    }

    public var method: Method
    /// Every version, matches first, then by fewest differences.
    public var candidates: [Candidate]
    /// The store's entity hashes, when matched by them.
    public var storeHashes: [String: VersionHash]?

    public var matches: [Candidate] { candidates.filter(\.matches) }

    /// `hashes`, when given, are the versions' hashes in the order of `versions` (computed otherwise).
    public init(file: StoreFileDescription, versions: [Model], hashes: [ModelVersionHashes]? = nil) {
        storeHashes = StoreHashIdentity.storeHashes(of: file)
        let unsorted: [Candidate]
        if let store = storeHashes {
            method = .versionHashes
            unsorted = versions.enumerated().map { index, model in
                let computed = hashes?[index] ?? VersionHasher.hashes(of: model)
                let differing = StoreHashIdentity.differences(store: store, version: model, hashes: computed)
                return Candidate(model: model, differences: differing.map(\.description), entityDifferences: differing)
            }
        } else {
            method = .structure
            unsorted = versions.map { model in
                Candidate(model: model, differences: Self.structuralDifferences(file, model), entityDifferences: [])
            }
        }
        var ranked = unsorted
        if method == .versionHashes, !ranked.contains(where: \.matches) {
            for index in ranked.indices {
                ranked[index].layoutDifferences = Self.structuralDifferences(file, ranked[index].model)
            }
        }
        candidates = ranked.enumerated()
            .sorted {
                ($0.element.layoutDifferences.count, $0.element.differences.count, $0.offset)
                    < ($1.element.layoutDifferences.count, $1.element.differences.count, $1.offset)
            }
            .map(\.element)
    }

    static func structuralDifferences(_ file: StoreFileDescription, _ model: Model) -> [String] {
        do {
            let schema = try StoreSchema(model: model)
            if file.writer == .momlint {
                return file.momlintFingerprint == schema.fingerprint ? [] : schema.differences(from: file).nonEmpty
                    ?? ["the momlint layout fingerprint differs (\(file.momlintFingerprint ?? "?") in the file, \(schema.fingerprint) for this version)"]
            }
            return schema.differences(from: file)
        } catch {
            return ["this version cannot be given an SQLite store: \(error)"]
        }
    }
}

private extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}

extension StoreVersionMatch {
    /// What `momlint store which-version` prints after the store's summary: the version that
    /// wrote it, the identical versions that could have, or the closest ones with how they
    /// differ (then `matches` is empty). Text from the files is escaped and cut when long.
    public func report(bundle: String) -> String {
        reportLines(bundle: bundle).map { $0 + "\n" }.joined()
    }

    private func reportLines(bundle: String) -> [String] {
        var lines: [String] = []
        let byHashes = method == .versionHashes
        let how = byHashes ? "all \(storeHashes?.count ?? 0) entity hashes match"
            : "matched by structure: the store's metadata holds no version hashes"
        if matches.count == 1 {
            lines.append("written by version '\(PrintableText.bounded(matches[0].model.version.name))' (\(how)) (\(PrintableText.bounded(matches[0].model.file, limit: 1_000)))")
            return lines
        }
        if matches.count > 1 {
            lines.append(byHashes ? "written by one of \(matches.count) versions identical to Core Data (\(how)):"
                : "written by one of \(matches.count) structurally identical versions (\(how)):")
            for candidate in matches {
                lines.append("  '\(PrintableText.bounded(candidate.model.version.name))' (\(PrintableText.bounded(candidate.model.file, limit: 1_000)))")
            }
            return lines
        }
        let bundleName = PrintableText.bounded(bundle, limit: 1_000)
        lines.append(byHashes
            ? "no version of \(bundleName) hashes like this store (migrating it fails with 134130); closest first:"
            : "no version of \(bundleName) matches (by structure: the store's metadata holds no version hashes); closest first:")
        for candidate in candidates.prefix(3) {
            let count = candidate.differences.count
            let what = byHashes ? (count == 1 ? "entity hash differs" : "entity hashes differ")
                : (count == 1 ? "difference" : "differences")
            lines.append("  '\(PrintableText.bounded(candidate.model.version.name))': \(count) \(what)")
            // A difference quotes names from the file: escaped, and cut when long.
            for difference in candidate.differences.prefix(5) { lines.append("    - \(PrintableText.bounded(difference, limit: 1_000))") }
            for difference in candidate.layoutDifferences.prefix(3) { lines.append("    - layout: \(PrintableText.bounded(difference, limit: 1_000))") }
        }
        return lines
    }
}
