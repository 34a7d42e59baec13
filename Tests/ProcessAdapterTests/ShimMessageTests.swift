import Conformance
import Foundation
@testable import ProcessAdapter
import Testing

/// The lines momlint writes are the ones docs/implementers.md shows, and answers are read as
/// the page says (an id and exactly one message key).
@Suite struct ShimMessageTests {
    @Test func requestLinesAreTheDocumentedOnes() throws {
        let lines: [(StoreRequest, String)] = [
            (.insert(entity: "Employee", object: "alice", values: ["name": .string("Alice"), "age": .integer(41)]),
             #"{"id":3,"insert":{"entity":"Employee","object":"alice","values":{"age":41,"name":"Alice"}}}"#),
            (.set(object: "alice", attribute: "age", value: .integer(42)),
             #"{"id":3,"set":{"attribute":"age","object":"alice","value":42}}"#),
            (.link(object: "alice", relationship: "department", destination: "sales"),
             #"{"id":3,"link":{"destination":"sales","object":"alice","relationship":"department"}}"#),
            (.unlink(object: "alice", relationship: "department", destination: "sales"),
             #"{"id":3,"unlink":{"destination":"sales","object":"alice","relationship":"department"}}"#),
            (.delete(object: "sales"), #"{"id":3,"delete":{"object":"sales"}}"#),
            (.save(policy: .mergeByPropertyObjectTrump), #"{"id":3,"save":{"policy":"mergeByPropertyObjectTrump"}}"#),
            (.reset, #"{"id":3,"reset":{}}"#),
            (.reopen, #"{"id":3,"reopen":{}}"#),
            (.exists(object: "alice"), #"{"id":3,"exists":{"object":"alice"}}"#),
            (.value(object: "alice", attribute: "age"), #"{"id":3,"value":{"attribute":"age","object":"alice"}}"#),
            (.related(object: "sales", relationship: "employees"), #"{"id":3,"related":{"object":"sales","relationship":"employees"}}"#),
            (.count(entity: "Employee"), #"{"id":3,"count":{"entity":"Employee"}}"#),
            (.set(object: "note", attribute: "due", value: .date(secondsSinceReferenceDate: 736_257_600)),
             #"{"id":3,"set":{"attribute":"due","object":"note","value":"2024-05-01T12:00:00Z"}}"#),
        ]
        for (request, expected) in lines {
            #expect(try ShimMessage.line(id: 3, request: request) == expected)
        }
        #expect(try ShimMessage.line(id: 1, key: "hello", body: ShimMessage.Hello()) == #"{"id":1,"hello":{"contractVersion":"1.4"}}"#)
        #expect(try ShimMessage.line(id: 9, key: "close", body: ShimMessage.Close()) == #"{"id":9,"close":{}}"#)
        #expect(try ShimMessage.openLine(id: 2, scenario: "s.x", modelPath: "/m.xcdatamodeld", exportedModel: Data(#"{"schemaVersion":1}"#.utf8))
            == #"{"id":2,"open":{"model":{"schemaVersion":1},"modelPath":"/m.xcdatamodeld","scenario":"s.x"}}"#)
        #expect(try ShimMessage.reopenWithModelLine(id: 7, modelPath: "/m.xcdatamodeld/M 2.xcdatamodel", migration: .none,
                                                    exportedModel: Data(#"{"schemaVersion":1}"#.utf8))
            == #"{"id":7,"reopenWithModel":{"model":{"schemaVersion":1},"migrate":"none","modelPath":"/m.xcdatamodeld/M 2.xcdatamodel"}}"#)
    }

    /// Contract 1.3: a reopen with another version is answered `done` or `openFailed`.
    @Test func openFailedAnswersDecode() throws {
        let answer = try ShimMessage.answer(from: #"{"id":7,"openFailed":{"_0":{"code":134100,"message":"hashes differ"}}}"#)
        #expect(answer.kind == "openFailed")
        #expect(try JSONDecoder().decode(StoreResponse.self, from: answer.data)
            == .openFailed(OpenFailure(code: 134100, message: "hashes differ")))
    }

    @Test func answersAreReadWhateverTheKeyOrder() throws {
        let answer = try ShimMessage.answer(from: #"{"saveFailed": {"_0": {"code": 1600, "details": [], "object": "sales", "key": "employees"}}, "id": 10}"#)
        #expect(answer.id == 10 && answer.kind == "saveFailed")
        let response = try JSONDecoder().decode(StoreResponse.self, from: answer.data)
        #expect(response == .saveFailed(SaveFailure(code: 1600, object: "sales", key: "employees")))
    }

    @Test func malformedAnswersAreNamed() {
        let cases: [(String, String)] = [
            ("not json", "printed a line that is not a JSON object: 'not json'"),
            ("[1,2]", "printed a line that is not a JSON object: '[1,2]'"),
            (#"{"done":{}}"#, #"answered without an integer "id""#),
            (#"{"id":true,"done":{}}"#, #"answered without an integer "id""#),
            (#"{"id":"3","done":{}}"#, #"answered without an integer "id""#),
            (#"{"id":3}"#, #"answered with 0 message keys besides "id""#),
            (#"{"id":3,"done":{},"saved":{}}"#, #"answered with 2 message keys besides "id""#),
        ]
        for (line, expected) in cases {
            let error = #expect(throws: ProtocolViolation.self) { try ShimMessage.answer(from: line) }
            #expect(error?.message.hasPrefix(expected) == true, "\(line): \(error?.message ?? "")")
        }
    }
}
