import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile *environments* through the real binary: special files where files are expected,
/// outputs that are links, FIFOs or full disks. docs/security.md ("Hostile environments") lists
/// each case and its behaviour.
@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct HostileEnvironmentCommandTests {
    /// Runs momlint with its standard output sent to `path` (a file or a device); returns the
    /// status and standard error.
    static func run(_ arguments: [String], in workspace: Workspace, standardOutputTo path: String)
        throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = try MomlintProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
        let output = try #require(FileHandle(forWritingAtPath: path))
        defer { try? output.close() }
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errorData, as: UTF8.self))
    }

    /// `mkdir -p m/M.xcdatamodel && ln -s FIFO m/M.xcdatamodel/contents && sleep 30 | momlint lint m`
    /// once never returned. Now: one line, exit 2, at once.
    @Test func contentsLinkedToAFIFOIsOneLine() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path + "/m/M.xcdatamodel", withIntermediateDirectories: true)
        #expect(mkfifo(workspace.path + "/fifo", 0o600) == 0)
        let writer = open(workspace.path + "/fifo", O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        try FileManager.default.createSymbolicLink(atPath: workspace.path + "/m/M.xcdatamodel/contents",
                                                   withDestinationPath: "../../fifo")
        let result = try workspace.run("lint", "m")
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("m/M.xcdatamodel/contents: error: not a regular file (a FIFO)"))
    }

    @Test func reportToASymlinkReplacesItsTargetAndKeepsTheLink() throws {
        let workspace = try Workspace()
        try workspace.write("reports/real.sarif", "old\n")
        try FileManager.default.createSymbolicLink(atPath: workspace.path + "/out.sarif", withDestinationPath: "reports/real.sarif")
        let result = try workspace.run("lint", "--reporter", "sarif:out.sarif")
        #expect(result.status == 0, "\(result.standardError)")
        let kind = try FileManager.default.attributesOfItem(atPath: workspace.path + "/out.sarif")[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        #expect(try workspace.read("reports/real.sarif").contains("\"version\": \"2.1.0\""))
    }

    @Test func baselineToAFIFOIsWrittenThroughNotReplaced() throws {
        let workspace = try Workspace()
        let fifo = workspace.path + "/baseline.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader, as `--write-baseline >(cat)` or a named pipe a CI step reads would have.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let result = try workspace.run("lint", "--write-baseline", "baseline.fifo")
        #expect(result.status == 0, "\(result.standardError)")
        var status = stat()
        lstat(fifo, &status)
        #expect(status.st_mode & S_IFMT == S_IFIFO, "the FIFO must not be replaced by a file")
        // Everything the writer left in the pipe: the same baseline a regular file receives.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while case let count = read(reader, &buffer, buffer.count), count > 0 { received += buffer.prefix(count) }
        let file = try workspace.run("lint", "--write-baseline", "baseline.json")
        #expect(file.status == 0, "\(file.standardError)")
        let expected = try #require(FileManager.default.contents(atPath: workspace.path + "/baseline.json"))
        #expect(!expected.isEmpty)
        #expect(received == Array(expected))
    }

    @Test func reportToAFIFONobodyReadsIsRefusedInWords() throws {
        let workspace = try Workspace()
        #expect(mkfifo(workspace.path + "/out.fifo", 0o600) == 0)
        let result = try workspace.run("lint", "--reporter", "json:out.fifo")
        #expect(result.status == 2)
        #expect(result.standardError.contains("out.fifo: error: cannot write the report: it is a FIFO that no process is reading"))
        #expect(!result.standardError.contains("NSCocoaErrorDomain"))
    }

    @Test func failedFileWriteSaysWhatFailedInWords() throws {
        let workspace = try Workspace()
        try workspace.write("blocker", "a file, not a folder\n")
        let result = try workspace.run("lint", "--reporter", "json:blocker/out.json")
        #expect(result.status == 2)
        #expect(result.standardError.contains("blocker/out.json: error: cannot write the report: not a directory"),
                "\(result.standardError)")
        #expect(!result.standardError.contains("NSCocoaErrorDomain"))
    }

    /// `momlint lint --reporter sarif > /dev/full` lost the report and exited 0.
    @Test func failedWriteToStandardOutputExits2() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let workspace = try Workspace()
        let result = try Self.run(["lint", "--reporter", "sarif"], in: workspace, standardOutputTo: "/dev/full")
        #expect(result.status == 2)
        #expect(result.standardError.contains("error: cannot write to standard output: no space left on device"))
        let summary = try Self.run(["lint"], in: workspace, standardOutputTo: "/dev/full")
        #expect(summary.status == 2, "the summary line on stdout is a report too")
    }

    @Test func failedWriteOfTheConformanceReportToStandardOutputExits2() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let workspace = try Workspace()
        let result = try Self.run(["conformance", "--scenarios", MomlintProcess.packageRoot.path + "/Fixtures/Scenarios",
                                   "--filter", "deny.*"],
                                  in: workspace, standardOutputTo: "/dev/full")
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("error: cannot write to standard output: no space left on device"))
    }
}

extension HostileEnvironmentCommandTests {
    @Test func failedWriteOfAGraphOrAnExportToStandardOutputExits2() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let workspace = try Workspace()
        for command in [["graph", "Library.xcdatamodeld"], ["export", "Library.xcdatamodeld"]] {
            let result = try Self.run(command, in: workspace, standardOutputTo: "/dev/full")
            #expect(result.status == 2, "\(command[0]): \(result.standardError)")
            #expect(result.standardError.contains("error: cannot write to standard output: no space left on device"))
        }
    }
}

extension HostileEnvironmentCommandTests {
    /// Every command, not only lint: `rules`, `diff`, `print` print through stdio, whose failed
    /// writes were dropped at exit (exit 0, output lost).
    @Test func failedWriteOfAnyCommandToStandardOutputExits2() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let workspace = try Workspace()
        for command in [["rules"], ["print", "Library.xcdatamodeld"], ["versions", "Library.xcdatamodeld"]] {
            let result = try Self.run(command, in: workspace, standardOutputTo: "/dev/full")
            #expect(result.status == 2, "\(command[0]): \(result.standardError)")
            #expect(result.standardError.hasPrefix("error: cannot write to standard output: "),
                    "\(command[0]): \(result.standardError)")
        }
    }

    /// `momlint lint --reporter sarif M | true` died of SIGPIPE (status 141) with no word.
    @Test func aClosedPipeIsOneLineAndExit2NotSIGPIPE() throws {
        let workspace = try Workspace()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `exec 1>&-`-like: the reader (`true`) exits at once; `sleep` makes sure it has gone
        // before momlint writes.
        process.arguments = ["-c", "(sleep 0.3; exec \"$0\" lint --reporter sarif Library.xcdatamodeld; echo \"status $?\" >&2) | true",
                             try MomlintProcess.executable.path]
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(errorText.contains("error: cannot write to standard output: broken pipe\n"), "\(errorText)")
    }

    /// `( echo before; momlint lint --reporter json:/dev/stdout; echo after ) >> log.txt` once
    /// renamed a new file over log.txt: everything else in the log was lost.
    @Test func aReportToDevStdoutIsWrittenToStandardOutputNotOverItsFile() throws {
        let workspace = try Workspace()
        let log = workspace.path + "/log.txt"
        try "PRE\n".write(toFile: log, atomically: false, encoding: .utf8)
        let before = try FileManager.default.attributesOfItem(atPath: log)[.systemFileNumber] as? Int
        for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] where FileManager.default.fileExists(atPath: name) {
            let handle = try #require(FileHandle(forWritingAtPath: log))
            try handle.seekToEnd()
            let process = Process()
            process.executableURL = try MomlintProcess.executable
            process.arguments = ["lint", "--reporter", "json:" + name, "Library.xcdatamodeld"]
            process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
            process.standardOutput = handle
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try handle.close()
            #expect(process.terminationStatus == 0, "\(name)")
        }
        let after = try FileManager.default.attributesOfItem(atPath: log)[.systemFileNumber] as? Int
        #expect(after == before, "the log file was replaced")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("PRE\n{\n  \"schemaVersion\""), "\(text.prefix(80))")
        #expect(text.components(separatedBy: "\"schemaVersion\"").count - 1 == 3, "one report per spelling, appended")
    }

    /// Two reports to one file: the second silently replaced the first (exit 0).
    @Test func twoReportsToOneFileAreRefused() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--reporter", "json:same.out", "--reporter", "junit:./same.out",
                                       "Library.xcdatamodeld")
        #expect(result.status == 2)
        #expect(result.standardError.contains("'json' and 'junit' would both write ./same.out"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path + "/same.out"))
        let stdout = try workspace.run("lint", "--reporter", "json", "--reporter", "sarif:/dev/stdout", "Library.xcdatamodeld")
        #expect(stdout.status == 2)
        #expect(stdout.standardError.contains("cannot share standard output"), "\(stdout.standardError)")
    }
}
