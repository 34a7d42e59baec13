import Foundation
import Testing

/// `momlint conformance` end to end: the built binary, its output and its exit codes.
@Suite struct ConformanceCommandTests {
    @Test func aPassingRunExitsZeroAndSaysSo() throws {
        let output = try MomlintProcess.run(["conformance", "--adapter", "reference", "--filter", "deny.*"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("PASS  deny.non-empty-to-many-fails (reference)\n"))
        #expect(output.standardOutput.hasSuffix("reference: 18 scenarios: 18 passed, 0 failed\n"))
    }

    @Test func anUnexpectedPassExitsOneAndAStaleListLineIsNoted() throws {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("xfail-\(UUID().uuidString).txt")
        try "deny.empty-to-many-succeeds  # claimed broken\nno.such-scenario\n".write(to: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: list) }
        let output = try MomlintProcess.run(["conformance", "--filter", "deny.empty-*", "--expected-failures", list.path])
        #expect(output.status == 1)
        #expect(output.standardOutput.contains("XPASS deny.empty-to-many-succeeds (reference)"))
        #expect(output.standardError.contains("\(list.path):2: note: 'no.such-scenario' matches no scenario; remove it"))
    }

    @Test func jsonAndJUnitReporters() throws {
        let json = try MomlintProcess.run(["conformance", "--filter", "cascade.to-one", "--reporter", "json"])
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)

        let junit = try MomlintProcess.run(["conformance", "--filter", "cascade.to-one", "--reporter", "junit"])
        #expect(junit.status == 0)
        #expect(junit.standardOutput.contains(#"<testcase classname="conformance.reference.cascade" name="cascade.to-one""#))
    }

    @Test func wrongInputExitsTwoWithOneClearLine() throws {
        let adapter = try MomlintProcess.run(["conformance", "--adapter", "mongo"])
        #expect(adapter.status == 2)
        #expect(adapter.standardError.contains("error: unknown adapter 'mongo'; known adapters: reference"))

        let filter = try MomlintProcess.run(["conformance", "--filter", "nothing.matches"])
        #expect(filter.status == 2)
        #expect(filter.standardError.contains("error: no scenario in Fixtures/Scenarios matches 'nothing.matches'"))

        let reporter = try MomlintProcess.run(["conformance", "--reporter", "xml"])
        #expect(reporter.status == 2)
        #expect(reporter.standardError.contains("unknown reporter 'xml'; use one of: text, json, junit"))
    }

    @Test func aBrokenScenarioFileIsNamedWithItsLineAndTheRestStillRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("deny"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try String(contentsOf: MomlintProcess.packageRoot
            .appendingPathComponent("Fixtures/Scenarios/deny/empty-to-many-succeeds.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "../../Models", with: MomlintProcess.packageRoot.appendingPathComponent("Fixtures/Models").path)
        try good.write(to: directory.appendingPathComponent("deny/good.yaml"), atomically: true, encoding: .utf8)
        try good.replacingOccurrences(of: "id: deny.empty-to-many-succeeds", with: "id: deny.broken")
            .replacingOccurrences(of: "delete: sales", with: "delete: nobody")
            .write(to: directory.appendingPathComponent("deny/broken.yaml"), atomically: true, encoding: .utf8)

        let output = try MomlintProcess.run(["conformance", "--scenarios", directory.path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("deny/broken.yaml:11:"))
        #expect(output.standardError.contains("error: no object named 'nobody' has been inserted by an earlier step"))
        #expect(output.standardOutput.contains("PASS  deny.empty-to-many-succeeds"))
    }

    @Test func aReportOfAnotherScenarioDirectorySaysSoAndHowToRegenerateIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("cascade"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = MomlintProcess.packageRoot
        let scenario = try String(contentsOf: root.appendingPathComponent("Fixtures/Scenarios/cascade/to-one.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "../../Models", with: root.appendingPathComponent("Fixtures/Models").path)
        try scenario.write(to: directory.appendingPathComponent("cascade/to-one.yaml"), atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("matrix.md").path

        let written = try MomlintProcess.run(["conformance", "--scenarios", directory.path, "--write-report", report])
        #expect(written.status == 0, "\(written.standardError)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.contains("Each scenario in `\(directory.path)` run against"))
        #expect(text.contains("`momlint conformance --adapter reference --scenarios \(directory.path) --write-report \(report)`"))

        try "# stale\n".write(toFile: report, atomically: true, encoding: .utf8)
        let checked = try MomlintProcess.run(["conformance", "--scenarios", directory.path, "--check-report", report])
        #expect(checked.status == 1)
        #expect(checked.standardError.contains("error: the conformance report is stale; regenerate it and commit it: "
            + "momlint conformance --adapter reference --scenarios \(directory.path) --write-report \(report)\n"))
    }

    /// A limit past Int's range in milliseconds once trapped while being converted; infinity,
    /// NaN, zero and negative limits were refused already.
    @Test func aTimeLimitOutsideAPositiveDayIsRefused() throws {
        for limit in ["1e16", "86401", "inf", "nan", "0", "-1"] {
            let output = try MomlintProcess.run(["conformance", "--adapter", "reference", "--time-limit=\(limit)"])
            #expect(output.status == 2, "\(limit): \(output.standardError)")
            #expect(output.standardError.contains("error: --time-limit must be a positive number of seconds, at most 86400 (a day)"),
                    "\(limit): \(output.standardError)")
        }
    }

    @Test func checkReportPassesOnTheCommittedReportAndFailsOnAStaleOne() throws {
        // The committed matrix shows every adapter of the issue: the oracle and the SQLite store.
        let current = try MomlintProcess.run(["conformance", "--adapter", "reference", "--adapter", "sqlite",
                                              "--check-report", "reports/conformance.md"])
        #expect(current.status == 0, "\(current.standardError)")

        let stale = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString).md")
        try "# Conformance matrix\n".write(to: stale, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: stale) }
        let output = try MomlintProcess.run(["conformance", "--check-report", stale.path])
        #expect(output.status == 1)
        #expect(output.standardError.contains("error: the conformance report is stale; regenerate it and commit it: "
            + "momlint conformance --adapter reference --write-report \(stale.path)\n"))
    }

    /// The stale-report message's command reproduces the run: run as printed (by a shell), it
    /// writes the very matrix the check wanted, so the check then passes. It once dropped
    /// `--allow-models-under` (the command then exited 2), `--expected-failures`, `--filter`
    /// and `--time-limit`.
    @Test func theRegenerateCommandReproducesTheRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenarios '\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("deny"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = MomlintProcess.packageRoot
        // The model lives outside both the scenario folder and the shipped models: only
        // --allow-models-under lets the scenarios load.
        let models = FileManager.default.temporaryDirectory.appendingPathComponent("models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: models) }
        try FileManager.default.copyItem(at: root.appendingPathComponent("Fixtures/Models/Conformance/Company.xcdatamodeld"),
                                         to: models.appendingPathComponent("Company.xcdatamodeld"))
        for name in ["empty-to-many-succeeds", "non-empty-to-many-fails"] {
            let scenario = try String(contentsOf: root.appendingPathComponent("Fixtures/Scenarios/deny/\(name).yaml"), encoding: .utf8)
                .replacingOccurrences(of: "../../Models/Conformance", with: models.path)
                // A scenario the reference store fails, for the expected-failures list to cover.
                .replacingOccurrences(of: "values: {sales: {name: Sales}}", with: "values: {sales: {name: Marketing}}")
            try scenario.write(to: directory.appendingPathComponent("deny/\(name).yaml"), atomically: true, encoding: .utf8)
        }
        let list = directory.appendingPathComponent("expected failures.txt").path
        try "deny.non-empty-to-many-fails\n".write(toFile: list, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("matrix.md").path
        try "# stale\n".write(toFile: report, atomically: true, encoding: .utf8)
        let options = ["--scenarios", directory.path, "--allow-models-under", models.path,
                       "--expected-failures", list, "--filter", "deny.*", "--time-limit", "30"]

        let checked = try MomlintProcess.run(["conformance"] + options + ["--check-report", report])
        #expect(checked.status == 1, "\(checked.standardError)")
        let marker = "regenerate it and commit it: "
        let line = try #require(checked.standardError.split(separator: "\n").first { $0.contains(marker) })
        let command = String(line[line.range(of: marker)!.upperBound...])
        #expect(command.hasPrefix("momlint conformance --adapter reference --scenarios '"), "\(command)")
        #expect(command.contains(" --allow-models-under ") && command.contains(" --expected-failures ")
            && command.contains(" --filter 'deny.*' --time-limit 30 --write-report "), "\(command)")

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$MOMLINT\"" + command.dropFirst("momlint".count)]
        shell.environment = ["MOMLINT": try MomlintProcess.executable.path, "PATH": "/usr/bin:/bin"]
        shell.currentDirectoryURL = root
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(command)")
        let again = try MomlintProcess.run(["conformance"] + options + ["--check-report", report])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("⚠️"))
    }
}
