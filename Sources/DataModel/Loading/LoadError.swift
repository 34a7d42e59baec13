/// Why an input could not be loaded. Each case reads as one line naming the file and,
/// for XML errors, the line and column.
public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        case notFound
        /// A folder holding no `.xcdatamodeld` or `.xcdatamodel`, or a file that is not a model.
        case notAModel(String)
        /// Xcode 3's binary format: `elements` and `layout` files, no `contents`.
        case legacyBinaryFormat
        /// A `contents` file that is a binary property list rather than XML.
        case binaryPropertyList
        case emptyFile
        /// A FIFO, device or socket (often through a symlink) where a file was expected; the kind, in words.
        case notARegularFile(String)
        case tooLarge(bytes: Int, limit: Int)
        case unreadable(String)
        case malformedXML(String)
        /// A DOCTYPE or a declaration inside one, refused on purpose.
        case refusedXML(String)
        /// An input past one of `LoadLimits`, refused before it costs unbounded time or memory.
        case overLimit(LoadLimitExceeded)
        /// An `.xcdatamodeld` that holds no `.xcdatamodel` version.
        case emptyBundle
    }

    public var path: String
    public var line: Int?
    public var column: Int?
    public var reason: Reason

    public init(path: String, line: Int? = nil, column: Int? = nil, reason: Reason) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `path[:line:column]`, the place to look.
    public var place: String {
        guard let line else { return path }
        return "\(path):\(line):\(column ?? 1)"
    }

    public var message: String {
        switch reason {
        case .notFound:
            "no such file or directory"
        case .notAModel(let why):
            why
        case .legacyBinaryFormat:
            "this model is in the binary format of Xcode 3 and earlier ('elements' and 'layout', no 'contents'); "
                + "open it in a current Xcode and save it to convert it to XML"
        case .binaryPropertyList:
            "the file is a binary property list, not XML; open the model in a current Xcode and save it "
                + "to write it as XML"
        case .emptyFile where path.split(separator: "/").last == ".xccurrentversion":
            "the file is empty; a bundle's .xccurrentversion is a property list that names its current version"
        case .emptyFile:
            "the file is empty; a model's contents file holds a <model> element"
        case .notARegularFile(let kind):
            "not a regular file (\(kind)); momlint reads only regular files, never a FIFO, a device or a terminal"
        case .tooLarge(let bytes, let limit):
            "the file is \(bytes) bytes, over the limit of \(limit) bytes for a model; "
                + LoadLimits.Limit.fileBytes.advice
        case .unreadable(let why):
            "cannot read: \(why)"
        case .malformedXML(let why):
            "malformed XML: \(why)"
        case .refusedXML(let why):
            "refused: \(why)"
        case .overLimit(let exceeded):
            exceeded.message
        case .emptyBundle:
            "the .xcdatamodeld bundle holds no .xcdatamodel version"
        }
    }

    /// The message without advice to convert the file, for an older version of a bundle: old
    /// versions must never change, so re-saving one is not the fix.
    public var problem: String {
        switch reason {
        case .legacyBinaryFormat:
            "it is in the binary format of Xcode 3 and earlier ('elements' and 'layout', no 'contents'), "
                + "which momlint cannot read"
        case .binaryPropertyList:
            "its contents file is a binary property list, which momlint cannot read"
        default:
            message
        }
    }

    /// `path:line:column: error: message`, the form editors turn into a link.
    public var description: String { PrintableText.escaped("\(place): error: \(message)") }
}

extension LoadError {
    /// The error for a file libxml2 or a reader refused, at the place it names.
    init(xml failure: XMLParseFailure, path: String) {
        let reason: Reason = switch failure.kind {
        case .malformed: .malformedXML(failure.message)
        case .refused: .refusedXML(failure.message)
        case .overLimit(let exceeded): .overLimit(exceeded)
        case .rejectedByReader: .notAModel(failure.message)
        }
        self.init(path: path, line: failure.line, column: failure.column, reason: reason)
    }
}

/// Something the loader wants the user to know that is not an error.
public struct LoadNote: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { PrintableText.escaped("\(path): note: \(message)") }
}
