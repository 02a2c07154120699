// swift-tools-version:6.0
import PackageDescription

let staticStdlib = ["-static-stdlib"]
let linuxRelease = BuildSettingCondition.when(platforms: [.linux], configuration: .release)

// The C libraries TripSync calls (libsodium, libdeflate, OpenSSL's libcrypto, zlib). Their module
// maps name no library: a module map's `link` puts `-lsodium` first on every link line, where the
// shared library wins. So the link is chosen here, per configuration. Linux release builds take
// Debian's static archives by file name (`-l:libsodium.a`, from the -dev packages), so the release
// `tripsync` needs only glibc and GCC's runtime on the machine it runs on (Tests/static/run.sh);
// debug builds, tests and every other platform link the shared libraries as before.
let cLibraries = ["sodium", "deflate", "crypto", "z"]
let notLinux: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS, .driverKit, .android, .windows, .wasi, .openbsd]
let cLibraryLinks: [LinkerSetting] =
    cLibraries.flatMap { name -> [LinkerSetting] in
        [
            .linkedLibrary(name, .when(platforms: notLinux)),
            .linkedLibrary(name, .when(platforms: [.linux], configuration: .debug)),
            .linkedLibrary(":lib\(name).a", linuxRelease),
        ]
    }
    // libcrypto.a's own needs (glibc 2.34 and later keep both inside libc; older ones do not).
    + [.linkedLibrary("dl", linuxRelease), .linkedLibrary("pthread", linuxRelease)]

// libmicrohttpd, the server of `tripsync open` (docs/DESIGN.md, "The server"): shared everywhere
// but Linux release, where Debian's static archive goes inside the binary like the libraries
// above. Its TLS code names GnuTLS, which cannot be linked statically (no static p11-kit in
// Debian); the server never uses TLS, so CMicroHTTPDStatic stubs those names in that build only.
let httpLinks: [LinkerSetting] = [
    .linkedLibrary("microhttpd", .when(platforms: notLinux)),
    .linkedLibrary("microhttpd", .when(platforms: [.linux], configuration: .debug)),
    .linkedLibrary(":libmicrohttpd.a", linuxRelease),
]

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
        // libdeflate writes (and reads) gzip: whole-buffer DEFLATE, about twice zlib's speed.
        .systemLibrary(
            name: "CDeflate",
            path: "Sources/CDeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        // libsodium: SHA-256 for fingerprints (and later Ed25519 signatures).
        .systemLibrary(
            name: "CSodium",
            path: "Sources/CSodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // OpenSSL's libcrypto: SHA-256 of attachments (its SHA256_* functions, the CPU's SHA instructions).
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // libmicrohttpd: HTTP for `tripsync open` (request parsing, urlencoded and multipart bodies).
        .systemLibrary(
            name: "CMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .target(
            name: "CMicroHTTPDStatic", path: "Sources/CMicroHTTPDStatic",
            cSettings: [.define("TRIPSYNC_MHD_STATIC", linuxRelease)]
        ),
        // System calls Swift's Glibc does not expose (a folder's birth time: docs/DESIGN.md, "Forks").
        .target(name: "CSystem", path: "Sources/CSystem"),
        // The library, in layers: each target imports only those above it in this list, so a
        // back-edge fails to compile (docs/DESIGN.md, "Layers").
        // File system and crypto: no trip types.
        .target(
            name: "TripSyncPlatform", dependencies: ["CSodium", "COpenSSL", "CSystem"],
            linkerSettings: cLibraryLinks
        ),
        // The pure core: model, rules, time, order, codec, validation, migration, merge, the
        // document's members and its edits and views.
        .target(name: "TripSyncCore", dependencies: ["TripSyncPlatform", "CZlib", "CDeflate"]),
        // A home: replicas, their device identity and lock, attachments' blobs, invites.
        .target(name: "TripSyncHome", dependencies: ["TripSyncCore", "TripSyncPlatform", "CSystem", "CZlib"]),
        // Sync with a shared folder.
        .target(name: "TripSyncSync", dependencies: ["TripSyncHome", "TripSyncCore", "TripSyncPlatform"]),
        // The app API: the trip store and its editor, imports, exports, reports.
        .target(name: "TripSync", dependencies: ["TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform"]),
        // The browser face (`tripsync open`): the server, its pages and its security; no library logic.
        .target(
            name: "TripSyncWeb", dependencies: ["TripSync", "TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform", "CMicroHTTPD", "CMicroHTTPDStatic"],
            linkerSettings: httpLinks
        ),
        // Release builds on Linux carry the Swift runtime and Foundation inside the binary: it
        // runs on machines without a Swift toolchain, and starts in about 2.6 ms instead of 7.7
        // (no shared libraries to load and relocate; README, first section). The flag goes to the
        // compile as well as the link: with the link alone, Foundation's static libraries miss
        // their ICU symbols.
        .executableTarget(
            name: "tripsync", dependencies: ["TripSync", "TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform", "TripSyncWeb"],
            swiftSettings: [.unsafeFlags(staticStdlib, linuxRelease)],
            linkerSettings: [.unsafeFlags(staticStdlib, linuxRelease)]
        ),
        // CZlib: the PNG fixtures' chunk CRCs (zlib's crc32).
        .target(name: "TripSyncFixtures", dependencies: ["TripSync", "TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform", "CZlib"]),
        .executableTarget(name: "tripsync-bench", dependencies: ["TripSync", "TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform", "TripSyncFixtures", "TripSyncWeb"]),
        .testTarget(name: "TripSyncTests", dependencies: ["TripSync", "TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform", "TripSyncFixtures"]),
        .testTarget(name: "CLITests", dependencies: ["TripSync", "TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform", "TripSyncFixtures"], exclude: ["Snapshots"]),
        .testTarget(name: "WebTests", dependencies: ["TripSync", "TripSyncSync", "TripSyncHome", "TripSyncCore", "TripSyncPlatform", "TripSyncWeb", "TripSyncFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
