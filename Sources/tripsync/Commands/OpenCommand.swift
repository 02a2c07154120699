import Foundation
import TripSync
import TripSyncWeb

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tripsync open [--port N] [--no-browser]`: this home in the browser (TripSyncWeb).
enum OpenCommand: Command {
    static let spec = CommandSpec(
        name: "open",
        summary: "plan in the browser: serve this home on loopback until Ctrl-C",
        forms: ["[--port] [--no-browser]"],
        about: """
            Serves this home to your browser on 127.0.0.1 and ::1 only (a free port unless --port),
            prints one line with the address and a one-time token, and opens the default browser
            (xdg-open, or open on macOS) unless --no-browser. The token works once: it becomes a
            cookie of that browser. The pages plan, sync and settle conflicts by clicking; a change
            made elsewhere (the CLI, a sync) shows within about two seconds. Ctrl-C or SIGTERM stops
            the server (exit 0).
            """,
        options: [
            OptionSpec("--port", .text("N"), "listen on port N (1-65535) instead of a free one"),
            OptionSpec("--no-browser", .flag, "print the address only"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.isEmpty else { throw CLIError.usage("open takes no arguments", command: name) }
        var port: UInt16 = 0
        if let text = parser.value("--port") {
            guard let value = UInt16(text), value > 0 else { throw CLIError.usage("--port expects a port number 1-65535, got '\(text)'", command: name) }
            port = value
        }
        let home = HomeAccess.home(global)
        _ = try HomeAccess.identity(global)
        // The signals are taken before the server starts, so none ends the process half-way.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        defer { withExtendedLifetime(sources) {} }
        let server = try WebServer(app: WebApp(home: home), port: port)
        Console.out(server.url)
        if !parser.has("--no-browser") { openBrowser(server.url) }
        stop.wait()
        server.stop()
    }

    /// Hands the URL to the desktop's opener; a machine without one just keeps the printed line.
    static func openBrowser(_ url: String) {
        #if os(macOS)
            let opener = "/usr/bin/open"
        #else
            let opener = "xdg-open"
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [opener, url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Console.warning("cannot start \(opener) (\(error)); open the address above in a browser")
        }
    }
}
