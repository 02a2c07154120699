// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TripSync",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TripSync", targets: ["TripSync"]),
        .executable(name: "tripsync", targets: ["tripsync"]),
        .executable(name: "tripsync-bench", targets: ["tripsync-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "TripSync", dependencies: ["CZlib"]),
        .executableTarget(name: "tripsync", dependencies: ["TripSync"]),
        .target(name: "TripSyncFixtures", dependencies: ["TripSync"]),
        .executableTarget(name: "tripsync-bench", dependencies: ["TripSync", "TripSyncFixtures"]),
        .testTarget(name: "TripSyncTests", dependencies: ["TripSync", "TripSyncFixtures"]),
        .testTarget(name: "CLITests", dependencies: ["TripSync", "TripSyncFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
