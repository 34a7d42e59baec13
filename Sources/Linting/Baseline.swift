import Foundation
import SafeFiles

/// Findings recorded on purpose, so a project with an existing model can adopt momlint and
/// see only what is new (`--write-baseline FILE`, then `--baseline FILE`).
///
/// An entry is identified by rule, model file (relative to the baseline's folder), entity and
/// property; never by line, so editing other parts of the model keeps the baseline valid.
/// Findings about the model as a whole (no entity) are identified by their message too.
/// Entries count: two recorded findings with one identity silence at most two findings.
public struct Baseline: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable, Comparable {
        public var rule: String
        /// The model's `contents` file, relative to the folder holding the baseline file.
        public var file: String
        public var entity: String?
        public var property: String?
        /// What the finding said when it was recorded: for people reading the file, and the
        /// identity of findings that name no entity.
        public var message: String

        fileprivate var identity: [String?] {
            [rule, file, entity, property, entity == nil ? message : nil]
        }

        public static func < (lhs: Entry, rhs: Entry) -> Bool {
            let left = lhs.identity.map { $0 ?? "" } + [lhs.message]
            let right = rhs.identity.map { $0 ?? "" } + [rhs.message]
            return left.lexicographicallyPrecedes(right)
        }
    }

    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var findings: [Entry]

    /// A baseline of `findings`, to be stored in `folder`.
    public init(recording findings: [Finding], folder: String) {
        schemaVersion = Self.currentSchemaVersion
        self.findings = findings.map { Self.entry(for: $0, folder: folder) }.sorted()
    }

    /// The findings this baseline does not account for, in their original order.
    public func newFindings(among findings: [Finding], folder: String) -> [Finding] {
        zip(findings, isNew(findings, folder: folder)).filter(\.1).map(\.0)
    }

    /// For each finding, whether the baseline leaves it unaccounted for. Earlier findings use
    /// up matching entries first.
    public func isNew(_ findings: [Finding], folder: String) -> [Bool] {
        var remaining: [[String?]: Int] = [:]
        for entry in self.findings { remaining[entry.identity, default: 0] += 1 }
        return findings.map { finding in
            let identity = Self.entry(for: finding, folder: folder).identity
            guard let count = remaining[identity], count > 0 else { return true }
            remaining[identity] = count - 1
            return false
        }
    }

    private static func entry(for finding: Finding, folder: String) -> Entry {
        Entry(rule: finding.ruleID, file: FilePaths.relative(FilePaths.resolved(finding.location.file), to: FilePaths.resolved(folder)),
              entity: finding.entityName, property: finding.propertyName, message: finding.message)
    }

    // MARK: Files

    /// Pretty, key-sorted JSON ending in a newline, so a baseline diffs well under version control.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and integers cannot fail.
        return (try! encoder.encode(self)) + Data("\n".utf8)
    }

    /// The largest baseline read: a few hundred bytes per finding, so room for about 100,000.
    public static let maximumFileBytes = 64 << 20

    public static func read(from path: String) throws(BaselineError) -> Baseline {
        let data: Data
        do {
            // Regular files only: a baseline committed as a symlink to a FIFO must not hang the lint.
            data = try Data(RegularFileReader.bytes(atPath: path, limit: maximumFileBytes))
        } catch {
            if case .system(ENOENT) = error.problem {
                throw BaselineError(path: path, problem: "no such baseline file; create one with --write-baseline")
            }
            throw BaselineError(path: path, problem: "cannot read the baseline: \(error.reason)")
        }
        let baseline: Baseline
        do {
            baseline = try JSONDecoder().decode(Baseline.self, from: data)
        } catch {
            throw BaselineError(path: path, problem: "not a momlint baseline (\(Self.describe(error)))")
        }
        guard baseline.schemaVersion == currentSchemaVersion else {
            throw BaselineError(path: path, problem: "baseline schemaVersion \(baseline.schemaVersion) is not supported "
                                + "(this momlint reads \(currentSchemaVersion)); write it again with --write-baseline")
        }
        return baseline
    }

    /// Writes the baseline, creating its folder as reporters do for their files: a regular file
    /// is replaced whole, a link or a device never replaced (`OutputFileWriter`).
    public func write(to path: String) throws(BaselineError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BaselineError(path: path, problem: "cannot create the folder '\(folder.path)' for the baseline")
        }
        do {
            try OutputFileWriter.write(Array(encoded()), toPath: path)
        } catch {
            throw BaselineError(path: path, problem: "cannot write the baseline: \(error.reason)")
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted: "invalid JSON"
        default: "\(error)"
        }
    }
}

/// A baseline file that cannot be read or written.
public struct BaselineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): error: \(problem)" }
}
