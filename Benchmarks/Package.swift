// swift-tools-version:6.1
// momlint's benchmarks: a separate package so the root `swift build` and `swift test` never
// build the benchmark harness. Run through `scripts/benchmarks.sh`, or directly with
// `swift package --package-path Benchmarks benchmark`.
import PackageDescription

let package = Package(
    name: "momlint-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "momlint", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        .executableTarget(
            name: "MomlintBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DataModel", package: "momlint"),
                .product(name: "Linting", package: "momlint"),
                .product(name: "ModelDiff", package: "momlint"),
                .product(name: "ModelGenerator", package: "momlint"),
                .product(name: "VersionHashes", package: "momlint"),
                .product(name: "Conformance", package: "momlint"),
                .product(name: "ReferenceStore", package: "momlint"),
                .product(name: "SQLiteStore", package: "momlint"),
                .product(name: "ProcessAdapter", package: "momlint"),
                .product(name: "SQLiteCascadeBenchmark", package: "momlint"),
                .product(name: "SwiftDataModel", package: "momlint"),
                .product(name: "SourceConsistency", package: "momlint"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            path: "Benchmarks/MomlintBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
