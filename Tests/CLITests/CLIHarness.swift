import Foundation

/// Runs the built `tripsync` binary and captures what it printed.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The `tripsync` binary next to the test bundle (SwiftPM builds every product for `swift test`).
    static let binary: String = {
        var url = Bundle.main.bundleURL
        for candidate in [url.appendingPathComponent("tripsync"), url.deletingLastPathComponent().appendingPathComponent("tripsync")] {
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        url = URL(fileURLWithPath: root + "/.build/debug/tripsync")
        return url.path
    }()

    /// Runs `tripsync ARGS` with the given environment additions and standard input closed.
    static func run(_ arguments: [String], environment: [String: String] = [:], cwd: String? = nil) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: cwd ?? root)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes fully before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A new empty folder.
    static func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "tripsync-cli-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A home whose device is Alex's laptop (so merge outputs are reproducible).
    static func alexHome() -> String {
        let home = temporaryFolder()
        let json = #"{"deviceId":"a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d","format":1,"highWater":0,"name":"Alex's laptop"}"#
        FileManager.default.createFile(atPath: home + "/device.json", contents: Data((json + "\n").utf8))
        return home
    }
}
