import Foundation
import CLibXML2

/// One start tag as the parser reports it, with the position of its `<`.
struct XMLStartTag {
    var name: String
    /// The grammar's code for `name`, when it has one.
    var known: KnownXMLName?
    var attributes: XMLAttributes
    var line: Int
    var column: Int
}

/// Why a document could not be read as XML.
struct XMLParseFailure: Error, Equatable {
    enum Kind: Equatable {
        /// libxml2 found the document not well-formed (or not UTF-8).
        case malformed
        /// A DOCTYPE or a declaration inside one: refused on purpose.
        case refused
        /// Past one of `LoadLimits`.
        case overLimit(LoadLimitExceeded)
        /// The callback threw; its message is kept.
        case rejectedByReader
    }
    var kind: Kind
    var message: String
    var line: Int
    var column: Int

    init(kind: Kind, message: String, line: Int, column: Int) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
    }

    init(_ exceeded: LoadLimitExceeded, line: Int, column: Int) {
        self.init(kind: .overLimit(exceeded), message: exceeded.message, line: line, column: column)
    }
}

/// A thin, safe wrapper over libxml2's SAX2 push of start and end tags.
///
/// Why SAX and not a DOM: the whole file never exists as a tree, memory stays flat, and
/// libxml2 hands us each start tag as soon as it has read it, so we can record its
/// position. No entity or DTD is ever loaded:
/// - `XML_PARSE_NONET` "forbid network access" (http://xmlsoft.org/html/libxml-parser.html#xmlParserOption);
/// - no `XML_PARSE_DTDLOAD`/`XML_PARSE_DTDATTR`/`XML_PARSE_DTDVALID`, so the external subset
///   is never fetched;
/// - our `entityDecl` callback registers nothing, so a declared entity is never defined and
///   a reference to it is an error, not an expansion (this is what stops entity bombs);
/// - documents that must not have a DOCTYPE (`contents`) stop at the DOCTYPE itself;
/// - a process-wide external entity loader refuses every URL, in case anything asks;
/// - `XML_PARSE_IGNORE_ENC` keeps every document UTF-8 (as Xcode writes them), so no
///   `encoding="…"` declaration can send the bytes through iconv.
/// Every `LoadLimits` bound that libxml2 itself could blow past is checked here: depth,
/// element count, attributes per tag (before parsing, see `StartTagScanner`), name length.
enum XMLEventParser {
    struct Options {
        /// Property lists carry a DOCTYPE naming Apple's DTD; `contents` files never do.
        var allowsDocumentType = false
        var limits = LoadLimits.standard
        /// Whether to report character data (only the plist reader needs it).
        var reportsText = false
    }

    enum Event {
        case start(XMLStartTag)
        case end(name: String)
        case text(String)
    }

    /// Parses `bytes` (the whole file) and calls `handle` for each event, in order.
    /// A throw from `handle` stops the parse: an `XMLParseFailure` surfaces as it is, any
    /// other error as `.rejectedByReader` at the parser's position.
    static func parse(
        _ bytes: [UInt8], options: Options = Options(),
        handle: (Event) throws -> Void
    ) throws(XMLParseFailure) {
        try parse(Document(bytes, options: options), options: options, handle: handle)
    }

    /// Parses the whole `document`, or only `part` of it, calling `handle` for each event in order.
    static func parse(
        _ document: Document, part: Part? = nil, options: Options,
        handle: (Event) throws -> Void
    ) throws(XMLParseFailure) {
        try withoutActuallyEscaping(handle) { handle throws(XMLParseFailure) in
            let session = ParseSession(document: document, part: part, options: options, handle: handle)
            try session.run()
        }
    }

    /// A document's bytes, checked before libxml2 sees them (see `StartTagScanner`), with the
    /// table that turns a byte offset into a line and column. Built once, whether the
    /// document is then parsed whole or in parts.
    struct Document: Sendable {
        let bytes: [UInt8]
        let lines: LineTable

        init(_ bytes: [UInt8], options: Options) throws(XMLParseFailure) {
            installRefusingEntityLoader
            let attributeLimit = options.limits.maximumAttributesPerElement
            let (lines, crowded) = Self.scan(bytes, attributeLimit: attributeLimit)
            if let crowded {
                let (line, column) = lines.position(ofByte: crowded.offset)
                throw XMLParseFailure(
                    LoadLimitExceeded(.attributesPerElement, maximum: attributeLimit, subject: "<\(crowded.name)>"),
                    line: line, column: column)
            }
            self.bytes = bytes
            self.lines = lines
        }

        /// From this size on, the two passes over every byte run at once, one per core.
        static let concurrentScanBytes = 512 * 1024

        /// What the two passes find: a pass of its own.
        private enum Scan {
            case lines(LineTable)
            case crowdedTag(StartTagScanner.CrowdedTag?)
        }

        /// The line table and the first tag with too many attributes: two passes over every
        /// byte that need nothing from each other, so a large document (one read in parts) makes
        /// them at once instead of one after the other, which the parse would wait for.
        private static func scan(_ bytes: [UInt8], attributeLimit: Int) -> (LineTable, StartTagScanner.CrowdedTag?) {
            @Sendable func crowdedTag() -> StartTagScanner.CrowdedTag? {
                StartTagScanner.firstTag(in: bytes, withMoreAttributesThan: attributeLimit)
            }
            guard bytes.count >= concurrentScanBytes, ProcessInfo.processInfo.activeProcessorCount > 1 else {
                return (LineTable(bytes), crowdedTag())
            }
            let scans = ConcurrentSlots<Scan>(count: 2)
            ConcurrentWork.perform(iterations: 2) { pass in
                scans[pass] = pass == 0 ? .lines(LineTable(bytes)) : .crowdedTag(crowdedTag())
            }
            // Both tasks have filled their slots when concurrentPerform returns.
            if case .lines(let lines)? = scans[0], case .crowdedTag(let crowded)? = scans[1] { return (lines, crowded) }
            return (LineTable(bytes), crowdedTag())
        }
    }

    /// A run of the root element's content, parsed as a document of its own: the bytes of
    /// `range`, after a bare start tag of the root when the run starts past the root's own, and
    /// before its end tag when the run stops short of the document's end. Several parts of one
    /// document can be parsed at once, one per core (see `ContentsParts`).
    ///
    /// Events report positions in the whole document. A part that fails says only that the
    /// cut was not where a part can start or end, or that the document is malformed; its
    /// message and position are not the whole document's, so a caller parses the document
    /// whole to report it.
    struct Part: Sendable {
        var range: Range<Int>
        /// The root element's name, e.g. `model`.
        var rootName: String
        /// Whether the part starts past the root's start tag, which is then written before it.
        var opensRoot: Bool
        /// Whether the part ends before the root's end tag, which is then written after it.
        var closesRoot: Bool

        /// The bare start tag written before the part's bytes, if any.
        var head: [UInt8] { opensRoot ? Array("<\(rootName)>".utf8) : [] }
        /// The end tag written after the part's bytes, if any.
        var tail: [UInt8] { closesRoot ? Array("</\(rootName)>".utf8) : [] }

        /// The offset in the whole document of the input's first byte (negative past the head).
        var inputOrigin: Int { range.lowerBound - (opensRoot ? rootName.utf8.count + 2 : 0) }
    }

    /// Installed once per process: every external entity or DTD request gets nothing, and
    /// errors libxml2 raises outside any parser (encoding and I/O errors) are dropped instead
    /// of printed to standard error; the parse they break still fails through `serror` or
    /// the well-formedness check, as one `LoadError`. libxml2 keeps this handler per thread:
    /// the thread-default setter covers threads that first use libxml2 later, the plain one
    /// this thread.
    private static let installRefusingEntityLoader: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        xmlThrDefSetStructuredErrorFunc(nil) { _, _ in }
        xmlSetStructuredErrorFunc(nil) { _, _ in }
    }()
}

/// Maps byte offsets to 1-based line and column (in Unicode scalars).
struct LineTable: Sendable {
    private let lineStarts: [Int]
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // memchr looks at many bytes a step; a model has a newline every 100 bytes or so.
            var position = 0
            while position < buffer.count, let found = memchr(base + position, 0x0A, buffer.count - position) {
                position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
                starts.append(position)
            }
        }
        self.lineStarts = starts
        self.bytes = bytes
    }

    /// The length of the document the table was made for.
    var byteCount: Int { bytes.count }

    func position(ofByte offset: Int) -> (line: Int, column: Int) {
        var hint = 0
        return position(ofByte: offset, hint: &hint)
    }

    /// Like `position(ofByte:)`, starting from the line of the previous call: start tags come
    /// in document order, usually a line or two apart, so a few steps forward beat a binary
    /// search over hundreds of thousands of lines. `hint` is that line's index.
    func position(ofByte offset: Int, hint: inout Int) -> (line: Int, column: Int) {
        var low: Int
        if hint < lineStarts.count, lineStarts[hint] <= offset {
            low = hint
            var steps = 0
            while low + 1 < lineStarts.count, lineStarts[low + 1] <= offset, steps < 8 {
                low += 1
                steps += 1
            }
            if low + 1 < lineStarts.count, lineStarts[low + 1] <= offset { low = lineIndex(of: offset) }
        } else {
            low = lineIndex(of: offset)
        }
        hint = low
        var column = 1
        var index = lineStarts[low]
        while index < offset && index < bytes.count {
            // UTF-8 continuation bytes (10xxxxxx) do not start a new scalar.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (low + 1, column)
    }

    /// The index of the line holding `offset`, by binary search.
    private func lineIndex(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The offset of the `<` that opens the tag whose attributes end at `offset`.
    /// Well-formed attribute values cannot hold a raw `<`, so the nearest one is it.
    func tagStart(before offset: Int) -> Int {
        var index = min(offset, bytes.count - 1)
        while index > 0 && bytes[index] != 0x3C { index -= 1 }
        return index
    }

    /// `tagStart(before:)`, searching forward from `earliest`, an offset known to be at or
    /// before the tag's `<` (the previous tag's). Walking back over a tag's attributes byte by
    /// byte cost more than parsing them; `memchr` jumps from one `<` to the next instead.
    func tagStart(before offset: Int, searchingFrom earliest: Int) -> Int {
        let last = min(offset, bytes.count - 1)
        guard earliest >= 0, earliest <= last else { return tagStart(before: offset) }
        let found: Int? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var latest: Int?
            var position = earliest
            while position <= last, let hit = memchr(base + position, 0x3C, last + 1 - position) {
                let index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                latest = index
                position = index + 1
            }
            return latest
        }
        return found ?? tagStart(before: offset)
    }
}

/// The state one parse shares with libxml2's C callbacks, which reach it through
/// `ctxt->userData`.
private final class ParseSession {
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
                    let value = String(decoding: UnsafeBufferPointer(start: valueStart, count: length), as: UTF8.self)
                    let (decoded, known) = session.names.name(at: name)
                    guard session.checkLength(of: decoded, "attribute name", line: line, column: column) else { return }
                    attributes.append(.init(name: decoded, value: value, known: known))
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

/// What one parse hands libxml2: `head`, then the document's bytes in `range`, then `tail`,
/// read front to back in pieces as libxml2 asks for them (see `ParseSession.run`).
struct ParserInput {
    private let bytes: [UInt8]
    private let head: [UInt8]
    private let range: Range<Int>
    private let tail: [UInt8]
    /// How many bytes have been handed out so far.
    private var position = 0

    init(_ bytes: [UInt8], range: Range<Int>, head: [UInt8] = [], tail: [UInt8] = []) {
        self.bytes = bytes
        self.range = range
        self.head = head
        self.tail = tail
    }

    var count: Int { head.count + range.count + tail.count }

    /// Copies the next bytes, at most `maximum`, to `buffer`; returns how many (0 at the end).
    mutating func read(into buffer: UnsafeMutableRawPointer, maximum: Int) -> Int {
        var written = 0
        var position = self.position
        /// Copies what comes next from `segment`, which starts at `start` in the input.
        func take(_ segment: UnsafeRawBufferPointer, startingAt start: Int) {
            let offset = position - start
            guard written < maximum, offset >= 0, offset < segment.count, let base = segment.baseAddress else { return }
            let length = min(segment.count - offset, maximum - written)
            (buffer + written).copyMemory(from: base + offset, byteCount: length)
            written += length
            position += length
        }
        head.withUnsafeBytes { take($0, startingAt: 0) }
        bytes.withUnsafeBytes { take(UnsafeRawBufferPointer(rebasing: $0[range]), startingAt: head.count) }
        tail.withUnsafeBytes { take($0, startingAt: head.count + range.count) }
        self.position = position
        return written
    }
}

/// Names by the pointer libxml2 hands out for them. SAX2 takes element and attribute
/// names from the parser's dictionary, so one name has one pointer for the whole parse:
/// each distinct name is decoded (and looked up in the grammar) once. A small open-addressing
/// table keyed by the pointer's bits avoids hashing strings for every attribute.
struct NameTable {
    private struct Slot {
        var pointer: UnsafePointer<xmlChar>
        var name: String
        var known: KnownXMLName?
    }

    private static let capacity = 512  // a power of two; models use well under 100 names
    private var slots = [Slot?](repeating: nil, count: NameTable.capacity)
    private var count = 0

    mutating func name(at pointer: UnsafePointer<xmlChar>) -> (name: String, known: KnownXMLName?) {
        let mask = Self.capacity - 1
        let bits = UInt(bitPattern: pointer)
        var index = Int((bits >> 4) ^ (bits >> 13)) & mask
        while let slot = slots[index] {
            if slot.pointer == pointer { return (slot.name, slot.known) }
            index = (index + 1) & mask
        }
        let name = String(cString: pointer)
        let known = KnownXMLName(spelling: name)
        // Keep the table at most three quarters full, so probes stay short; past that,
        // names are still decoded correctly, just not remembered.
        if count < Self.capacity * 3 / 4 {
            slots[index] = Slot(pointer: pointer, name: name, known: known)
            count += 1
        }
        return (name, known)
    }
}
