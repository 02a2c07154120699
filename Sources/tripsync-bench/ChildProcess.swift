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
