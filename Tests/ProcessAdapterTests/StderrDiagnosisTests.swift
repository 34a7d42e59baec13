@testable import ProcessAdapter
import Testing

/// The line that says why a shim died is found among everything it wrote on stderr.
@Suite struct StderrDiagnosisTests {
    static func cause(of text: String, inChunksOf size: Int = 7) -> String? {
        var diagnosis = StderrDiagnosis()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            diagnosis.feed(bytes[start..<min(start + size, bytes.count)])
            start += size
        }
        return diagnosis.cause
    }

    @Test func aSwiftFatalErrorBeforeItsBacktrace() {
        let text = "starting\nSwift/Array.swift:418: Fatal error: Index out of range\n"
            + String(repeating: "#3 0x0000 in frame at /src/Store.swift:12\n", count: 500)
        #expect(Self.cause(of: text) == "Swift/Array.swift:418: Fatal error: Index out of range")
    }

    @Test func thePythonTracebacksLastLine() {
        let text = """
            Traceback (most recent call last):
              File "shim.py", line 46, in <module>
                serve()
            KeyError: 'Folder'
            some later log line

            """
        #expect(Self.cause(of: text) == "KeyError: 'Folder'")
    }

    @Test func aJavaExceptionAndItsCause() {
        let text = """
            Exception in thread "main" java.lang.IllegalStateException: store closed
            \tat Store.save(Store.java:10)
            Caused by: java.sql.SQLException: FOREIGN KEY constraint failed
            \tat Db.commit(Db.java:3)

            """
        #expect(Self.cause(of: text, inChunksOf: 3) == "Caused by: java.sql.SQLException: FOREIGN KEY constraint failed")
    }

    @Test func ordinaryLogsHaveNoCause() {
        #expect(Self.cause(of: "opened store\nsaved 3 objects\n") == nil)
    }

    @Test func aCrashWithoutAFinalNewlineCounts() {
        #expect(Self.cause(of: "Fatal error: boom") == "Fatal error: boom")
    }
}
