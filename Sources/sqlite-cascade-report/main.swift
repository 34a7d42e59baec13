import Foundation
import SQLiteCascadeBenchmark

// Runs the issue's cascade comparison once and writes reports/sqlite-cascade.md:
//   swift run -c release sqlite-cascade-report [OUTPUT] [--small]
// --small uses 1,000-object data sets, to check the script itself quickly.

let arguments = CommandLine.arguments.dropFirst()
let small = arguments.contains("--small")
let output = arguments.first { !$0.hasPrefix("--") } ?? "reports/sqlite-cascade.md"
let shapes: [CascadeShape] = small ? [.fanOut(children: 1_000), .chain(length: 1_000)] : [.issueFanOut, .issueChain]

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-cascade-\(UUID().uuidString)")
do {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    var comparisons: [CascadeComparison] = []
    for shape in shapes {
        FileHandle.standardError.write(Data("measuring \(shape)…\n".utf8))
        comparisons.append(try CascadeComparison.run(shape, in: scratch))
    }
    let report = CascadeReport(comparisons: comparisons).markdown
    try FileManager.default.createDirectory(at: URL(fileURLWithPath: output).deletingLastPathComponent(),
                                            withIntermediateDirectories: true)
    try report.write(toFile: output, atomically: true, encoding: .utf8)
    print(report, terminator: "")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}
