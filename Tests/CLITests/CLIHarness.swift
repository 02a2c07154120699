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

    /// Whether faketime can run the binary: installed, and this build is not instrumented by
    /// AddressSanitizer (`.ci/run`'s second run). libfaketime and ASan both intercept the clock
    /// while the program starts, and an instrumented `tripsync` under faketime hangs there for
    /// good (seen in CI), so the cases that need faketime run in the plain `swift test` only.
    static let faketimeUsable: Bool = {
        let installed = ["/usr/bin/faketime", "/usr/local/bin/faketime"].contains { FileManager.default.isExecutableFile(atPath: $0) }
        return installed && !underAddressSanitizer
    }()

    /// Whether this test process, and so the `tripsync` built with it, runs under AddressSanitizer.
    static let underAddressSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    /// Why a faketime case is left out, for its `.enabled(if:)`.
    static let faketimeMissing = "needs faketime (apt-get install -y faketime; .ci/run installs it), and a build without AddressSanitizer, under which faketime hangs the binary"

    /// Runs `tripsync ARGS` with the given environment additions and standard input closed.
    static func run(_ arguments: [String], environment: [String: String] = [:], cwd: String? = nil) throws -> CLIResult {
        var env = ProcessInfo.processInfo.environment
        // The machine's zone shows in `show` ("your time"): UTC unless a test names another, so
        // snapshots read the same on every machine.
        env["TZ"] = "UTC"
        for (key, value) in environment { env[key] = value }
        let (status, outData, errData) = try spawn(binary, arguments, environment: env, cwd: cwd ?? root)
        return CLIResult(status: status, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a program with standard input closed and returns its exit status and what it wrote.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, cwd: String
    ) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = URL(fileURLWithPath: cwd)
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
        return (process.terminationStatus, outData, errData)
    }

    /// Runs `tripsync ARGS` on a pseudo-terminal (stdin, stdout and stderr all the terminal, as a
    /// person meets it), driven by python3's `pty` module: after each question the command asks
    /// (a line ending in `? ` or `: `), the next answer is typed followed by Enter; a nil answer
    /// is Ctrl-D (end of input). `stdout` holds everything the terminal showed (echoed answers
    /// included); `stderr` is the driver's own complaints, if any.
    static func runInTerminal(_ arguments: [String], answers: [String?], timeoutSeconds: Int = 60) throws -> CLIResult {
        let driver = temporaryFolder() + "/pty-driver.py"
        defer { try? FileManager.default.removeItem(atPath: (driver as NSString).deletingLastPathComponent) }
        try Data(ptyDriver.utf8).write(to: URL(fileURLWithPath: driver))
        let encoded = try JSONSerialization.data(withJSONObject: answers.map { answer -> Any in answer.map { $0 as Any } ?? NSNull() })
        let (driverStatus, outData, errData) = try spawn(
            "/usr/bin/env", ["python3", driver, binary, String(decoding: encoded, as: UTF8.self), String(timeoutSeconds)] + arguments, cwd: root)
        // The driver prints {"status": N, "output": "..."}; a failed driver is a failed test.
        guard driverStatus == 0,
            let object = try JSONSerialization.jsonObject(with: outData) as? [String: Any],
            let status = object["status"] as? Int, let output = object["output"] as? String
        else {
            return CLIResult(status: -1, stdout: String(decoding: outData, as: UTF8.self), stderr: "pty driver failed: " + String(decoding: errData, as: UTF8.self))
        }
        return CLIResult(status: Int32(status), stdout: output.replacingOccurrences(of: "\r\n", with: "\n"), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The python3 side of `runInTerminal`.
    static let ptyDriver = #"""
        import json, os, pty, select, sys, time
        binary, answers, timeout, args = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(binary, [binary] + args)
        output = b""
        deadline = time.time() + timeout
        def asks(mark):
            # A new question: output after the last answer, past its echo's line end, that ends
            # in "? " or ": " and then stops (the command waits for the answer).
            tail = output[mark:]
            return (mark == 0 or b"\n" in tail) and tail.endswith((b"? ", b": "))
        def read(mark):
            # Reads until a new question (mark is not None) or the end of the output.
            global output
            while time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if not ready:
                    if mark is not None and asks(mark):
                        return True
                    continue
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                output += chunk
            return False
        mark = 0
        for answer in answers:
            if not read(mark):
                break
            mark = len(output)
            os.write(fd, b"\x04" if answer is None else answer.encode() + b"\r")
        read(None)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            # Still waiting past the deadline (a question nobody answers): end it, the test fails.
            os.kill(pid, 9)
            _, status = os.waitpid(pid, 0)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
        print(json.dumps({"status": code, "output": output.decode("utf-8", "replace")}))
        """#

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
