import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tripsync open` as a person runs it: one line with the URL, the server answering on it,
/// Ctrl-C or SIGTERM ending it with exit 0.
@Suite("open command")
struct OpenCommandTests {
    /// Starts `tripsync open --no-browser ARGS` on a new home, returns the process and its first line.
    static func start(_ arguments: [String], home: String) throws -> (Process, Pipe, String) {
        _ = try CLI.run(["init", "--home", home])
        _ = try CLI.run(["new", "Lisbon", "--home", home])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["open", "--no-browser", "--home", home] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first, first != UInt8(ascii: "\n") else { break }
            line.append(first)
        }
        return (process, out, String(decoding: line, as: UTF8.self))
    }

    /// A GET without the cookie, over a plain socket: the status line.
    static func statusLine(port: UInt16) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "no connection" }
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    }

    @Test("prints one line with a loopback URL and a one-time token, serves on it, and SIGTERM or SIGINT ends it with exit 0", arguments: [SIGTERM, SIGINT])
    func oneLineAndCleanStop(_ signalNumber: Int32) throws {
        let home = FileManager.default.temporaryDirectory.path + "/tripsync-open-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }  // the test's own folder
        let (process, out, line) = try Self.start([], home: home)
        let match = line.wholeMatch(of: #/http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})/#)
        let port = try #require(match.flatMap { UInt16($0.1) })
        #expect(Self.statusLine(port: port) == "HTTP/1.1 401 Unauthorized")
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(out.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    @Test("--port N listens on N; a bad port is a usage error")
    func port() throws {
        let home = FileManager.default.temporaryDirectory.path + "/tripsync-open-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }  // the test's own folder
        let bad = try CLI.run(["open", "--no-browser", "--port", "70000", "--home", home])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--port expects a port number"))
        // A free port: ask the system for one, then release it.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        close(probe)
        let chosen = UInt16(bigEndian: address.sin_port)
        let (process, _, line) = try Self.start(["--port", "\(chosen)"], home: home)
        #expect(line.hasPrefix("http://127.0.0.1:\(chosen)/?token="))
        #expect(Self.statusLine(port: chosen) == "HTTP/1.1 401 Unauthorized")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
