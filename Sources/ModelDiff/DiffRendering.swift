import DataModel
import Foundation

/// `momlint diff` output: text for a terminal, JSON (docs/schemas/model-diff.schema.json) and
/// Markdown for a pull-request comment. Pure functions of the diff.
public enum DiffRendering {
    public static let schemaVersion = 1

    public static func text(_ diff: SchemaDiff) -> String {
        var text = "\(diff.olderVersionName.quotedName) → \(diff.newerVersionName.quotedName): \(summary(diff))\n"
        for change in diff.changes {
            text += "  \(symbol(change.kind)) \(change.details)  [\(flags(change).joined(separator: ", "))]\n"
        }
        return text
    }

    public static func markdown(_ diff: SchemaDiff) -> String {
        var text = "### Core Data model \(diff.olderVersionName.quotedName) → \(diff.newerVersionName.quotedName)\n\n"
        text += "**\(summary(diff).prefix(1).uppercased() + summary(diff).dropFirst())**\n\n"
        guard !diff.changes.isEmpty else { return text }
        text += "| | Change | Version hash | Lightweight | Data loss |\n| --- | --- | --- | --- | --- |\n"
        for change in diff.changes {
            let details = change.details.replacingOccurrences(of: "|", with: "\\|")
            let lightweight = change.lightweight ? "yes" : "**no**"
            let fails = change.failsWhen.map { "; **fails (134110)** for \(failingRows($0))" } ?? ""
            text += "| \(symbol(change.kind)) | \(details) | \(change.hashChanging ? "changes" : "same") | "
                + "\(lightweight)\(fails) | \(change.dataLoss ? "**yes**" : "no") |\n"
        }
        return text
    }

    /// The JSON document; `older`/`newer` are the files compared.
    public static func json(_ diff: SchemaDiff, olderFile: String, newerFile: String) throws -> Data {
        let document = DiffDocument(
            schemaVersion: schemaVersion,
            older: .init(version: diff.olderVersionName, file: olderFile),
            newer: .init(version: diff.newerVersionName, file: newerFile),
            verdict: diff.verdict.rawValue, lightweight: diff.isLightweight, needsMigration: diff.needsMigration,
            dataLoss: diff.losesData, mayFail: diff.mayFail, hasMappingModel: diff.hasMappingModel,
            changes: diff.changes.map { change in
                DiffDocument.Change(
                    kind: change.kind.rawValue, element: change.element.rawValue, entity: change.entityName,
                    property: change.propertyName, name: change.isPropertyChange ? nil : change.elementName,
                    oldName: change.oldName, aspect: change.aspect?.rawValue, oldValue: change.oldValue,
                    newValue: change.newValue, details: change.details, dataLoss: change.dataLoss,
                    hashChanging: change.hashChanging, lightweight: change.lightweight,
                    altersStoredValuesUnhashed: change.altersStoredValuesUnhashed,
                    failsWhen: change.failsWhen?.rawValue, sources: change.sources.map(\.url))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }

    /// `momlint diff BUNDLE --migration-path`: every migration of the path whose versions both
    /// read, oldest first, each as one diff is rendered, one after the other.
    public static func text(_ migrations: [BundleVersions.Migration]) -> String {
        migrations.compactMap(\.diff).map(text).joined(separator: "\n")
    }

    public static func markdown(_ migrations: [BundleVersions.Migration]) -> String {
        migrations.compactMap(\.diff).map(markdown).joined(separator: "\n")
    }

    /// An array of the documents `json(_:olderFile:newerFile:)` writes, one per line of the
    /// array as each is encoded, ending in a newline.
    public static func json(_ migrations: [BundleVersions.Migration]) throws -> Data {
        let documents = try migrations.compactMap { migration -> Data? in
            guard let diff = migration.diff, let older = migration.older.model, let newer = migration.newer.model else { return nil }
            let document = try json(diff, olderFile: older.file, newerFile: newer.file)
            return document.last == UInt8(ascii: "\n") ? document.dropLast() : document
        }
        return Data("[\n".utf8) + documents.joined(separator: Data(",\n".utf8)) + Data((documents.isEmpty ? "]\n" : "\n]\n").utf8)
    }

    /// Why a migration of a path was not compared (a version of it cannot be read); nil when it was.
    public static func notCompared(_ migration: BundleVersions.Migration) -> String? {
        guard migration.diff == nil, let unreadable = migration.unreadable else { return nil }
        return "\(unreadable.error.path): note: migration from '\(migration.older.name)' to '\(migration.newer.name)' not compared: "
            + "'\(unreadable.name)' cannot be read: \(unreadable.error.problem)"
    }

    /// One line: the verdict and what it rests on.
    public static func summary(_ diff: SchemaDiff) -> String {
        let count = diff.changes.count == 1 ? "1 change" : "\(diff.changes.count) changes"
        let verdict: String = switch diff.verdict {
        case .noMigration: diff.changes.isEmpty ? "no changes" : "no migration needed (\(count), no version hash changes)"
        case .lightweight: "lightweight migration (\(count))"
        case .mappingModel: "needs the mapping model found for this pair (\(count))"
        case .notInferable: "not inferable: lightweight migration fails with 134140 (\(count))"
        }
        // Inferable, but the migration itself fails (134110) on a stored row with no value for a
        // required attribute that has no default (migration_required_without_default).
        let fails = diff.mayFail ? ", fails (134110) for stored rows without a value for a required attribute" : ""
        return verdict + fails + (diff.losesData ? ", loses data" : "")
    }

    /// The rows a `failsWhen` names, in words.
    static func failingRows(_ failure: SchemaChange.MissingValueFailure) -> String {
        switch failure {
        case .everyRow: "every existing row"
        case .rowsWithoutValue: "rows without a value"
        }
    }

    private static func symbol(_ kind: SchemaChange.Kind) -> String {
        switch kind {
        case .added: "+"
        case .removed: "-"
        case .renamed: ">"
        case .changed: "~"
        }
    }

    private static func flags(_ change: SchemaChange) -> [String] {
        var flags = [change.hashChanging ? "hash changes" : "same hash"]
        flags.append(change.lightweight ? "lightweight" : "NOT INFERABLE")
        if let failure = change.failsWhen { flags.append("FAILS (134110) for \(failingRows(failure))") }
        if change.dataLoss { flags.append("DATA LOSS") }
        if change.altersStoredValuesUnhashed { flags.append("unhashed") }
        return flags
    }
}

private extension String {
    var quotedName: String { "'\(self)'" }
}

/// The JSON form of a diff; docs/schemas/model-diff.schema.json describes it.
struct DiffDocument: Encodable {
    struct Side: Encodable {
        var version: String
        var file: String
    }

    struct Change: Encodable {
        var kind: String
        var element: String
        var entity: String
        var property: String?
        var name: String?
        var oldName: String?
        var aspect: String?
        var oldValue: String?
        var newValue: String?
        var details: String
        var dataLoss: Bool
        var hashChanging: Bool
        var lightweight: Bool
        var altersStoredValuesUnhashed: Bool
        var failsWhen: String?
        var sources: [String]
    }

    var schemaVersion: Int
    var older: Side
    var newer: Side
    var verdict: String
    var lightweight: Bool
    var needsMigration: Bool
    var dataLoss: Bool
    var mayFail: Bool
    var hasMappingModel: Bool
    var changes: [Change]
}
