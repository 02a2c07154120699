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

    /// The printed line: the home's own address, its label and port, and the sign-in page.
    static func parse(_ line: String) -> (label: String, port: UInt16, page: String)? {
        guard let match = line.wholeMatch(of: #/http://([a-z0-9]{20})\.localhost:(\d+)/ \((?:already open; )?sign in through (/\S+\.html)\)/#),
            let port = UInt16(match.2)
        else { return nil }
        return (String(match.1), port, String(match.3))
    }

    /// A GET without the cookie, over a plain socket, naming `host` (the home's own name by
    /// default): the status line.
    static func statusLine(port: UInt16, host: String) -> String {
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
        let request = Array("GET / HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    }

    @Test("prints one line with the home's own address and its private sign-in page, serves on it, and SIGTERM or SIGINT ends it with exit 0", arguments: [SIGTERM, SIGINT])
    func oneLineAndCleanStop(_ signalNumber: Int32) throws {
        let home = FileManager.default.temporaryDirectory.path + "/tripsync-open-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }  // the test's own folder
        let (process, out, line) = try Self.start([], home: home)
        let (label, port, page) = try #require(Self.parse(line))
        #expect(!line.contains("token"))
        #expect(Self.statusLine(port: port, host: label + ".localhost") == "HTTP/1.1 401 Unauthorized")
        #expect(Self.statusLine(port: port, host: "127.0.0.1") == "HTTP/1.1 421 Misdirected Request")
        #expect(FileManager.default.fileExists(atPath: page))
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
        let parsed = try #require(Self.parse(line))
        #expect(parsed.port == chosen)
        #expect(Self.statusLine(port: chosen, host: parsed.label + ".localhost") == "HTTP/1.1 401 Unauthorized")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("a second open on the same home signs the browser in to the running server through a new private page; the browser gets only the page's path")
    func secondOpen() throws {
        let home = FileManager.default.temporaryDirectory.path + "/tripsync-open-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }  // the test's own folder
        let (process, _, line) = try Self.start([], home: home)
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let first = try #require(Self.parse(line))
        // A fake browser records its arguments.
        let record = home + "/browser-arguments"
        let browser = home + "/browser"
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record)'\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o700)
        let second = try CLI.run(["open", "--home", home], environment: ["BROWSER": browser])
        #expect(second.status == 0)
        let again = try #require(Self.parse(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(second.stdout.contains("already open"))
        #expect(again.port == first.port && again.label == first.label)
        #expect(again.page != first.page)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: record) && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let arguments = try String(contentsOfFile: record, encoding: .utf8)
        #expect(arguments == again.page + "\n")
        let html = try String(contentsOfFile: again.page, encoding: .utf8)
        let token = try #require(html.firstMatch(of: #/token=([0-9a-f]{64})/#)).1
        #expect(!arguments.contains(String(token)))
    }

    @Test("--install-launcher writes an app menu entry that passes desktop-file-validate and whose Exec starts open for this home")
    func launcher() throws {
        let home = FileManager.default.temporaryDirectory.path + "/tripsync-open-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }  // the test's own folder
        _ = try CLI.run(["init", "--home", home + "/my home"])
        let data = home + "/data"
        let installed = try CLI.run(["open", "--install-launcher", "--home", home + "/my home"], environment: ["XDG_DATA_HOME": data])
        #expect(installed.status == 0)
        let entry = data + "/applications/tripsync.desktop"
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        #expect(text.hasPrefix("[Desktop Entry]\n"))
        #expect(text.contains("\nExec=") && text.contains("Terminal=false"))
        // The home's path has a space: quoted as the specification asks.
        #expect(text.contains(" --home \"\(home)/my home\" open\n"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") {
            let validate = Process()
            validate.executableURL = URL(fileURLWithPath: "/usr/bin/desktop-file-validate")
            validate.arguments = [entry]
            let output = Pipe()
            validate.standardOutput = output
            validate.standardError = output
            try validate.run()
            validate.waitUntilExit()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(validate.terminationStatus == 0, "\(said)")
            #expect(said.isEmpty, "\(said)")
        }
        // The Exec line runs, as the app menu runs it (its quoting is a subset of the shell's
        // double quotes once the entry's own escaping is undone): the server starts for this home
        // and hands the (fake) browser its sign-in page.
        let exec = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst(5)
            .replacingOccurrences(of: "\\\\", with: "\\").replacingOccurrences(of: "%%", with: "%")
        let record = home + "/browser-arguments"
        let browser = home + "/browser"
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record)'\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o700)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec " + exec]
        process.environment = ProcessInfo.processInfo.environment.merging(["BROWSER": browser]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: record) && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let page = try String(contentsOfFile: record, encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(page.hasPrefix(home + "/my home/open/login-"))
    }
}
