import Foundation

/// A realistic Core Data model of any size, made up from a seed, for benchmarks and tests.
///
/// The model has attributes of every type Xcode offers, to-one, to-many, ordered and
/// many-to-many relationships (each with its inverse), inheritance, uniqueness constraints,
/// fetch indexes, fetched properties, fetch request templates, a CloudKit configuration and
/// userInfo; see `BlueprintPlanner` for what keeps it well-made. The same entity count and
/// seed always give the same bytes.
///
/// ```swift
/// let model = SyntheticModel(entityCount: 1_000, seed: 42)
/// let bundle = try model.write(toFolder: "/tmp/models")  // /tmp/models/Synthetic1000.xcdatamodeld
/// ```
public struct SyntheticModel: Sendable {
    public let entityCount: Int
    public let seed: UInt64
    /// The bundle's and the version's name: `Synthetic1000` for 1,000 entities unless given.
    public let name: String

    /// - Precondition: `entityCount` is at least 1.
    public init(entityCount: Int, seed: UInt64 = 1, name: String? = nil) {
        precondition(entityCount > 0, "a model needs at least one entity")
        self.entityCount = entityCount
        self.seed = seed
        self.name = name ?? "Synthetic\(entityCount)"
    }

    /// The model's `contents` XML, as Xcode would save it.
    ///
    /// - Complexity: O(`entityCount` log `entityCount`): planning is linear, writing sorts by name.
    public func contents() -> String {
        var planner = BlueprintPlanner(entityCount: entityCount, seed: seed)
        return ContentsWriter.contents(of: planner.plan())
    }

    /// Where `write(toFolder:)` puts the bundle.
    public func bundlePath(inFolder folder: String) -> String {
        (folder as NSString).appendingPathComponent(name + ".xcdatamodeld")
    }

    /// Writes `<folder>/<name>.xcdatamodeld` holding one version, `<name>.xcdatamodel/contents`,
    /// and the `.xccurrentversion` that names it, and returns the bundle's path.
    ///
    /// - Parameter replacing: replace a bundle already at that path; without it, an existing
    ///   bundle is an error, so a real model is never overwritten by mistake.
    @discardableResult
    public func write(toFolder folder: String, replacing: Bool = false) throws(GenerationError) -> String {
        let bundle = bundlePath(inFolder: folder)
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: bundle) {
            guard replacing else { throw GenerationError(path: bundle, reason: .alreadyExists) }
            do {
                try fileManager.removeItem(atPath: bundle)
            } catch {
                throw GenerationError(failure: error, writing: bundle)
            }
        }
        let version = (bundle as NSString).appendingPathComponent(name + ".xcdatamodel")
        try Self.write(Data(contents().utf8), to: (version as NSString).appendingPathComponent("contents"))
        try Self.write(Data(currentVersionPropertyList().utf8),
                       to: (bundle as NSString).appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    /// The `.xccurrentversion` property list Xcode writes next to the versions.
    func currentVersionPropertyList() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(ContentsWriter.escaped(name)).xcdatamodel</string>
        </dict>
        </plist>

        """
    }

    private static func write(_ data: Data, to path: String) throws(GenerationError) {
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw GenerationError(failure: error, writing: path)
        }
    }
}

/// Why a synthetic model could not be written; prints as one line naming the path.
public struct GenerationError: Error, Equatable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case alreadyExists
        case unwritable(String)
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Names the path that failed and the system's reason (`not a directory`), not Foundation's
    /// generic "the operation could not be completed".
    init(failure: any Error, writing path: String) {
        let error = failure as NSError
        let failedPath = error.userInfo[NSFilePathErrorKey] as? String ?? path
        // On Linux the underlying error is a Swift error, not an NSError: cast through `any Error`.
        // Its description wraps strerror's text in boilerplate, so ask strerror directly.
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let why = if let underlying, underlying.domain == NSPOSIXErrorDomain {
            String(cString: strerror(Int32(underlying.code)))
        } else {
            error.localizedDescription
        }
        self.init(path: failedPath, reason: .unwritable(why.prefix(1).lowercased() + why.dropFirst()))
    }

    public var description: String {
        switch reason {
        case .alreadyExists: "\(path): error: already exists; pass --force to replace it"
        case .unwritable(let why): "\(path): error: cannot write: \(why)"
        }
    }
}
