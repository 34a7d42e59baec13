import Foundation
import CLibXML2

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

        /// The line table and the first tag with too many attributes: two passes over every
        /// byte that need nothing from each other, so a document read in parts (`ContentsParts`)
        /// makes them at once, one per core, instead of one after the other while the parse waits.
        private static func scan(_ bytes: [UInt8], attributeLimit: Int) -> (LineTable, StartTagScanner.CrowdedTag?) {
            @Sendable func crowdedTag() -> StartTagScanner.CrowdedTag? {
                StartTagScanner.firstTag(in: bytes, withMoreAttributesThan: attributeLimit)
            }
            guard ContentsParts.partCount(forBytes: bytes.count) > 1 else { return (LineTable(bytes), crowdedTag()) }
            let lines = ConcurrentSlots<LineTable>(count: 1)
            let crowded = ConcurrentSlots<StartTagScanner.CrowdedTag?>(count: 1)
            ConcurrentWork.perform(iterations: 2) { pass in
                if pass == 0 { lines[0] = LineTable(bytes) } else { crowded[0] = .some(crowdedTag()) }
            }
            // Both tasks have filled their slots when concurrentPerform returns.
            return (lines[0]!, crowded[0]!)
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
