@testable import ModelDiff
import Testing

/// `git cat-file --batch` answers with each object's size before its bytes; a committed
/// `contents` larger than a model may be is refused at that header, so a repository someone
/// else made cannot make momlint collect gigabytes (issue 39: git under limits).
struct GitBatchObjectLimitTests {
    static func answer(_ parts: String...) -> [UInt8] { Array(parts.joined().utf8) }

    @Test func objectsWithinTheLimitAreReadWhole() {
        var limit = GitProcess.BatchObjectLimit(maximumObjectBytes: 5)
        #expect(limit.stop(reading: Self.answer("1a blob 5\n", "<m/>\n", "HEAD:./x missing\n", "2b blob 0\n", "\n")) == nil)
    }

    @Test func anObjectOverTheLimitStopsAtItsHeader() {
        var limit = GitProcess.BatchObjectLimit(maximumObjectBytes: 5)
        let stop = limit.stop(reading: Self.answer("1a blob 5\n", "<m/>\n", "2b blob 999999999999\n", "<mo"))
        #expect(stop == "a committed contents is 999999999999 bytes, over the model size limit of 5 bytes; it was not read")
    }

    /// The answer arrives in pieces: a header cut in two waits for its end, and the bytes of an
    /// object are never taken for a header (an object may hold lines that look like one).
    @Test func theAnswerIsReadAsItArrives() {
        var limit = GitProcess.BatchObjectLimit(maximumObjectBytes: 20)
        var answer = Self.answer("1a blob 1")
        #expect(limit.stop(reading: answer) == nil)
        answer += Self.answer("6\n", "2b blob 99999999\n")
        #expect(limit.stop(reading: answer) == nil)
        answer += Self.answer("3c blob 21\n")
        #expect(limit.stop(reading: answer) != nil)
    }
}
