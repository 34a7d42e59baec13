import Foundation
import SQLiteCascadeBenchmark

// Runs the issue's cascade comparison once and writes reports/sqlite-cascade.md:
//   swift run -c release sqlite-cascade-report [OUTPUT] [--fan-out N] [--chain N]
// The sizes default to the issue's (100,000 children, a 1,000,000-node chain); smaller ones
// check the script quickly or profile one shape.

var fanOut = CascadeShape.issueFanOut.objectCount - 1
var chain = CascadeShape.issueChain.objectCount
var output = "reports/sqlite-cascade.md"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--fan-out", "--chain":
        guard let size = arguments.popFirst().flatMap(Int.init), size >= 0 else {
            FileHandle.standardError.write(Data("error: \(argument) needs a number of objects\n".utf8))
            exit(2)
        }
        if argument == "--fan-out" { fanOut = size } else { chain = size }
    default:
        output = argument
    }
}
let shapes = [CascadeShape.fanOut(children: fanOut), .chain(length: chain)].filter { $0.objectCount > 1 }

/// The core count and the load when the run starts, for the report.
func machineDescription() -> String {
    var text = "\(ProcessInfo.processInfo.activeProcessorCount) cores"
    if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first {
        text += ", load average \(load) at the start"
    }
    return text
}

let machine = machineDescription()
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-cascade-\(UUID().uuidString)")
do {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    var comparisons: [CascadeComparison] = []
    for shape in shapes {
        FileHandle.standardError.write(Data("measuring \(shape)…\n".utf8))
        comparisons.append(try CascadeComparison.run(shape, in: scratch))
    }
    let report = CascadeReport(comparisons: comparisons, machine: machine).markdown
    try FileManager.default.createDirectory(at: URL(fileURLWithPath: output).deletingLastPathComponent(),
                                            withIntermediateDirectories: true)
    try report.write(toFile: output, atomically: true, encoding: .utf8)
    print(report, terminator: "")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}
