// swift-tools-version:6.0
// An app's view of the library (issue 27): a separate package that depends on the `TripSync`
// product and imports nothing else, so it sees only the public API (a package's `package`
// declarations are invisible here). Tests/app/run.sh builds it and runs the jobs of
// docs/DESIGN.md, "The app API", against the bundled samples.
import PackageDescription

let package = Package(
    name: "TripSyncAppExample",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "TripSync", path: "../..")],
    targets: [
        .executableTarget(
            name: "TripSyncAppExample",
            dependencies: [.product(name: "TripSync", package: "TripSync")]
        )
    ],
    swiftLanguageModes: [.v6]
)
