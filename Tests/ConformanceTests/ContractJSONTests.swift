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
        // Contract 1.4 (§4.10-§4.12).
        (#"{"addContext":{"name":"editor"}}"#, .addContext(name: "editor", parent: nil)),
        (#"{"addContext":{"name":"draft","parent":"main"}}"#, .addContext(name: "draft", parent: "main")),
        (#"{"inContext":{"context":"editor","request":{"set":{"object":"lamp","attribute":"price","value":12}}}}"#,
         .inContext(context: "editor", request: .set(object: "lamp", attribute: "price", value: .integer(12)))),
        (#"{"refresh":{"object":"lamp","mergeChanges":false}}"#, .refresh(object: "lamp", mergeChanges: false)),
        (#"{"refreshAll":{}}"#, .refreshAll),
        (#"{"validate":{"object":"lamp","attribute":"quantity","value":11}}"#,
         .validate(object: "lamp", attribute: "quantity", value: .integer(11))),
        (#"{"changes":{}}"#, .changes),
        (#"{"isDeleted":{"object":"lamp"}}"#, .isDeleted(object: "lamp")),
        (#"{"fetch":{"_0":{"entity":"Item","predicate":{"format":"price > 8","expression":{"comparison":{"_0":{"left":{"keyPath":{"_0":["price"]}},"operator":">","right":{"value":{"_0":8}},"caseInsensitive":false,"diacriticInsensitive":false}}}},"sortDescriptors":[{"key":"price","ascending":true}],"includesPendingChanges":true,"fetchLimit":0,"fetchOffset":0}}}"#,
         .fetch(FetchRequest(entity: "Item", predicate: try! FetchPredicate(format: "price > 8"),
                             sortDescriptors: [SortDescriptor(key: "price")]))),
        (#"{"reopenWithOptions":{"_0":{"readOnly":true}}}"#, .reopenWithOptions(StoreOptions(readOnly: true))),
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
        (#"{"valid":{}}"#, .valid),
        (#"{"invalid":{"_0":{"code":1610,"object":"lamp","key":"quantity","value":11,"details":[]}}}"#,
         .invalid(SaveFailure(code: 1610, object: "lamp", key: "quantity", value: .integer(11)))),
        (#"{"changes":{"_0":{"hasChanges":true,"inserted":["chair"],"updated":["lamp"],"deleted":[]}}}"#,
         .changes(ContextChanges(hasChanges: true, inserted: ["chair"], updated: ["lamp"]))),
        (#"{"isDeleted":{"_0":true}}"#, .isDeleted(true)),
        (#"{"saveFailed":{"_0":{"code":133020,"objects":["lamp"],"details":[{"code":133020,"object":"lamp","key":"price","details":[]}]}}}"#,
         .saveFailed(SaveFailure(code: 133020, details: [SaveFailure(code: 133020, object: "lamp", key: "price")], objects: ["lamp"]))),
        (#"{"saveFailed":{"_0":{"code":513,"details":[]}}}"#, .saveFailed(SaveFailure(code: 513))),
    ]

    @Test func theContractsExamplesAreInTheDocument() throws {
        let contract = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/adapter-contract.md"), encoding: .utf8)
        for (line, _) in Self.requests { #expect(contract.contains(line), "\(line)") }
        for (line, _) in Self.responses { #expect(contract.contains(line), "\(line)") }
    }

    /// Every page that states which contract version momlint runs states the one it does
    /// (`AdapterContract.version`); they said 1.0 and 1.2 while the code said 1.3. The contract's
    /// version table runs in order and ends with it.
    @Test func theDocsQuoteTheCurrentContractVersion() throws {
        let current = AdapterContract.version
        func page(_ path: String) throws -> String {
            try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(path), encoding: .utf8)
        }
        let contract = try page("docs/adapter-contract.md")
        #expect(contract.contains("**Contract version: \(current)**"))
        let table = contract.matches(of: /(?m)^\| (\d+\.\d+) \|/).map { String($0.output.1) }
        #expect(table == table.sorted { $0.compare($1, options: .numeric) == .orderedAscending }, "\(table)")
        #expect(table.last == current, "\(table)")
        #expect(table.count == Int(current.split(separator: ".").last!)! + 1, "one row per minor version: \(table)")

        var quotes: [(page: String, version: String)] = []
        for path in ["docs/implementers.md", "docs/adapter-contract.md", "docs/conformance.md", "README.md",
                     "Examples/python-store/README.md", "Sources/ProcessAdapter/ShimMessage.swift"] {
            let text = try page(path)
            for pattern in [#/"contractVersion":\s*"(\d+\.\d+)"/#, #/runs contract (\d+\.\d+)/#,
                            #/\[the adapter contract\]\(adapter-contract\.md\) \(version (\d+\.\d+)\)/#] {
                quotes += text.matches(of: pattern).map { (path, String($0.output.1)) }
            }
        }
        #expect(quotes.count >= 4, "\(quotes)")
        for quote in quotes where quote.version != current {
            Issue.record("\(quote.page) says momlint runs contract \(quote.version); it runs \(current)")
        }
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
    /// Only the whole string counts, and every field must be in range: Foundation's formatter
    /// read `2020-06-01 12:34` as midnight and rolled 30 February over to 1 March.
    @Test(arguments: ["2020-06-01 12:34", "2020/06/01", "2020-06-01 00:00", "2020-06-01Tgarbage",
                      "2020-06-01T00:00:00Zgarbage", "2020-06-01T00:00:00", "2020-02-30T00:00:00Z",
                      "2021-02-29", "2020-06-01T24:00:00Z", "2020-06-01T00:00:60Z", "2020-06-01T00:00:00.Z",
                      "2020-06-01T00:00:00+2:00", "2020-13-01", "20200601", " 2020-06-01", ""])
    func textThatIsNotAnISO8601DateIsNoDate(_ text: String) {
        #expect(AttributeValue.date(fromISO8601DateTime: text) == nil)
        #expect(throws: AttributeValue.CoercionError.self) { try AttributeValue.string(text).coerced(to: .date) }
    }

    @Test(arguments: [
        ("2001-01-01T00:00:00Z", 0.0), ("2020-06-01T00:00:00Z", 612_662_400), ("2020-06-01T02:00:00+02:00", 612_662_400),
        ("2020-05-31T19:30:00-04:30", 612_662_400), ("2020-06-01T00:00:00.25Z", 612_662_400.25),
        ("2000-02-29T12:00:00Z", -26_481_600), ("1969-12-31T23:59:59Z", -978_307_201),
    ])
    func anISO8601DateAndTimeReadsAsItsInstant(_ text: String, _ seconds: Double) throws {
        #expect(AttributeValue.date(fromISO8601DateTime: text) == .date(secondsSinceReferenceDate: seconds))
        #expect(try AttributeValue.string(text).coerced(to: .date) == .date(secondsSinceReferenceDate: seconds))
    }

    /// A date is written with the fewest fractional digits that read back as the same number:
    /// Core Data keeps more than milliseconds (a real store holds `541369085.083766`), and a
    /// dump or a request to a process store must not round them away.
    @Test(arguments: [
        (541_369_085.083_766, "2018-02-26T20:18:05.083766Z"), (541_369_085.083_765_9, "2018-02-26T20:18:05.0837659Z"),
        (612_662_400.25, "2020-06-01T00:00:00.25Z"),
        (612_662_400, "2020-06-01T00:00:00Z"), (-978_307_201, "1969-12-31T23:59:59Z"),
        (-26_481_600, "2000-02-29T12:00:00Z"), (-1.5, "2000-12-31T23:59:58.5Z"),
        (-63_145_526_400, "0000-01-01T00:00:00Z"), (252_423_993_599.5, "9999-12-31T23:59:59.5Z"),
    ])
    func aDateIsWrittenWithEveryDigitItHolds(_ seconds: Double, _ text: String) throws {
        let json = String(decoding: try JSONEncoder().encode([AttributeValue.date(secondsSinceReferenceDate: seconds)]),
                          as: UTF8.self)
        #expect(json == "[\"\(text)\"]")
        #expect(AttributeValue.date(secondsSinceReferenceDate: seconds).description == text)
        #expect(AttributeValue.date(fromISO8601DateTime: text) == .date(secondsSinceReferenceDate: seconds))
    }

    @Test func everyDateReadsBackAsTheSameNumber() throws {
        // xorshift64 from a fixed seed: the same 4,000 dates every run, so a failure recurs.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func unit() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(UInt64(1) << 53)
        }
        var samples: [Double] = [1e-9, .leastNonzeroMagnitude, 0.1, 1, 1.000_000_000_000_000_2, 978_307_200.123_456_789]
        for _ in 0..<2_000 {
            samples.append(-63_145_526_400 + unit() * (63_145_526_400 - 1))  // before 2000-12-31T23:59:59
            samples.append(unit() * 4_000_000_000)
        }
        for seconds in samples {
            let json = try JSONEncoder().encode(AttributeValue.date(secondsSinceReferenceDate: seconds))
            let text = try JSONDecoder().decode(String.self, from: json)
            #expect(AttributeValue.date(fromISO8601DateTime: text) == .date(secondsSinceReferenceDate: seconds),
                    "\(seconds) was written \(text)")
        }
    }

    /// ISO 8601's four-digit years hold 0000–9999: a date outside is an encoding error, never
    /// a wrong date, and a message shows it as a number.
    @Test(arguments: [-63_145_526_401, 252_423_993_600, .infinity, .nan] as [Double])
    func aDateOutsideTheFourDigitYearsIsNotWrittenAsOne(_ seconds: Double) {
        #expect(throws: EncodingError.self) {
            try JSONEncoder().encode([AttributeValue.date(secondsSinceReferenceDate: seconds)])
        }
        #expect(AttributeValue.date(secondsSinceReferenceDate: seconds).description.hasSuffix(" seconds since 2001-01-01T00:00:00Z"))
    }

    /// A scenario may write a date alone for midnight UTC (contract §5); a store's answer may not
    /// (docs/implementers.md §3.5), since a store that drops the time would pass.
    @Test func aDateAloneIsMidnightInScenariosButNotAnAnswer() throws {
        #expect(try AttributeValue.string("2020-06-01").coerced(to: .date) == .date(secondsSinceReferenceDate: 612_662_400))
        #expect(AttributeValue.date(fromISO8601DateTime: "2020-06-01") == nil)
    }
}
