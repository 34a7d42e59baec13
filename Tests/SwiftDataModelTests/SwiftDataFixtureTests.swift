import DataModel
import Foundation
import Linting
import SwiftDataModel
import Testing

/// `Fixtures/SwiftData`: a trip planner with one planted mistake per file (`App`) and the same
/// app corrected (`CleanApp`), linted as `momlint lint --swiftdata` lints them.
@Suite struct SwiftDataFixtureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/SwiftData")

    private func lint(_ folder: String) -> LintRun {
        var run = LintRun(reports: [], loadFailures: [], notes: [])
        run.lintSwiftData(in: [Self.root.appendingPathComponent(folder).path], engine: LintEngine())
        return run
    }

    /// `rule file:line:column`, the file relative to the app's folder.
    private func lines(_ run: LintRun, in folder: String) -> [String] {
        let prefix = Self.root.appendingPathComponent(folder).path + "/"
        return run.findings.map { finding in
            let file = finding.location.file.hasPrefix(prefix)
                ? String(finding.location.file.dropFirst(prefix.count)) : finding.location.file
            return "\(finding.ruleID) \(file):\(finding.location.line):\(finding.location.column)"
        }
    }

    @Test func eachPlantedMistakeIsReportedAtItsSwiftLineAndColumn() throws {
        let run = lint("App")
        #expect(run.loadFailures.isEmpty, "\(run.loadFailures)")
        #expect(run.reports.count == 1)
        #expect(run.reports.first?.model.origin == .swiftData)
        #expect(run.reports.first?.model.usedWithCloudKit == true)
        #expect(Set(lines(run, in: "App")) == [
            "cloudkit_required_attribute Booking.swift:7:9",
            "no_action_delete_rule Checklist.swift:10:9",
            "cloudkit_deny_rule Folder.swift:10:9",
            "unsigned_integer_attribute Luggage.swift:8:9",
            "reserved_name Note.swift:8:9",
            "missing_inverse Route.swift:9:9",
            "cloudkit_missing_inverse Route.swift:9:9",
            "missing_inverse Route.swift:10:9",
            "cloudkit_missing_inverse Route.swift:10:9",
            "cloudkit_required_relationship Ticket.swift:21:9",
            "missing_inverse Traveler.swift:10:9",
            "cloudkit_missing_inverse Traveler.swift:10:9",
            "cloudkit_unique_constraint Voucher.swift:7:29",
        ])
        #expect(run.findings.count == 13)
    }

    @Test func theCorrectedAppIsSilent() throws {
        let run = lint("CleanApp")
        #expect(run.loadFailures.isEmpty, "\(run.loadFailures)")
        #expect(run.notes.isEmpty, "\(run.notes)")
        #expect(run.reports.count == 1)
        #expect(run.findings.isEmpty, "\(lines(run, in: "CleanApp"))")
    }

    @Test func theSuppressedOneWayLinkIsReallyOneWay() throws {
        // LegacyImport.importedTrip has no inverse; only its disable comment keeps it silent.
        let run = lint("App")
        let model = try #require(run.reports.first?.model)
        let legacy = try #require(model.entity(named: "LegacyImport"))
        #expect(legacy.relationships.first?.inverseName == nil)
        #expect(legacy.relationships.first?.userInfo[Suppressions.userInfoKey] == "missing_inverse, cloudkit_missing_inverse")
    }
}
