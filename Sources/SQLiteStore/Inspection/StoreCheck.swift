import DataModel
import Foundation
import ModelDiff
import VersionHashes

/// What an app does when it opens a store with its bundle's current version (`momlint store
/// check`), predicted as Core Data decides it:
///
/// 1. The store's metadata hashes (`NSStoreModelVersionHashes`) equal the current version's:
///    it opens as it is.
/// 2. They equal another bundled version's: with lightweight migration on, Core Data migrates
///    from that version, and the pair's `SchemaDiff` verdict says how (inferred; with the
///    mapping model found; not inferable, 134140; or failing on stored rows, 134110).
/// 3. No bundled version hashes like the store: 134130
///    (`NSMigrationMissingSourceModelError`, "Can't find model for source store"); the closest
///    version and the entities whose hashes differ are named.
///
/// A store whose metadata holds no version hashes is matched by structure instead, and the
/// result says so.
public struct StoreCheck: Sendable {
    public enum Outcome: String, Sendable, Codable {
        /// The current version hashes like the store: no migration.
        case opens
        /// Another version wrote it and the migration to the current one succeeds.
        case migrates
        /// Opening it with the current version fails.
        case fails
    }

    public var outcome: Outcome
    /// The store's path and what it says of itself (`StoreFileDescription.summary`).
    public var storePath: String
    public var storeSummary: String
    public var bundlePath: String
    /// Core Data's error code when it fails: 134130, 134140 or 134110.
    public var errorCode: Int?
    public var method: StoreVersionMatch.Method
    /// The version that wrote the store (its hashes equal the store's), if any.
    public var storeVersion: String?
    /// Other versions with the same hashes (Core Data cannot tell them apart).
    public var identicalVersions: [String]
    public var currentVersion: String
    /// For `migrates` and for 134140/134110: the diff from `storeVersion` to the current version.
    public var migration: SchemaDiff?
    /// The mapping model that covers the pair, when one was found.
    public var mappingModel: String?
    /// For 134130: the version whose hashes differ from the store's in the fewest entities.
    public var closestVersion: String?
    /// For 134130: how the closest version's hashes differ from the store's.
    public var differingEntities: [StoreHashIdentity.EntityDifference] = []
    /// How the closest version's layout differs from the file's, when no version matches.
    public var structuralDifferences: [String] = []
    /// Entities with stored rows whose migration fails (a required attribute added without a
    /// default, `SchemaChange.failsWhen == .everyRow`); and attributes that fail only on rows
    /// holding nil (`rowsWithoutValue`), which a check of the file cannot rule out.
    public var failingEntities: [String] = []
    public var attributesThatMayFail: [String] = []

    /// One line for people, lowercase after the version names, saying what the app does.
    public var summary: String {
        let method = self.method == .structure
            ? " (matched by structure: the store's metadata holds no version hashes)" : ""
        switch outcome {
        case .opens:
            return "opens with the current version '\(currentVersion)' as it is: every entity hash matches\(method)"
        case .migrates:
            // The mapping model decides when the inferred mapping could not make the pair, or would
            // lose data or fail on it (`SchemaDiff.dependsOnMappingModel`).
            let how = migration.map { $0.hasMappingModel && $0.dependsOnMappingModel } == true
                ? "with the mapping model \(mappingModel.map { "'\($0)'" } ?? "found for this pair")"
                : "by lightweight migration (inferred mapping)"
            let caution = attributesThatMayFail.isEmpty ? ""
                : "; fails (134110) if a row holds no value for \(attributesThatMayFail.map { "'\($0)'" }.joined(separator: ", "))"
            return "migrates from '\(storeVersion ?? "?")' to the current version '\(currentVersion)' \(how)\(caution)\(method)"
        case .fails:
            switch errorCode {
            case 134130?:
                let closest = closestVersion.map { " closest is '\($0)'" } ?? ""
                let entities = differingEntities.map(\.description)
                let listed = entities.prefix(5).joined(separator: "; ") + (entities.count > 5 ? "; and \(entities.count - 5) more" : "")
                let layout = structuralDifferences.isEmpty ? " (it has the store's tables and columns)"
                    : " (its layout differs from the store's in \(structuralDifferences.count) way\(structuralDifferences.count == 1 ? "" : "s"))"
                return "fails with 134130: no version in the bundle hashes like the store (it was written by a version "
                    + "edited since, or by one the bundle no longer has);\(closest)\(closestVersion == nil ? "" : layout)"
                    + "\(entities.isEmpty ? "" : ": \(listed)")"
            case 134140?:
                let blocking = migration?.changes.first { !$0.lightweight }?.details ?? "a change"
                return "fails with 134140: '\(storeVersion ?? "?")' → '\(currentVersion)' cannot be inferred (\(blocking)) "
                    + "and no mapping model covers the pair\(method)"
            case 134110?:
                return "fails with 134110: migrating from '\(storeVersion ?? "?")' to '\(currentVersion)' needs a value for a "
                    + "required attribute added without a default, and \(failingEntities.map { "'\($0)'" }.joined(separator: ", ")) "
                    + "\(failingEntities.count == 1 ? "has" : "have") stored rows\(method)"
            default:
                let closest = closestVersion.map { "; closest is '\($0)'" } ?? ""
                return "fails: no version of the bundle has this store's layout\(method)\(closest)"
            }
        }
    }

    /// `hashes` are the bundle's versions' (computed otherwise); `mappings` the mapping models
    /// found near the bundle.
    public init(file: StoreFileDescription, bundle: BundleVersions, hashes: BundleVersionHashes? = nil,
                mappings: MappingModels = MappingModels()) {
        let hashes = hashes ?? BundleVersionHashes(bundle)
        storePath = file.path
        storeSummary = file.summary
        bundlePath = bundle.bundlePath
        let versions = bundle.versions
        let match = StoreVersionMatch(file: file, versions: versions,
                                      hashes: versions.map { model in
                                          hashes.hashes(ofVersion: model.version.name) ?? VersionHasher.hashes(of: model)
                                      })
        method = match.method
        let currentVersion = bundle.current.version.name
        self.currentVersion = currentVersion
        let matching = match.matches.map(\.model)
        // The current version first: Core Data tries the model it was given before looking for a source.
        let writer = matching.first { $0.version.name == currentVersion } ?? matching.first
        storeVersion = writer?.version.name
        identicalVersions = matching.map(\.version.name).filter { $0 != writer?.version.name }
        guard let writer else {
            outcome = .fails
            let closest = match.candidates.first
            closestVersion = closest?.model.version.name
            if method == .versionHashes {
                errorCode = 134130
                differingEntities = closest?.entityDifferences ?? []
                structuralDifferences = closest?.layoutDifferences ?? []
            } else {
                structuralDifferences = closest?.differences ?? []
            }
            return
        }
        if writer.version.name == currentVersion {
            outcome = .opens
            return
        }
        let bundleName = (bundle.bundlePath as NSString).lastPathComponent
        let diff = SchemaDiff(from: writer, to: bundle.current,
                              hasMappingModel: mappings.covers(from: writer.version.name, to: currentVersion, inBundle: bundleName),
                              olderHashes: hashes.hashes(ofVersion: writer.version.name),
                              newerHashes: hashes.hashes(ofVersion: currentVersion))
        migration = diff
        if diff.hasMappingModel {
            mappingModel = mappings.mappingModel(from: writer.version.name, to: currentVersion, inBundle: bundleName)
        }
        switch diff.failure {
        case .notInferable?:
            outcome = .fails
            errorCode = 134140
            return
        case nil:
            // Nothing fails, or the developer's mapping model decides what each row becomes.
            outcome = .migrates
            return
        case .missingRequiredValue?:
            break
        }
        // A required attribute added without a default fails on every row of its entity (and
        // of its sub-entities, whose rows hold it): known from the file's row counts, by the
        // entity numbers the writing version gives (Z_PRIMARYKEY's names may be older ones).
        let writerSchema = try? StoreSchema(model: writer)
        func storedRows(ofNewerEntity name: String) -> Int {
            let older = diff.changes.first { $0.kind == .renamed && $0.element == .entity && $0.entityName == name }?.oldName ?? name
            guard let number = writerSchema?.entity(named: older).map({ $0.index + 1 }) else { return 0 }
            return file.rowCounts[number] ?? 0
        }
        for change in diff.changes {
            guard let failure = change.failsWhen else { continue }
            let attribute = "\(change.entityName).\(change.elementName ?? "")"
            switch failure {
            case .everyRow:
                let affected = [change.entityName]
                    + (bundle.current.entity(named: change.entityName).map { bundle.current.allSubentities(of: $0).map(\.name) } ?? [])
                if affected.contains(where: { storedRows(ofNewerEntity: $0) > 0 }), !failingEntities.contains(change.entityName) {
                    failingEntities.append(change.entityName)
                }
            case .rowsWithoutValue:
                attributesThatMayFail.append(attribute)
            }
        }
        outcome = failingEntities.isEmpty ? .migrates : .fails
        errorCode = failingEntities.isEmpty ? nil : 134110
    }
}

extension StoreCheck {
    /// `momlint store check`'s text: what the store is, what the app does with it, the other
    /// versions that hash like it and the first layout differences.
    public var text: String {
        let shownFile = PrintableText.bounded(storePath, limit: 1_000)
        var text = "\(shownFile): \(storeSummary)\n\(shownFile): \(summary)\n"
        if !identicalVersions.isEmpty {
            text += "note: \(identicalVersions.map { "'\($0)'" }.joined(separator: ", ")) hash\(identicalVersions.count == 1 ? "es" : "") like it too\n"
        }
        for difference in structuralDifferences.prefix(5) { text += "  - layout: \(difference)\n" }
        return text
    }

    /// `momlint store check --format json`: the document its help describes, ending in a newline.
    public func json() throws -> Data {
        let document = Document(
            store: storePath, bundle: bundlePath, outcome: outcome.rawValue, errorCode: errorCode,
            identifiedBy: method.rawValue, storeVersion: storeVersion, identicalVersions: identicalVersions,
            currentVersion: currentVersion, verdict: migration?.verdict.rawValue, mappingModel: mappingModel,
            closestVersion: closestVersion,
            differingEntities: differingEntities.map {
                .init(entity: $0.entity, store: $0.storeHash?.base64, version: $0.versionHash?.base64)
            },
            summary: summary)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }

    private struct Document: Encodable {
        struct Difference: Encodable {
            var entity: String
            var store: String?
            var version: String?
        }
        var schemaVersion = 1
        var store: String
        var bundle: String
        var outcome: String
        var errorCode: Int?
        var identifiedBy: String
        var storeVersion: String?
        var identicalVersions: [String]
        var currentVersion: String
        var verdict: String?
        var mappingModel: String?
        var closestVersion: String?
        var differingEntities: [Difference]
        var summary: String
    }
}
