/// Where a model came from: its bundle, its version, and how that version was chosen.
public struct ModelVersion: Hashable, Sendable {
    /// How the loader chose which version of a bundle to read.
    public enum Selection: Hashable, Sendable {
        /// `.xccurrentversion` names this version.
        case declaredCurrent
        /// No `.xccurrentversion`, and the bundle holds only this version.
        case onlyVersion
        /// No `.xccurrentversion` and several versions: the one with the highest version number.
        case highestVersionNumber
        /// `.xccurrentversion` names `missingName`, which the bundle does not hold; the
        /// loader fell back to the highest version number.
        case declaredCurrentMissing(missingName: String, declaredAt: SourceLocation)
        /// Loaded because every version was asked for (`--all-versions`), not as the current one.
        case otherVersion
        /// A version folder or `contents` file named directly (as a pre-commit hook does).
        case namedDirectly
        /// A `.xcdatamodel` folder or a `contents` file outside any bundle.
        case standalone
    }

    /// The `.xcdatamodeld` bundle, or nil outside a bundle.
    public var bundlePath: String?
    /// The version's folder name without `.xcdatamodel` (e.g. `Model 2`).
    public var name: String
    /// Every version the bundle holds, in version order.
    public var bundleVersionNames: [String]
    public var selection: Selection

    public init(bundlePath: String?, name: String, bundleVersionNames: [String], selection: Selection) {
        self.bundlePath = bundlePath
        self.name = name
        self.bundleVersionNames = bundleVersionNames
        self.selection = selection
    }

    /// True unless this version was loaded only because every version was asked for.
    public var isCurrent: Bool { selection != .otherVersion }
}
