/// A fetch request as a scenario states it and a store executes it (contract 1.4, §4.11): the
/// parts of `NSFetchRequest` the suite checks.
public struct FetchRequest: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The entity fetched; objects of its sub-entities match too (`includesSubentities`, true
    /// by default).
    public var entity: String
    /// `NSFetchRequest.predicate`, nil for every object.
    public var predicate: FetchPredicate?
    /// `sortDescriptors`, applied in order; with none the order of the result is unspecified.
    public var sortDescriptors: [SortDescriptor]
    /// `includesPendingChanges` (true by default): whether objects inserted, changed or deleted
    /// in the context and not saved count, with their pending values.
    public var includesPendingChanges: Bool
    /// `fetchLimit`: at most this many objects, 0 for no limit.
    public var fetchLimit: Int
    /// `fetchOffset`: the first this many matching objects are skipped.
    public var fetchOffset: Int

    public init(entity: String, predicate: FetchPredicate? = nil, sortDescriptors: [SortDescriptor] = [],
                includesPendingChanges: Bool = true, fetchLimit: Int = 0, fetchOffset: Int = 0) {
        self.entity = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.includesPendingChanges = includesPendingChanges
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }

    public var description: String {
        var parts = [entity]
        if let predicate { parts.append("where \(predicate.format)") }
        if !sortDescriptors.isEmpty {
            parts.append("sorted by " + sortDescriptors.map { "\($0.key) \($0.ascending ? "ascending" : "descending")" }
                .joined(separator: ", "))
        }
        if !includesPendingChanges { parts.append("without pending changes") }
        if fetchOffset > 0 { parts.append("offset \(fetchOffset)") }
        if fetchLimit > 0 { parts.append("limit \(fetchLimit)") }
        return parts.joined(separator: " ")
    }

    /// The request run over `candidates` — every live object of the entity's kind as the request
    /// sees them — with `value(candidate, keyPath)` reading a key path: the predicate filters,
    /// the sort descriptors order (ties keep the candidates' order), then the offset and the
    /// limit apply. Every store of the suite shares this, so they cannot disagree on what a
    /// predicate means; the store's work is choosing the candidates and their values
    /// (`KeyPathValue.read` walks a key path over any store's objects). An error `value`
    /// throws ends the fetch. Each `LIKE` or `MATCHES` pattern is compiled once for the fetch.
    public func execute<Candidate, Failure: Error>(over candidates: [Candidate],
                                                   value: (Candidate, [String]) throws(Failure) -> AttributeValue)
        throws(Failure) -> [Candidate] {
        var matching = candidates
        if let predicate {
            let patterns = PatternExpressions()
            matching = []
            for candidate in candidates {
                let read = { (path: [String]) throws(Failure) in try value(candidate, path) }
                if try predicate.expression.evaluate(read, patterns: patterns) { matching.append(candidate) }
            }
        }
        if !sortDescriptors.isEmpty {
            var keyed: [(Int, Candidate, [AttributeValue])] = []
            for (index, candidate) in matching.enumerated() {
                var keys: [AttributeValue] = []
                for descriptor in sortDescriptors { keys.append(try value(candidate, descriptor.keyPath)) }
                keyed.append((index, candidate, keys))
            }
            matching = keyed.sorted { lhs, rhs in
                for (position, descriptor) in sortDescriptors.enumerated() {
                    let order = SortDescriptor.compare(lhs.2[position], rhs.2[position])
                    if order != 0 { return descriptor.ascending ? order < 0 : order > 0 }
                }
                return lhs.0 < rhs.0
            }.map(\.1)
        }
        let skipped = matching.dropFirst(min(fetchOffset, matching.count))
        return fetchLimit > 0 ? Array(skipped.prefix(fetchLimit)) : Array(skipped)
    }
}

/// `NSSortDescriptor(key:ascending:)` with the default selector `compare:`.
public struct SortDescriptor: Hashable, Sendable, Codable {
    /// An attribute, or a key path through to-one relationships (`department.name`).
    public var key: String
    public var ascending: Bool

    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    var keyPath: [String] { key.split(separator: ".").map(String.init) }

    /// -1, 0 or 1. Nil sorts before every value, as SQLite's `ORDER BY` puts NULLs first
    /// ("NULLs are considered smaller than any other value", sqlite.org/lang_select.html) and
    /// Core Data's SQL store sorts in SQL; numbers compare by value, strings by their Unicode
    /// scalars (`compare:` without options), dates by time, booleans false before true.
    public static func compare(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        default: break
        }
        if let left = lhs.numericValue, let right = rhs.numericValue {
            return left < right ? -1 : (left > right ? 1 : 0)
        }
        switch (lhs, rhs) {
        case (.string(let left), .string(let right)), (.uuid(let left), .uuid(let right)):
            let left = Array(left.unicodeScalars.map(\.value)), right = Array(right.unicodeScalars.map(\.value))
            return left.lexicographicallyPrecedes(right) ? -1 : (left == right ? 0 : 1)
        default:
            let left = "\(lhs)", right = "\(rhs)"
            return left < right ? -1 : (left == right ? 0 : 1)
        }
    }
}

/// The context's change tracking (contract 1.4, §4.11): `hasChanges` and the names in
/// `insertedObjects`, `updatedObjects` and `deletedObjects`, in any order.
public struct ContextChanges: Hashable, Sendable, Codable, CustomStringConvertible {
    public var hasChanges: Bool
    public var inserted: [String]
    public var updated: [String]
    public var deleted: [String]

    public init(hasChanges: Bool, inserted: [String] = [], updated: [String] = [], deleted: [String] = []) {
        self.hasChanges = hasChanges
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    public var description: String {
        "hasChanges \(hasChanges), inserted \(inserted.sorted()), updated \(updated.sorted()), deleted \(deleted.sorted())"
    }
}

/// Options a store is opened with (contract 1.4, §4.12), as `addPersistentStore(…options:)`
/// takes them.
public struct StoreOptions: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `NSReadOnlyPersistentStoreOption`: the store can be read, and a save with changes fails
    /// with 513 (`NSFileWriteNoPermissionError`).
    public var readOnly: Bool

    public init(readOnly: Bool = false) {
        self.readOnly = readOnly
    }

    public var description: String { readOnly ? "read-only" : "read-write" }
}

extension AttributeValue {
    /// The value as a number, for comparing numbers of different types and booleans; dates as
    /// seconds since 2001.
    var numericValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        case .date(let seconds): seconds
        default: nil
        }
    }
}
