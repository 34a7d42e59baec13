import Foundation
import Linting
import SafeFiles

/// Runs every requested reporter over one run and sends each report where it belongs: files
/// are written whole (their folders created; see `OutputFileWriter` for links, FIFOs and
/// devices), standard output gets the reports meant for it
/// in the order they were asked for.
public struct ReportWriter {
    public var destinations: [ReporterDestination]

    public init(destinations: [ReporterDestination]) {
        self.destinations = destinations.isEmpty ? [ReporterDestination(reporter: ReporterCatalogue.defaultReporter)]
                                                 : destinations
    }

    /// The writer for `destinations`, refusing a whole-document report (JSON, SARIF, JUnit)
    /// that would share standard output with another: concatenated, neither could be parsed.
    /// Refuses as well two reports aimed at one file under any spelling (the second would
    /// replace the first).
    public init(checking destinations: [ReporterDestination]) throws(ReporterDestinationError) {
        let onStandardOutput = destinations.filter(\.writesToStandardOutput)
        let names = onStandardOutput.map { $0.reporter.name }
        let documents = onStandardOutput.filter { $0.reporter.isWholeDocument }.map { $0.reporter.name }
        if names.count > 1, let document = documents.first {
            var others: [String] = []
            for name in names where name != document && !others.contains(name) { others.append(name) }
            throw .sharedStandardOutput(document: document, others: others)
        }
        var firstByIdentity: [String: ReporterDestination] = [:]
        for destination in destinations where !destination.writesToStandardOutput {
            guard let file = destination.file else { continue }
            let identity = OutputFileWriter.destinationIdentity(of: file)
            // Any other descriptor (standard error, /dev/fd/3) is written through in order, like a pipe.
            guard !identity.hasPrefix("descriptor ") else { continue }
            if let first = firstByIdentity[identity] {
                throw .sharedFile(path: file, reporters: [first.reporter.name, destination.reporter.name])
            }
            firstByIdentity[identity] = destination
        }
        self.init(destinations: destinations)
    }

    /// True when some report goes to standard output; otherwise the terminal gets only the summary line.
    public var writesToStandardOutput: Bool { destinations.contains(where: \.writesToStandardOutput) }

    /// True when a report on standard output already ends with the totals.
    public var printsTotals: Bool { destinations.contains { $0.writesToStandardOutput && $0.reporter.endsWithTotals } }

    /// Writes the file reports and returns the text for standard output.
    public func write(_ run: LintRun, context: ReportContext) throws(ReportWriteError) -> String {
        var standardOutput = ""
        for destination in destinations {
            let report = destination.reporter.report(run, context: context)
            guard let file = destination.file, !destination.writesToStandardOutput else {
                standardOutput += report
                continue
            }
            do {
                // A regular file is replaced whole; a symlink, FIFO or device is never replaced.
                try OutputFileWriter.write(Array(report.utf8), toPath: file)
            } catch {
                throw ReportWriteError(path: file, reason: error.reason)
            }
        }
        return standardOutput
    }
}

public struct ReportWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): error: cannot write the report: \(reason)" }
}
