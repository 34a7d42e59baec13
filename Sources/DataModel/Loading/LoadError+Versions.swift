extension LoadError {
    /// True when the file is in a format momlint cannot read but Xcode can still build (Xcode 3's
    /// binary `elements`/`layout`, a binary property list): for a version that is not the one
    /// linted, a note. Any other failure means the version is not well-formed, and Xcode's model
    /// compiler, which compiles every version of a bundle, cannot build it: an error wherever the
    /// version is (docs/migrations.md, "Every version must build").
    public var isFormatMomlintCannotRead: Bool {
        switch reason {
        case .legacyBinaryFormat, .binaryPropertyList: true
        default: false
        }
    }
}
