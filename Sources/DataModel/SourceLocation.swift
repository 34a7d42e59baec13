import Foundation

/// Where an element starts in a file: the `<` of its start tag.
///
/// Lines and columns count from 1. Columns count Unicode scalars, not bytes, so a
/// location reads the same in an editor as in a report.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The file, by its number in `SourceFiles`. Every element of a model has a location and
    /// they all name one file: a path string in each was a reference-counted object per
    /// element, retained and released on every copy of the element, and counted by every core
    /// that lints the model at once. A number makes a location plain bits.
    private var fileNumber: SourceFiles.Number
    public var line: Int
    public var column: Int

    /// The path, exactly as it was given.
    public var file: String {
        get { SourceFiles.shared.path(numbered: fileNumber) }
        set { fileNumber = SourceFiles.shared.number(of: newValue) }
    }

    public init(file: String, line: Int, column: Int) {
        self.fileNumber = SourceFiles.shared.number(of: file)
        self.line = line
        self.column = column
    }

    /// A location in the same file as `other`: for a reader that makes one per element, without
    /// looking the path up each time.
    public init(line: Int, column: Int, inFileOf other: SourceLocation) {
        self.fileNumber = other.fileNumber
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and Xcode turn into a link.
    public var description: String { "\(PrintableText.escaped(file)):\(line):\(column)" }

    /// Hashes the line and column only: within a file they tell elements apart. Equality
    /// compares the file too (one number per distinct path).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(column)
    }

    /// By path, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        // Sorting a run's findings compares locations in one file nearly every time.
        if lhs.fileNumber == rhs.fileNumber { return (lhs.line, lhs.column) < (rhs.line, rhs.column) }
        let (left, right) = (lhs.file, rhs.file)
        // Two files whose paths `String` holds equal are still two: their bytes order them.
        return left != right ? left < right : left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}

/// Every path a `SourceLocation` has named in this process, each kept once and numbered in the
/// order first seen. Paths are told apart by their bytes, as the file system tells files apart
/// (two spellings `String` holds equal, such as composed and decomposed accents, are two files).
/// Nothing is ever removed: a process names few files, each once however many elements it has.
final class SourceFiles: @unchecked Sendable {
    typealias Number = UInt32

    static let shared = SourceFiles()

    private let lock = NSLock()
    private var paths: [String] = []
    /// The numbers of the paths `String` holds equal to the key: nearly always one. Keyed by
    /// `String`, whose `Hashable` conformance the runtime has looked up long before; a key
    /// type of its own (the bytes) made the first lookup search the binary's conformances, a
    /// tenth of a small model's whole run (docs/benchmarks.md, "Start-up").
    private var numbers: [String: [Number]] = [:]

    func number(of path: String) -> Number {
        lock.lock()
        defer { lock.unlock() }
        let candidates = numbers[path] ?? []
        if let number = candidates.first(where: { paths[Int($0)].utf8.elementsEqual(path.utf8) }) { return number }
        precondition(paths.count < Int(Number.max), "more distinct file paths than a location can number")
        let number = Number(paths.count)
        paths.append(path)
        numbers[path] = candidates + [number]
        return number
    }

    func path(numbered number: Number) -> String {
        lock.lock()
        defer { lock.unlock() }
        return paths[Int(number)]
    }
}
