// swift-tools-version:6.0
// Fuzz targets for TripSync (issue 7). A separate package so that the fuzzer flags never touch
// the main build: `Fuzz/run SECONDS` builds it with `--sanitize=fuzzer --sanitize=address`.
//
// Each fuzz target is an executable whose only entry point is `LLVMFuzzerTestOneInput`;
// `-parse-as-library` keeps Swift from emitting its own `main`, so libFuzzer's `main` runs.
import PackageDescription

let fuzzerEntry: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "TripSyncFuzz",
    dependencies: [
        .package(name: "TripSync", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "TripSync", package: "TripSync")]
        ),
        // zlib for FuzzRead's gzip-wrapping mode (the library's gzip code is internal).
        .systemLibrary(name: "FuzzZlib", path: "Sources/FuzzZlib", providers: [.apt(["zlib1g-dev"])]),
        .executableTarget(
            name: "FuzzRead",
            dependencies: ["FuzzSupport", "FuzzZlib", .product(name: "TripSync", package: "TripSync")],
            swiftSettings: fuzzerEntry
        ),
        // JPEG location (issue 17): JPEGLocation.find and strip on arbitrary bytes.
        .executableTarget(
            name: "FuzzExif",
            dependencies: [.product(name: "TripSync", package: "TripSync")],
            swiftSettings: fuzzerEntry
        ),
        .executableTarget(
            name: "FuzzMerge",
            dependencies: ["FuzzSupport", .product(name: "TripSync", package: "TripSync")],
            swiftSettings: fuzzerEntry
        ),
    ],
    swiftLanguageModes: [.v6]
)
