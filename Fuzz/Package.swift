// swift-tools-version:6.1
// A libFuzzer harness for momlint, kept out of the root package so that `swift build` and
// `swift test` there never see sanitizer flags. Build and run it with `scripts/fuzz.sh`.
import PackageDescription

let package = Package(
    name: "momlint-fuzz",
    dependencies: [
        .package(name: "momlint", path: ".."),
        // The same GRDB momlint uses, to write the crafted stores.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Declares libFuzzer's driver; see Sources/CLibFuzzer/shim.h.
        .systemLibrary(name: "CLibFuzzer"),
        // Feeds each input to the loader and the lint engine. Build with
        // `-Xswiftc -sanitize=fuzzer,address` (scripts/fuzz.sh does).
        .executableTarget(
            name: "LoaderFuzzer",
            dependencies: [
                "CLibFuzzer",
                .product(name: "DataModel", package: "momlint"),
                .product(name: "Linting", package: "momlint"),
            ]
        ),
        // Crafts an SQLite store from each input (hostile schema objects, values, damaged pages,
        // a -journal and a -wal of the input's bytes) and reads it as `momlint store` does;
        // a crash, a hang, a memory blow-up or any change to the crafted files is a finding.
        .executableTarget(
            name: "StoreFuzzer",
            dependencies: [
                "CLibFuzzer",
                .product(name: "DataModel", package: "momlint"),
                .product(name: "SQLiteStore", package: "momlint"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)
