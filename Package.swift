// swift-tools-version:6.1
// momlint: a linter and a behavioural conformance suite for Core Data models.
import PackageDescription

let package = Package(
    name: "momlint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "momlint", targets: ["momlint"]),
        .library(name: "DataModel", targets: ["DataModel"]),
        .library(name: "Linting", targets: ["Linting"]),
        .library(name: "SourceConsistency", targets: ["SourceConsistency"]),
        .library(name: "SwiftDataModel", targets: ["SwiftDataModel"]),
        .library(name: "Conformance", targets: ["Conformance"]),
        .library(name: "ReferenceStore", targets: ["ReferenceStore"]),
        .library(name: "ModelExport", targets: ["ModelExport"]),
        .library(name: "ProcessAdapter", targets: ["ProcessAdapter"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .library(name: "Configuring", targets: ["Configuring"]),
        .library(name: "SafeYAML", targets: ["SafeYAML"]),
        .library(name: "SafeFiles", targets: ["SafeFiles"]),
        .plugin(name: "LintModels", targets: ["LintModels"]),
        .library(name: "ModelGenerator", targets: ["ModelGenerator"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "SQLiteCascadeBenchmark", targets: ["SQLiteCascadeBenchmark"]),
        .library(name: "ModelDiff", targets: ["ModelDiff"]),
        .library(name: "VersionHashes", targets: ["VersionHashes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // SHA-256/SHA-512 for Core Data's version hashes (BoringSSL on Linux, CryptoKit on Apple's).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // libxml2, reached through a module map; see Sources/CLibXML2/shim.h.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // The parsed Core Data model (immutable values) and the loader that builds it.
        // Knows nothing of rules, reporters or stores.
        .target(name: "DataModel", dependencies: ["CLibXML2", "SafeFiles", "CAllocatorTuning"]),
        // Reading files someone else named (regular files only, never blocking on a FIFO or a
        // terminal) and writing reports (never replacing a link, a FIFO or a device).
        .target(name: "SafeFiles"),
        // The rule engine and the rule catalogue: a model in, findings out.
        .target(name: "Linting", dependencies: ["DataModel", "SafeFiles", "ModelDiff", "VersionHashes"]),
        // The schema diff between two versions of a model, each change classified for migration
        // (version hash, lightweight, data loss), and a bundle's versions in order. Used by the
        // migration rules, `momlint diff`/`versions` and the stores' migration.
        .target(name: "ModelDiff", dependencies: ["DataModel", "SafeFiles", "VersionHashes"]),
        // Core Data's own identity of a model: every entity's and property's version hash and the
        // model's digest, computed from the parsed model as Core Data computes them
        // (docs/version-hashes.md). Used by export, versions, the migration rules and the stores.
        .target(name: "VersionHashes", dependencies: ["DataModel", "SafeFiles", .product(name: "Crypto", package: "swift-crypto")]),
        // Model–code consistency: hand-written NSManagedObject subclasses (parsed with
        // swift-syntax) checked against the entities they represent.
        .target(
            name: "SourceConsistency",
            dependencies: [
                "DataModel", "Linting", "SafeFiles",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                // For the parser's own wording of syntax errors ("expected '}' to end class").
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
            ]
        ),
        // SwiftData `@Model` classes (parsed with swift-syntax) read into the same `Model` the
        // rules check; shares the Swift file discovery of SourceConsistency.
        .target(
            name: "SwiftDataModel",
            dependencies: [
                "DataModel", "Linting", "SourceConsistency", "ModelDiff", "VersionHashes",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
        // The behavioural conformance suite: scenarios, the store adapter contract, the runner,
        // reporters. Knows nothing of the linter.
        .target(
            name: "Conformance",
            dependencies: ["DataModel", "ModelDiff", "SafeYAML", "SafeFiles", .product(name: "Yams", package: "Yams")]
        ),
        // The in-memory oracle store: Core Data's delete, validation and merge semantics as the
        // scenarios define them.
        .target(name: "ReferenceStore", dependencies: ["DataModel", "Conformance", "ModelDiff"]),
        // Runs the scenarios against Apple's Core Data; empty where Core Data does not exist
        // (every source is inside `#if canImport(CoreData)`), so unverified on Linux.
        .target(name: "CoreDataStoreAdapter", dependencies: ["DataModel", "Conformance"]),
        // The model as normalized JSON (`momlint export`), for stores and tools in other languages.
        .target(name: "ModelExport", dependencies: ["DataModel", "VersionHashes"]),
        // A store in any language, run as a child process speaking line-delimited JSON
        // (`--adapter exec:COMMAND`; docs/implementers.md). Knows nothing of the linter.
        .target(name: "ProcessAdapter", dependencies: ["Conformance", "ModelExport", "CProcessControl", "SafeFiles"]),
        // prctl(PR_SET_CHILD_SUBREAPER), which Swift cannot call (it is variadic), for ProcessAdapter.
        .target(name: "CProcessControl"),
        // glibc's mallopt and huge-page advice for the momlint executable (momlint_tune_allocator), and
        // the same advice for the worker threads of DataModel's ConcurrentWork once it has run.
        .target(name: "CAllocatorTuning"),
        // Reporters (findings in, text out) and the entity-relationship graph renderers.
        .target(name: "Reporting", dependencies: ["Linting", "DataModel", "SafeFiles"]),
        // YAML from untrusted files, bounded in size, depth and alias expansion before Yams
        // composes it; shared by the configuration and scenario loaders.
        .target(name: "SafeYAML", dependencies: ["SafeFiles", .product(name: "Yams", package: "Yams")]),
        // `.momlint.yml`: finding it, reading it with Yams, and turning it into an engine.
        .target(
            name: "Configuring",
            dependencies: ["Linting", "DataModel", "ModelDiff", "SafeYAML", .product(name: "Yams", package: "Yams")]
        ),
        // Synthetic, well-made models of any size for benchmarks and tests. Writes XML only:
        // it shares no code with the loader, so loading its output is a real check of both.
        .target(name: "ModelGenerator"),
        // A Core Data–shaped SQLite store (Z_PK/Z_ENT/Z_OPT tables) implementing the store
        // adapter contract; usable on its own as a library. Knows nothing of the linter.
        .target(
            name: "SQLiteStore",
            dependencies: [
                "Conformance", "DataModel", "ModelDiff", "VersionHashes", "SafeFiles", "CSQLiteDefences",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // SQLite's defensive settings, limits and time budget for a file someone else made
        // (sqlite3_db_config is variadic, which Swift cannot call), and removal of momlint's
        // private copies when a signal ends the process.
        .target(name: "CSQLiteDefences", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The cascade data sets (100,000 children, a 1,000,000-node chain), deleted through
        // the SQLite store and by plain SQL, for the benchmarks package and the report script.
        .target(
            name: "SQLiteCascadeBenchmark",
            dependencies: ["SQLiteStore", "DataModel", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Test helper for SQLiteCrashSafetyTests: one large save, killed part-way by the test.
        .executableTarget(name: "sqlite-crash-child", dependencies: ["SQLiteStore", "Conformance", "DataModel"]),
        // Writes reports/sqlite-cascade.md: `swift run -c release sqlite-cascade-report`.
        .executableTarget(name: "sqlite-cascade-report", dependencies: ["SQLiteCascadeBenchmark"]),
        // `momlint lint` as a value and its run: configuration, loading, rules, reports, exit status.
        .target(
            name: "LintDriver",
            dependencies: [
                "Configuring", "DataModel", "Linting", "ModelDiff", "Reporting", "SafeFiles", "SourceConsistency",
                "SwiftDataModel",
            ]
        ),
        // The command-line tool: thin commands over the libraries.
        .executableTarget(
            name: "momlint",
            dependencies: [
                "LintDriver", "DataModel", "Linting", "SourceConsistency", "SwiftDataModel", "Conformance", "ReferenceStore",
                "CoreDataStoreAdapter",
                "ModelExport", "ProcessAdapter", "Reporting", "Configuring", "ModelGenerator",
                "SQLiteStore", "SafeFiles", "ModelDiff", "VersionHashes", "CAllocatorTuning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What several test targets share (fixtures, readers of their output); not a test target,
        // and `PackageManifestTests` allows no other folder under Tests/ that is not one.
        .target(name: "MomlintTestSupport", dependencies: ["DataModel"], path: "Tests/MomlintTestSupport"),
        .testTarget(name: "DataModelTests", dependencies: ["DataModel", "MomlintTestSupport"]),
        .testTarget(name: "SafeFilesTests", dependencies: ["SafeFiles"]),
        .testTarget(name: "SafeYAMLTests", dependencies: ["SafeYAML", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "LintingTests", dependencies: ["Linting", "DataModel", "ModelDiff", "VersionHashes"]),
        // GRDB: to give copies of real stores the damage and history a test needs.
        .testTarget(name: "MomlintCLITests", dependencies: ["momlint", "LintDriver", "CAllocatorTuning", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "SourceConsistencyTests", dependencies: ["SourceConsistency", "Linting", "DataModel"]),
        .testTarget(
            name: "SwiftDataModelTests",
            dependencies: [
                "SwiftDataModel", "SourceConsistency", "Linting", "DataModel", "ModelGenerator", "ModelDiff",
                "VersionHashes", .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["Conformance", "ReferenceStore", "DataModel", "MomlintTestSupport",
                           .product(name: "Yams", package: "Yams")]
        ),
        .testTarget(name: "ModelGeneratorTests", dependencies: ["ModelGenerator", "DataModel", "Linting"]),
        // Kills a saving child process at many points and checks the file holds one whole state.
        // `PackageManifestTests` fails if a folder under Tests/ has no test target here.
        .testTarget(
            name: "SQLiteCrashSafetyTests",
            dependencies: [
                "SQLiteStore", "Conformance", "DataModel", "sqlite-crash-child",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "ModelExportTests", dependencies: ["ModelExport", "DataModel"]),
        .testTarget(name: "ModelDiffTests", dependencies: ["ModelDiff", "DataModel", "MomlintTestSupport", "VersionHashes", "ModelGenerator"]),
        // The golden test over Core Data's own hashes (read from ../shared when present) and one
        // test per rule of the serialization.
        .testTarget(name: "VersionHashesTests", dependencies: ["VersionHashes", "DataModel", "MomlintTestSupport"]),
        // Runs the Python shims in Shims/ and Examples/ (read from the source tree, not bundled).
        .testTarget(
            name: "ProcessAdapterTests",
            dependencies: ["ProcessAdapter", "Conformance", "DataModel"],
            exclude: ["Shims"]
        ),
        .testTarget(
            name: "ReportingTests",
            dependencies: ["Reporting", "Configuring", "Linting", "DataModel", "MomlintTestSupport"],
            exclude: ["Expected", "Fixtures", "Schemas"]
        ),
        // `swift package lint-models`: lints the models of the package it runs in. It builds
        // momlint when run instead of declaring it a dependency, which would make every
        // `swift build` compile momlint again for the host.
        .plugin(
            name: "LintModels",
            capability: .command(
                intent: .custom(verb: "lint-models", description: "Lint the package's Core Data models with momlint")
            )
        ),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: [
                "SQLiteStore", "SQLiteCascadeBenchmark", "Conformance", "DataModel", "ModelDiff", "VersionHashes",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

// The pre-commit hook's build (`scripts/pre-commit-hook` sets MOMLINT_HOOK_BUILD=1): only the
// `momlint` executable, without swift-syntax and GRDB, whose release builds made the first
// hook install take over ten minutes on two cores. swift-crypto stays: the migration rules
// (shipped_version_modified above all, which a pre-commit hook exists for) decide by Core
// Data's version hashes. Without them `lint --sources` is skipped
// with a note and the `sqlite` conformance adapters are absent; everything else is the same
// momlint. docs/ci.md has the measured install time.
if Context.environment["MOMLINT_HOOK_BUILD"] == "1" {
    let heavyTargets: Set<String> = ["SwiftDataModel", "SQLiteStore", "CSQLiteDefences", "SQLiteCascadeBenchmark", "sqlite-crash-child", "sqlite-cascade-report"]
    let heavyPackages: Set<String> = ["swift-syntax", "GRDB.swift", "swift-collections"]
    package.products = package.products.filter { $0.name == "momlint" }
    package.targets = package.targets.filter { target in
        target.type != .test && target.type != .plugin && !heavyTargets.contains(target.name)
            && !(target.path?.hasPrefix("Tests/") ?? false)
    }
    for target in package.targets where target.type == .regular || target.type == .executable {
        target.dependencies = target.dependencies.filter { dependency in
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): !heavyTargets.contains(name)
            case .productItem(_, let package, _, _): !heavyPackages.contains(package ?? "")
            @unknown default: true
            }
        }
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("MOMLINT_HOOK_BUILD")]
    }
    package.dependencies = package.dependencies.filter { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return true }
        return !heavyPackages.contains { location.hasSuffix("/\($0)") }
    }
}
