import DataModel
import Testing

/// A location keeps its file as a number (`SourceFiles`); to every user it is still a path.
@Suite struct SourceLocationTests {
    @Test func theFileReadsBackExactlyAsGivenAndCanBeReplaced() {
        var location = SourceLocation(file: "/tmp/Model.xcdatamodel/contents", line: 3, column: 7)
        #expect(location.file == "/tmp/Model.xcdatamodel/contents")
        #expect(location.description == "/tmp/Model.xcdatamodel/contents:3:7")
        location.file = "Model.xcdatamodel/contents"
        #expect(location.file == "Model.xcdatamodel/contents")
        #expect((location.line, location.column) == (3, 7))
    }

    @Test func locationsMadeApartInOneFileAreEqual() {
        let path = "/work/" + String(repeating: "folder/", count: 3) + "contents"
        let first = SourceLocation(file: path, line: 2, column: 1)
        let second = SourceLocation(file: String(decoding: Array(path.utf8), as: UTF8.self), line: 2, column: 1)
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
        #expect(first != SourceLocation(file: path + "2", line: 2, column: 1))
    }

    @Test func aLocationInTheFileOfAnotherHasItsPath() {
        let start = SourceLocation(file: "A.xcdatamodel/contents", line: 1, column: 1)
        let element = SourceLocation(line: 12, column: 5, inFileOf: start)
        #expect(element == SourceLocation(file: "A.xcdatamodel/contents", line: 12, column: 5))
        #expect(element.file == "A.xcdatamodel/contents")
    }

    /// Two spellings `String` compares equal are two files on Linux: the path is kept by bytes.
    @Test func pathsThatDifferOnlyInUnicodeNormalizationStayApart() {
        let composed = "/tmp/Caf\u{E9}.xcdatamodel/contents"
        let decomposed = "/tmp/Cafe\u{301}.xcdatamodel/contents"
        #expect(composed == decomposed)  // String's canonical equivalence
        let a = SourceLocation(file: composed, line: 1, column: 1)
        let b = SourceLocation(file: decomposed, line: 1, column: 1)
        #expect(Array(a.file.utf8) == Array(composed.utf8))
        #expect(Array(b.file.utf8) == Array(decomposed.utf8))
        #expect(a != b)
        #expect((a < b) != (b < a))
    }

    @Test func locationsSortByPathThenLineThenColumn() {
        let sorted = [
            SourceLocation(file: "b/contents", line: 1, column: 1),
            SourceLocation(file: "a/contents", line: 9, column: 2),
            SourceLocation(file: "a/contents", line: 9, column: 1),
            SourceLocation(file: "a/contents", line: 10, column: 1),
        ].sorted()
        #expect(sorted.map(\.description) == ["a/contents:9:1", "a/contents:9:2", "a/contents:10:1", "b/contents:1:1"])
    }
}
