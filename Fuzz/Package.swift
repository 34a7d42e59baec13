// swift-tools-version:6.1
// A libFuzzer harness for momlint, kept out of the root package so that `swift build` and
// `swift test` there never see sanitizer flags. Build and run it with `scripts/fuzz.sh`.
import PackageDescription

let package = Package(
    name: "momlint-fuzz",
    dependencies: [
        .package(name: "momlint", path: ".."),
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
    ]
)
