import Foundation

/// XML read back by Python's standard parser (expat, through `xml.etree.ElementTree`), which
/// many JUnit tools read reports with: a report it refuses is one CI cannot show, and a value it
/// reads differently (a line break in an attribute turned into a space) is one CI shows wrongly.
public enum PythonXMLReader {
    public static let python = "/usr/bin/python3"
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// One element as the parser read it.
    public struct Element: Equatable, Sendable {
        public var tag: String
        public var attributes: [String: String]
        /// The text before the first child element; empty when there is none.
        public var text: String
    }

    public struct Rejection: Error, CustomStringConvertible {
        /// The parser's own message, e.g. "not well-formed (invalid token): line 3, column 40".
        public var description: String
    }

    private static let script = """
        import json, sys, xml.etree.ElementTree as ElementTree
        try:
            root = ElementTree.parse(sys.argv[1]).getroot()
        except ElementTree.ParseError as error:
            print(json.dumps({"error": str(error)}))
        else:
            print(json.dumps({"elements": [[e.tag, e.attrib, e.text or ""] for e in root.iter()]}))
        """

    /// Every element of `xml`, in document order; throws `Rejection` when Python's parser
    /// refuses the document.
    public static func elements(of xml: String) throws -> [Element] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-xml-\(UUID().uuidString).xml")
        try Data(xml.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Rejection(description: "python printed no answer")
        }
        if let error = answer["error"] as? String { throw Rejection(description: error) }
        let elements = answer["elements"] as? [[Any]] ?? []
        return elements.map { element in
            Element(tag: element[0] as? String ?? "", attributes: element[1] as? [String: String] ?? [:],
                    text: element[2] as? String ?? "")
        }
    }
}
