import Foundation
import TripSync
import TripSyncWeb

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tripsync open [--port N] [--no-browser] [--install-launcher]`: this home in the browser
/// (TripSyncWeb), under a host name of its own; the browser signs in through a private page.
enum OpenCommand: Command {
    static let spec = CommandSpec(
        name: "open",
        summary: "plan in the browser: serve this home on loopback until Ctrl-C",
        forms: ["[--port] [--no-browser]", "--install-launcher"],
        about: """
            Serves this home to your browser on 127.0.0.1 and ::1 only (a free port unless --port),
            under a host name of its own (http://LABEL.localhost:PORT/, the label random and kept in
            the home), prints that address and opens the default browser (xdg-open, or open on
            macOS) unless --no-browser. The browser signs in through a private page in the home's
            open/ folder (readable by you alone; the address in it works once, for ten minutes), so
            no sign-in ever appears in a command line. Run 'open' again while it runs and it signs
            the browser in to the running server instead of starting another. The pages plan, sync
            and settle conflicts by clicking; a change made elsewhere (the CLI, a sync) shows within
            about two seconds. Ctrl-C or SIGTERM stops the server (exit 0). --install-launcher adds
            TripSync to the desktop's app menu (a .desktop file in $XDG_DATA_HOME/applications)
            that runs 'tripsync open' for this home.
            """,
        options: [
            OptionSpec("--port", .text("N"), "listen on port N (1-65535) instead of a free one"),
            OptionSpec("--no-browser", .flag, "print the address and the sign-in page only"),
            OptionSpec("--install-launcher", .flag, "add TripSync to the desktop's app menu, then exit"),
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
        if parser.has("--install-launcher") {
            let path = try Launcher.install(home: home)
            Console.out("TripSync is in the app menu: \(path)")
            return
        }
        _ = try HomeAccess.identity(global)
        let origin = try HomeOrigin(home: home)
        let browser = !parser.has("--no-browser")
        // A server already serves this home: it hands over a fresh sign-in, nothing else starts.
        if let answer = ControlSocket.ask(origin.controlPath) {
            let parts = answer.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw CLIError.refused(
                    "a 'tripsync open' already serves this home but gave no sign-in page (\(origin.controlPath) answered '\(answer.prefix(80))'; its own output says why)")
            }
            Console.out("\(parts[0]) (already open; sign in through \(parts[1]))")
            if browser { openBrowser(parts[1]) }
            return
        }
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
        let server = try WebServer(app: WebApp(home: home, origin: origin), port: port)
        let control: ControlSocket
        let login: String
        do {
            control = try ControlSocket(path: origin.controlPath) {
                do {
                    return server.url + "\t" + (try server.newLogin())
                } catch {
                    Console.warning("cannot write a sign-in page for a second 'open': \(error)")
                    return ""
                }
            }
            login = try server.newLogin()
        } catch {
            server.stop()
            throw error
        }
        Console.out("\(server.url) (sign in through \(login))")
        if browser { openBrowser(login) }
        stop.wait()
        control.stop()
        server.stop()
    }

    /// Hands the sign-in page (a file path: the token is inside it, never in an argument) to the
    /// desktop's opener, or to $BROWSER when set; a machine without either keeps the printed line.
    static func openBrowser(_ page: String) {
        #if os(macOS)
            let opener = ["/usr/bin/open"]
        #else
            let opener = ProcessInfo.processInfo.environment["BROWSER"].flatMap { $0.isEmpty ? nil : [$0] } ?? ["xdg-open"]
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = opener + [page]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Console.warning("cannot start \(opener[0]) (\(error)); open \(page) in a browser")
        }
    }
}
