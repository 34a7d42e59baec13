import DataModel

/// A bundle whose `.xccurrentversion` names a version the bundle does not hold.
public struct InvalidCurrentVersionRule: Rule {
    public static let description = RuleDescription(
        id: "invalid_current_version",
        name: "Invalid Current Version",
        summary: "A bundle's .xccurrentversion names a model version the bundle does not hold.",
        rationale: """
            `.xccurrentversion` tells Xcode which version of an `.xcdatamodeld` is current: it becomes \
            the `.momd`'s current model, the one a persistent container loads and migrates stores to. \
            When it names a version that is not in the bundle (renamed, deleted, or not committed), the \
            build compiles another version or fails, and the app may open stores with an older model \
            than the developer edited. momlint then lints the highest version instead and says so.

            Default severity: error. The compiled `.momd` names a current model it does not contain \
            (inferred), so the build or the loading of the model by name fails, or the app silently \
            opens its stores with another version than the one the developer edited.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/using-lightweight-migration",
            "docs/coredata-semantics.md §6 Files",
        ],
        howToFix: "Select the current version again in Xcode's File inspector (Model Version), or fix the name in .xccurrentversion.",
        category: .structure,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                    <key>_XCCurrentVersionName</key>
                    ↓<string>Missing.xcdatamodel</string>
                </dict>
                </plist>
                """, document: .currentVersionFile),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                    <key>_XCCurrentVersionName</key>
                    <string>Example.xcdatamodel</string>
                </dict>
                </plist>
                """, document: .currentVersionFile),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        guard case .declaredCurrentMissing(let missingName, let declaredAt) = model.version.selection else { return [] }
        let bundle = model.version.bundlePath.map { ($0 as String).split(separator: "/").last.map(String.init) ?? $0 } ?? "the bundle"
        let available = model.version.bundleVersionNames.map { "'\($0)'" }.joined(separator: ", ")
        return [Violation(
            message: ".xccurrentversion names '\(missingName)', which is not in \(bundle) (it holds \(available)); "
                + "select an existing version as current",
            location: declaredAt,
            suggestion: model.version.bundleVersionNames.last.map { "set the current version to '\($0).xcdatamodel'" })]
    }
}
