import DataModel
import Linting

/// One fuzz input is one `contents` file: it is loaded as a model and, when it loads,
/// linted by every rule in the catalogue. A load error is a correct outcome; only a crash,
/// a sanitizer report, a leak or a hang (libFuzzer's `-timeout`) is a finding.
///
/// Exported under libFuzzer's conventional name too: libFuzzer's own (unused) `main`
/// refers to it, and the linker needs every reference resolved.
@_cdecl("LLVMFuzzerTestOneInput")
public func loadAndLint(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let model = try? ModelLoader().model(fromContents: bytes, file: "fuzz/contents") else { return 0 }
    let findings = LintEngine().lint(model)
    // Render every finding as the report line does, so message building runs too, and hold
    // each to what every reporter relies on: a message and a place in the fuzzed file.
    for finding in findings {
        let line = "\(finding.location): \(finding.severity.rawValue): \(finding.message) (\(finding.ruleID))"
        precondition(!finding.message.isEmpty, "empty message: \(line)")
        precondition(finding.location.file == "fuzz/contents" && finding.location.line >= 1, "bad location: \(line)")
    }
    return 0
}
