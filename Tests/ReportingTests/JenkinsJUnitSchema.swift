import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The declarations of the strict JUnit schema Jenkins' xUnit plugin validates against
/// (`junit-10.xsd` in jenkinsci/xunit-plugin), transcribed for the elements momlint writes:
/// per element, the attributes it may carry, those it must carry, and the child elements it may
/// hold. Checked offline, so the test needs no network and no schema tool.
enum JenkinsJUnitSchema {
    struct Declaration {
        var attributes: Set<String>
        var required: Set<String>
        var children: Set<String>
    }

    static let declarations: [String: Declaration] = [
        "testsuites": .init(attributes: ["name", "time", "tests", "failures", "errors"], required: [],
                            children: ["testsuite"]),
        "testsuite": .init(attributes: ["name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp",
                                        "hostname", "id", "package", "file", "log", "url"],
                           required: ["name", "tests", "failures", "errors"],
                           children: ["testsuite", "properties", "testcase", "system-out", "system-err"]),
        "testcase": .init(attributes: ["name", "time", "classname", "group"], required: ["name"],
                          children: ["skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure",
                                     "flakyError", "system-out", "system-err"]),
        "failure": .init(attributes: ["type", "message"], required: [], children: []),
        "error": .init(attributes: ["type", "message"], required: [], children: []),
        "skipped": .init(attributes: ["type", "message"], required: [], children: []),
        "system-out": .init(attributes: [], required: [], children: []),
        "system-err": .init(attributes: [], required: [], children: []),
    ]

    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    /// Throws for the first element, attribute or child the schema does not allow.
    static func validate(_ element: XMLElement, parent: String? = nil) throws {
        let name = element.name ?? ""
        guard let declaration = declarations[name] else { throw Violation(description: "undeclared element <\(name)>") }
        if parent == nil && name != "testsuites" { throw Violation(description: "root is <\(name)>, not <testsuites>") }
        let present = Set((element.attributes ?? []).compactMap(\.name))
        if let extra = present.subtracting(declaration.attributes).sorted().first {
            throw Violation(description: "<\(name)> has attribute '\(extra)', which the schema does not declare")
        }
        if let missing = declaration.required.subtracting(present).sorted().first {
            throw Violation(description: "<\(name)> lacks the required attribute '\(missing)'")
        }
        for child in (element.children ?? []).compactMap({ $0 as? XMLElement }) {
            guard declaration.children.contains(child.name ?? "") else {
                throw Violation(description: "<\(name)> may not hold <\(child.name ?? "")>")
            }
            try validate(child, parent: name)
        }
    }
}
