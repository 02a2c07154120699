import Foundation
import TripSyncHome
import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `open --install-launcher`: a freedesktop desktop entry (`tripsync.desktop` in
/// `$XDG_DATA_HOME/applications`, by default `~/.local/share/applications`) that starts
/// `tripsync --home HOME open` from the app menu, so a person who never opens a terminal can
/// start TripSync (docs/DESIGN.md, "Reachable without a terminal"). Written atomically;
/// installing again replaces it.
enum Launcher {
    /// Writes the entry for `home` and this binary; returns its path.
    static func install(home: Home, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let folder = try applicationsFolder(environment)
        let binary = try absolute(executablePath(), what: "this program")
        let homePath = try absolute(home.path, what: "the home")
        try FileIO.makeFolder(folder)
        let path = folder + "/tripsync.desktop"
        try FileIO.writeAtomically(Array(entry(binary: binary, home: homePath).utf8), to: path, mode: 0o644)
        return path
    }

    /// The entry's text (Desktop Entry Specification 1.5).
    static func entry(binary: String, home: String) -> String {
        let exec = [binary, "--home", home, "open"].map(execArgument).joined(separator: " ")
        return """
            [Desktop Entry]
            Type=Application
            Version=1.0
            Name=TripSync
            GenericName=Trip planner
            Comment=Plan your group's trip in your browser
            Exec=\(exec)
            Icon=x-office-calendar
            Terminal=false
            Categories=Office;Calendar;
            Keywords=trip;travel;itinerary;plan;

            """
    }

    /// One argument of `Exec`: quoted when it holds anything but plain characters, with `"`,
    /// `` ` ``, `$` and `\` escaped inside the quotes, then every `\` doubled again (the
    /// entry's string escaping) and `%` written `%%` (field codes).
    static func execArgument(_ argument: String) -> String {
        let plain = argument.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "/._-+,:@".unicodeScalars.contains(scalar))
        }
        var quoted = argument
        if !plain || argument.isEmpty {
            var inner = ""
            for character in argument {
                if "\"`$\\".contains(character) { inner.append("\\") }
                inner.append(character)
            }
            quoted = "\"" + inner + "\""
        }
        return quoted.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "%%")
    }

    /// `$XDG_DATA_HOME/applications`, or `$HOME/.local/share/applications` when it is unset or
    /// not absolute (as the specification says).
    static func applicationsFolder(_ environment: [String: String]) throws -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/applications" }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw CLIError.refused("cannot tell where the app menu's entries go: neither XDG_DATA_HOME nor HOME is an absolute path")
        }
        return home + "/.local/share/applications"
    }

    /// This binary's path (`/proc/self/exe` on Linux, else the first argument).
    static func executablePath() -> String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if count > 0 { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return CommandLine.arguments.first ?? "tripsync"
    }

    /// `path` made absolute and resolved; an entry cannot carry a line break, so a path with
    /// one is refused.
    static func absolute(_ path: String, what: String) throws -> String {
        guard let resolved = realpath(path, nil) else { throw FileIO.systemError(path, "cannot resolve the path of \(what)") }
        defer { free(resolved) }
        let text = String(cString: resolved)
        guard !text.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw CLIError.refused("\(text): the path of \(what) holds a line break, which an app menu entry cannot carry")
        }
        return text
    }
}
