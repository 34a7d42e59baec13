import Foundation
import CLibXML2

/// The state one parse shares with libxml2's C callbacks, which reach it through
/// `ctxt->userData`.
final class ParseSession {
    /// What libxml2 reads: the whole document, or a part of it (see `XMLEventParser.Part`).
    @exclusivity(unchecked) var input: ParserInput
    /// The offset in the whole document of `input`'s first byte.
    let inputOrigin: Int
    /// The whole document's lines: positions are always reported in the whole document.
    let lines: LineTable
    let options: XMLEventParser.Options
    let handle: (XMLEventParser.Event) throws -> Void
    // Only libxml2's callbacks touch these, one at a time on the parsing thread, and none
    // holds an access across a call: the runtime's exclusivity checks, paid on every element
    // and attribute, are turned off.
    @exclusivity(unchecked) var context: xmlParserCtxtPtr?
    @exclusivity(unchecked) var failure: XMLParseFailure? {
        didSet { hasFailed = failure != nil }
    }
    /// Whether `failure` is set, asked on every event: comparing the optional failure itself
    /// with nil copied it (strings and all) each time.
    @exclusivity(unchecked) private(set) var hasFailed = false
    @exclusivity(unchecked) var depth = 0
    @exclusivity(unchecked) var elementCount = 0
    @exclusivity(unchecked) var pendingText = ""
    @exclusivity(unchecked) var names = NameTable()
    @exclusivity(unchecked) var values = ShortValueTable()
    /// The line of the last start tag, where the search for the next one begins.
    @exclusivity(unchecked) var lineHint = 0
    /// The offset of the last start tag's `<`, where the search for the next one begins.
    @exclusivity(unchecked) var previousTagStart = 0

    init(document: XMLEventParser.Document, part: XMLEventParser.Part?, options: XMLEventParser.Options,
         handle: @escaping (XMLEventParser.Event) throws -> Void) {
        self.input = part.map { ParserInput(document.bytes, range: $0.range, head: $0.head, tail: $0.tail) }
            ?? ParserInput(document.bytes, range: document.bytes.indices)
        self.inputOrigin = part?.inputOrigin ?? 0
        self.lines = document.lines
        self.options = options
        self.handle = handle
        self.previousTagStart = part?.range.lowerBound ?? 0
    }

    /// The offset in the whole document of the byte at `offset` in `input`, kept inside it.
    func documentOffset(ofInput offset: Int) -> Int {
        max(0, min(inputOrigin + offset, lines.byteCount - 1))
    }

    func run() throws(XMLParseFailure) {
        guard input.count < Int(Int32.max) else {
            throw XMLParseFailure(kind: .refused, message: "file is too large for the XML parser", line: 1, column: 1)
        }
        // libxml2 pulls the input through `read`, a buffer at a time, straight from the
        // document's bytes: a memory parser would first copy all of them (or a part's) into a
        // buffer of its own, as large as the file, every page of it faulted in. The encoding is
        // left to libxml2 to detect, as for a memory parser.
        let created = xmlCreateIOParserCtxt(
            nil, nil,
            { session, buffer, length in
                guard let session = ParseSession.from(session), let buffer, length > 0 else { return -1 }
                return Int32(session.input.read(into: buffer, maximum: Int(length)))
            },
            nil,
            Unmanaged.passUnretained(self).toOpaque(), XML_CHAR_ENCODING_NONE)
        guard let context = created else {
            throw XMLParseFailure(kind: .malformed, message: "libxml2 could not create a parser", line: 1, column: 1)
        }
        self.context = context
        defer {
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        // NOENT only decodes the predefined entities (&amp; …) in attribute values:
        // no other entity can be defined, see `entityDecl` below.
        let parseOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
        xmlCtxtUseOptions(context, parseOptions)
        context.pointee.sax.pointee = Self.makeHandler(reportsText: options.reportsText)
        context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()

        let status = withExtendedLifetime(self) { xmlParseDocument(context) }
        if let failure { throw failure }
        if status != 0 || context.pointee.wellFormed == 0 {
            throw XMLParseFailure(kind: .malformed, message: "the document is not well-formed XML",
                                  line: Int(context.pointee.input?.pointee.line ?? 1), column: 1)
        }
    }

    /// Records the first failure and stops libxml2; later ones are consequences.
    func fail(_ kind: XMLParseFailure.Kind, _ message: String, line: Int, column: Int) {
        if failure == nil {
            failure = XMLParseFailure(kind: kind, message: message, line: line, column: column)
        }
        if let context { xmlStopParser(context) }
    }

    func fail(_ exceeded: LoadLimitExceeded, line: Int, column: Int) {
        fail(.overLimit(exceeded), exceeded.message, line: line, column: column)
    }

    /// Fails on a name longer than the limit; `what` says whose name it is.
    func checkLength(of name: String, _ what: String, line: Int, column: Int) -> Bool {
        let limit = options.limits.maximumNameBytes
        guard name.utf8.count > limit else { return true }
        fail(LoadLimitExceeded(.nameBytes, maximum: limit, subject: "the \(what) \(LoadLimitExceeded.quoted(name))"),
             line: line, column: column)
        return false
    }

    /// Refuses a declaration in a DOCTYPE's internal subset. Entity declarations would
    /// allow expansion bombs, attribute-list declarations would add defaulted attributes
    /// that `StartTagScanner` never sees; none belongs in a model or a property list.
    func refuseDeclaration(_ kind: String, _ name: UnsafePointer<xmlChar>?) {
        let (line, column) = currentPosition()
        let declared = name.map { String(cString: $0) } ?? "?"
        fail(.refused, "\(kind) declaration \(LoadLimitExceeded.quoted(declared)) is not allowed; "
             + "momlint never reads DTDs or expands entities", line: line, column: column)
    }

    func currentPosition() -> (line: Int, column: Int) {
        guard let context else { return (1, 1) }
        return lines.position(ofByte: documentOffset(ofInput: Int(xmlByteConsumed(context))))
    }

    func flushText() {
        guard !pendingText.isEmpty else { return }
        let text = pendingText
        pendingText = ""
        deliver(.text(text))
    }

    func deliver(_ event: XMLEventParser.Event) {
        guard !hasFailed else { return }
        do {
            try handle(event)
        } catch let failure as XMLParseFailure {
            fail(failure.kind, failure.message, line: failure.line, column: failure.column)
        } catch {
            let (line, column) = currentPosition()
            fail(.rejectedByReader, "\(error)", line: line, column: column)
        }
    }

    /// An error is one line, but libxml2 messages may span several ("Input is not proper
    /// UTF-8, indicate encoding !\nBytes: 0xE9 …"): the lines are joined. Its advice to
    /// declare an encoding is replaced, since momlint reads every document as UTF-8.
    static func oneLine(libxml2Message raw: String) -> String {
        raw.replacingOccurrences(of: "Input is not proper UTF-8, indicate encoding !",
                                 with: "Input is not proper UTF-8 (models are UTF-8, as Xcode writes them)")
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> ParseSession? {
        pointer.map { Unmanaged<ParseSession>.fromOpaque($0).takeUnretainedValue() }
    }

    static func makeHandler(reportsText: Bool) -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)

        handler.startElementNs = { userData, localName, _, _, _, _, attributeCount, _, attributeValues in
            guard let session = ParseSession.from(userData), !session.hasFailed else { return }
            session.flushText()
            session.depth += 1
            let tagEnd = session.documentOffset(ofInput: Int(xmlByteConsumed(session.context)))
            let start = session.lines.tagStart(before: tagEnd, searchingFrom: session.previousTagStart)
            session.previousTagStart = start
            let (line, column) = session.lines.position(ofByte: start, hint: &session.lineHint)
            let (name, known) = localName.map { session.names.name(at: $0) } ?? ("", nil)
            let limits = session.options.limits
            session.elementCount += 1
            if session.depth > limits.maximumDepth {
                session.fail(LoadLimitExceeded(.depth, maximum: limits.maximumDepth, subject: "<\(name.prefix(40))>"),
                             line: line, column: column)
                return
            }
            if session.elementCount > limits.maximumElements {
                session.fail(LoadLimitExceeded(.elements, maximum: limits.maximumElements,
                                               subject: "<\(name.prefix(40))>"),
                             line: line, column: column)
                return
            }
            guard session.checkLength(of: name, "element name", line: line, column: column) else { return }
            var attributes: [XMLAttributes.Attribute] = []
            if let values = attributeValues, attributeCount > 0 {
                attributes.reserveCapacity(Int(attributeCount))
                // libxml2 passes five pointers per attribute: localname, prefix, URI,
                // value start, value end (the value is not NUL-terminated).
                for index in 0..<Int(attributeCount) {
                    let base = index * 5
                    guard let name = values[base], let valueStart = values[base + 3],
                          let valueEnd = values[base + 4] else { continue }
                    let length = valueEnd - valueStart
                    let value = session.values.value(of: UnsafeBufferPointer(start: valueStart, count: length))
                    // The name's spelling is read only to report it or to keep one outside the grammar.
                    let slot = session.names.slot(of: name)
                    guard session.names.byteCount(at: slot) <= session.options.limits.maximumNameBytes
                        || session.checkLength(of: session.names.spelling(at: slot), "attribute name",
                                               line: line, column: column) else { return }
                    if let known = session.names.known(at: slot) {
                        attributes.append(.init(known: known, value: value))
                    } else {
                        attributes.append(.init(name: session.names.spelling(at: slot), value: value, known: nil))
                    }
                }
            }
            session.deliver(.start(XMLStartTag(name: name, known: known, attributes: XMLAttributes(attributes),
                                                line: line, column: column)))
        }

        handler.endElementNs = { userData, localName, _, _ in
            guard let session = ParseSession.from(userData), !session.hasFailed else { return }
            session.flushText()
            session.depth -= 1
            session.deliver(.end(name: localName.map { session.names.name(at: $0).name } ?? ""))
        }

        if reportsText {
            handler.characters = { userData, characters, length in
                guard let session = ParseSession.from(userData), !session.hasFailed,
                      let characters, length > 0 else { return }
                session.pendingText += String(decoding: UnsafeBufferPointer(start: characters, count: Int(length)),
                                              as: UTF8.self)
            }
        }

        handler.internalSubset = { userData, name, _, _ in
            guard let session = ParseSession.from(userData) else { return }
            if !session.options.allowsDocumentType {
                let (line, column) = session.currentPosition()
                let root = name.map { String(cString: $0) } ?? "?"
                session.fail(.refused, "DOCTYPE declaration <!DOCTYPE \(root) …> is not allowed in a Core Data model; "
                             + "momlint never loads DTDs or entities", line: line, column: column)
            }
        }

        handler.entityDecl = { userData, name, _, _, _, _ in
            ParseSession.from(userData)?.refuseDeclaration("entity", name)
        }
        handler.unparsedEntityDecl = { userData, name, _, _, _ in
            ParseSession.from(userData)?.refuseDeclaration("entity", name)
        }
        handler.attributeDecl = { userData, element, _, _, _, _, tree in
            // The callback owns the enumeration of allowed values (see xmlParseAttributeListDecl).
            xmlFreeEnumeration(tree)
            ParseSession.from(userData)?.refuseDeclaration("attribute-list", element)
        }
        handler.elementDecl = { userData, name, _, _ in
            ParseSession.from(userData)?.refuseDeclaration("element", name)
        }
        handler.notationDecl = { userData, name, _, _ in
            ParseSession.from(userData)?.refuseDeclaration("notation", name)
        }

        handler.serror = { userData, error in
            guard let session = ParseSession.from(userData), let error else { return }
            guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let raw = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            let message = ParseSession.oneLine(libxml2Message: raw)
            session.fail(.malformed, message, line: Int(max(1, error.pointee.line)), column: Int(max(1, error.pointee.int2)))
        }
        return handler
    }
}
