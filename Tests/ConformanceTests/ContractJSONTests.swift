import Conformance
import Foundation
import Testing

/// The JSON lines shown in `docs/adapter-contract.md` §7 are what `StoreRequest` and
/// `StoreResponse` really decode from and encode to — the process adapter relies on it.
@Suite struct ContractJSONTests {
    static let requests: [(String, StoreRequest)] = [
        (#"{"insert":{"entity":"Employee","object":"alice","values":{"name":"Alice","age":41}}}"#,
         .insert(entity: "Employee", object: "alice", values: ["name": .string("Alice"), "age": .integer(41)])),
        (#"{"set":{"object":"alice","attribute":"age","value":42}}"#, .set(object: "alice", attribute: "age", value: .integer(42))),
        (#"{"link":{"object":"alice","relationship":"department","destination":"sales"}}"#,
         .link(object: "alice", relationship: "department", destination: "sales")),
        (#"{"unlink":{"object":"alice","relationship":"department","destination":"sales"}}"#,
         .unlink(object: "alice", relationship: "department", destination: "sales")),
        (#"{"delete":{"object":"sales"}}"#, .delete(object: "sales")),
        (#"{"save":{"policy":"mergeByPropertyObjectTrump"}}"#, .save(policy: .mergeByPropertyObjectTrump)),
        (#"{"reset":{}}"#, .reset),
        (#"{"reopen":{}}"#, .reopen),
        (#"{"exists":{"object":"alice"}}"#, .exists(object: "alice")),
        (#"{"value":{"object":"alice","attribute":"age"}}"#, .value(object: "alice", attribute: "age")),
        (#"{"related":{"object":"sales","relationship":"employees"}}"#, .related(object: "sales", relationship: "employees")),
        (#"{"count":{"entity":"Employee"}}"#, .count(entity: "Employee")),
    ]

    static let responses: [(String, StoreResponse)] = [
        (#"{"done":{}}"#, .done),
        (#"{"saved":{}}"#, .saved),
        (#"{"saveFailed":{"_0":{"code":1560,"details":[{"code":1570,"object":"alice","key":"name","details":[]}]}}}"#,
         .saveFailed(SaveFailure(code: 1560, details: [SaveFailure(code: 1570, object: "alice", key: "name")]))),
        (#"{"exists":{"_0":true}}"#, .exists(true)),
        (#"{"value":{"_0":42}}"#, .value(.integer(42))),
        (#"{"objects":{"_0":["alice","bob"]}}"#, .objects(["alice", "bob"])),
        (#"{"count":{"_0":2}}"#, .count(2)),
    ]

    @Test func theContractsExamplesAreInTheDocument() throws {
        let contract = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/adapter-contract.md"), encoding: .utf8)
        for (line, _) in Self.requests { #expect(contract.contains(line), "\(line)") }
        for (line, _) in Self.responses { #expect(contract.contains(line), "\(line)") }
    }

    @Test func requestsDecodeAndRoundTrip() throws {
        for (line, request) in Self.requests {
            #expect(try JSONDecoder().decode(StoreRequest.self, from: Data(line.utf8)) == request, "\(line)")
            #expect(try JSONDecoder().decode(StoreRequest.self, from: JSONEncoder().encode(request)) == request)
        }
    }

    @Test func responsesDecodeAndRoundTrip() throws {
        for (line, response) in Self.responses {
            #expect(try JSONDecoder().decode(StoreResponse.self, from: Data(line.utf8)) == response, "\(line)")
            #expect(try JSONDecoder().decode(StoreResponse.self, from: JSONEncoder().encode(response)) == response)
        }
    }

    @Test func valuesArePlainJSONScalarsAndDatesAreISO8601() throws {
        let values: [AttributeValue] = [.null, .bool(true), .integer(-3), .double(2.5), .string("x"),
                                        .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
                                        .date(secondsSinceReferenceDate: 0)]
        let json = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
        #expect(json == #"[null,true,-3,2.5,"x","E621E1F8-C36C-495A-93FC-0C247A3E6E5F","2001-01-01T00:00:00Z"]"#)
        // The model's type reads a string back as the date or UUID it stands for.
        #expect(try AttributeValue.string("2001-01-01T00:00:00Z").coerced(to: .date) == .date(secondsSinceReferenceDate: 0))
        #expect(try AttributeValue.string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f").coerced(to: .uuid)
            == .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(throws: AttributeValue.CoercionError.self) { try AttributeValue.integer(70_000).coerced(to: .integer16) }
        #expect(try AttributeValue.double(3.0).coerced(to: .integer32) == .integer(3))
        #expect(throws: AttributeValue.CoercionError.self) { try AttributeValue.double(3.5).coerced(to: .integer32) }
    }
}
