import Foundation

/// A benchmark failure with a message for the person running it.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs helper processes (the bench itself, `python3`) and collects their standard output.
enum ChildProcess {
    /// The absolute path of the running executable.
    static func currentExecutable() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Runs `executable` with `arguments`, waits, and returns its standard output; standard error
    /// passes through. Throws when it exits with a non-zero status.
    static func run(executable: String, arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let command = ([executable] + arguments).joined(separator: " ")
            throw BenchError("\(command) exited with status \(process.terminationStatus)")
        }
        return output
    }
}

/// What one timed child process cost.
struct ChildRun {
    /// Wall time from spawning the child to reaping it, in milliseconds.
    var milliseconds: Double
    /// The child's peak resident set (`ru_maxrss` from `wait4`), in bytes.
    var peakRSSBytes: Int
}

extension ChildProcess {
    /// Runs `executable` with its output sent to /dev/null and times it from `posix_spawn` to
    /// `wait4`. Foundation's `Process.waitUntilExit` polls a run loop and adds tens of
    /// milliseconds to a short child, so timed runs do not go through it.
    static func timed(executable: String, arguments: [String], environment: [String: String]) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw BenchError("wait4 failed for \(executable): \(String(cString: strerror(errno)))") }
        }
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        // WIFEXITED and WEXITSTATUS, spelled out (the C macros are not imported).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw BenchError("\(([executable] + arguments).joined(separator: " ")) failed (wait status \(status))")
        }
        let nanoseconds = Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
        return ChildRun(milliseconds: nanoseconds / 1e6, peakRSSBytes: Int(usage.ru_maxrss) * 1024)
    }
}
