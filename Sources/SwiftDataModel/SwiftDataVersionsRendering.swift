import DataModel
import Foundation
import Linting
import ModelDiff
import VersionHashes

/// `momlint versions --swiftdata DIR`: a folder's versions in migration order, with each
/// version's identifier and digest, and each stage of the plan with its verdict, as text or JSON.
public enum SwiftDataVersionsRendering {
    public static func table(_ versions: SwiftDataVersions) -> String {
        let ordered = versions.ordered
        let plan = versions.plan
        var text = "\(versions.folder) (\(ordered.count) VersionedSchema\(ordered.count == 1 ? "" : "s"), "
            + (plan?.schemas != nil ? "in the order of '\(plan!.name).schemas'" : "by versionIdentifier or name") + ")\n"
        let width = max(7, ordered.map(\.name.count).max() ?? 0)
        text += "  " + "version".padding(toLength: width, withPad: " ", startingAt: 0) + "  identifier  digest    models\n"
        for version in ordered {
            let name = version.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let identifier = (version.identifierText ?? "-").padding(toLength: 10, withPad: " ", startingAt: 0)
            let digest = (version.isComplete ? version.hashes.digest?.short ?? "-" : "-").padding(toLength: 8, withPad: " ", startingAt: 0)
            var models = version.model.entities.map(\.name).joined(separator: ", ")
            let live = version.liveClasses.map(\.name)
            if !live.isEmpty { models += " (live: \(live.joined(separator: ", ")))" }
            if !version.isComplete { models += " (incomplete: models names classes these sources do not declare)" }
            text += "  \(name)  \(identifier)  \(digest)  \(models)\n"
        }
        for group in identicalGroups(versions) {
            text += "identical to Core Data: \(group.map { "'\($0)'" }.joined(separator: ", ")) (equal digests)\n"
        }
        guard let plan else { return text + "no SchemaMigrationPlan\n" }
        guard let stages = plan.stages else { return text + "stages of '\(plan.name)': cannot be read without running the code\n" }
        text += "stages of '\(plan.name)':\n"
        if stages.isEmpty { text += "  none\n" }
        for stage in stages {
            text += "  \(stage.kind.rawValue) \(stage.from?.name ?? "?") → \(stage.to?.name ?? "?"): \(verdict(of: stage, in: versions))\n"
        }
        return text
    }

    /// One line: the stage's diff summary and, when it fails, why.
    public static func verdict(of stage: SwiftDataVersions.Stage, in versions: SwiftDataVersions) -> String {
        guard let judged = MigrationStageNotInferableRule.judge(stage, in: versions) else {
            return "not compared (a version it names is not a complete VersionedSchema of these sources)"
        }
        if judged.failures.isEmpty {
            return DiffRendering.summary(judged.diff).replacingOccurrences(of: ", fails (134110) for stored rows without a value for a required attribute", with: "")
        }
        return "fails: " + judged.failures.map { "\($0.change.details) (\($0.why.split(separator: ";").first ?? ""))" }
            .joined(separator: "; ")
    }

    /// Complete versions with equal digests, in migration order, each group of two or more.
    public static func identicalGroups(_ versions: SwiftDataVersions) -> [[String]] {
        ModelVersionHashes.identicalGroups(versions.ordered.filter(\.isComplete).map { ($0.name, $0.hashes) })
    }

    private struct Document: Encodable {
        struct Version: Encodable {
            var name: String
            var versionIdentifier: String?
            var versionHashesDigest: String?
            var versionHashes: [String: String]
            var models: [String]
            var liveModels: [String]
            var complete: Bool
            var latest: Bool
        }
        struct Stage: Encodable {
            var kind: String
            var from: String?
            var to: String?
            var verdict: String
            var fails: Bool
        }
        var folder: String
        var plan: String?
        var latest: String?
        var versions: [Version]
        var stages: [Stage]?
        var identical: [[String]]
    }

    public static func json(_ versions: SwiftDataVersions) throws -> Data {
        let latest = versions.latest?.name
        let document = Document(
            folder: versions.folder, plan: versions.plan?.name, latest: latest,
            versions: versions.ordered.map { version in
                Document.Version(
                    name: version.name, versionIdentifier: version.identifierText,
                    versionHashesDigest: version.isComplete ? version.hashes.digest?.base64 : nil,
                    versionHashes: version.hashes.entityHashesByName.mapValues(\.base64),
                    models: version.model.entities.map(\.name), liveModels: version.liveClasses.map(\.name),
                    complete: version.isComplete, latest: version.name == latest)
            },
            stages: versions.plan?.stages?.map { stage in
                Document.Stage(kind: stage.kind.rawValue, from: stage.from?.name, to: stage.to?.name,
                               verdict: verdict(of: stage, in: versions),
                               fails: !(MigrationStageNotInferableRule.judge(stage, in: versions)?.failures.isEmpty ?? true))
            },
            identical: identicalGroups(versions))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }

    /// `momlint diff --swiftdata DIR V1 V2`: the diff between two versions of the folder, or
    /// why it cannot be made.
    public static func diff(in versions: SwiftDataVersions, from older: String, to newer: String) -> Result<SchemaDiff, DiffFailure> {
        let names = versions.ordered.map { "'\($0.name)'" }.joined(separator: ", ")
        guard let from = versions.version(named: older) else {
            return .failure(DiffFailure(description: "no VersionedSchema named '\(older)' in \(versions.folder) (it has \(names))"))
        }
        guard let to = versions.version(named: newer) else {
            return .failure(DiffFailure(description: "no VersionedSchema named '\(newer)' in \(versions.folder) (it has \(names))"))
        }
        return .success(versions.diff(from: from, to: to))
    }

    public struct DiffFailure: Error, CustomStringConvertible {
        public var description: String
    }
}
