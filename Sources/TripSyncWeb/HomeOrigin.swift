import Foundation
import TripSyncHome
import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The browser origin of one home (docs/DESIGN.md, "One origin per home"): a host name of its
/// own under `.localhost` (a random label kept in the home's `open/host`, so it stays the same
/// from one `open` to the next and browsers keep the pages apart from any other server on
/// 127.0.0.1), a cookie name of its own, and the private folder `open/` (mode 0700) where the
/// server keeps its control socket and one-time sign-in pages.
package struct HomeOrigin: Sendable {
    /// The label: 20 lowercase letters and digits, random once per home.
    package let label: String
    /// The home's `open/` folder.
    package let folder: String
    /// The running server's control socket.
    package let controlPath: String

    /// `LABEL.localhost`: the only host name the server answers to.
    package var hostName: String { label + ".localhost" }
    /// The session cookie's name for this home (two homes' cookies never replace each other).
    package var cookieName: String { "tripsync_" + label }

    /// The origin of `home`: its label read from `open/host`, or made and kept there (0600)
    /// the first time. Throws `FileSystemError` when the folder or file cannot be made, and
    /// `WebServerError` when the file holds something that is not a label.
    package init(home: Home) throws {
        let layout = home.layout
        folder = layout.open
        controlPath = layout.openControl
        try FileIO.makeFolder(folder)
        // The folder is private whoever made it: the sign-in pages are as good as a password.
        guard chmod(folder, 0o700) == 0 else { throw FileIO.systemError(folder, "cannot make the folder private (mode 0700)") }
        var info = stat()
        if stat(layout.openHost, &info) == 0 {
            let text = String(decoding: try FileIO.readFile(layout.openHost, maxBytes: 256), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard Self.isLabel(text) else {
                throw WebServerError("\(layout.openHost): expected a label of 20 lowercase letters and digits, found '\(text.prefix(40))' (remove the file to get a new one)")
            }
            label = text
        } else {
            label = Self.randomLabel()
            try FileIO.writeAtomically(Array((label + "\n").utf8), to: layout.openHost, mode: 0o600)
        }
    }

    /// Whether `text` is a label this program makes (so it is a valid DNS label and no header
    /// or cookie name can be bent by it).
    static func isLabel(_ text: String) -> Bool {
        text.utf8.count == 20 && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// 20 random characters of `a-z0-9` (about 103 bits; the system's secure generator). The
    /// first is a letter, so the host name never looks like a number.
    static func randomLabel() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        var out = String(letters[Int(generator.next(upperBound: UInt64(letters.count)))])
        for _ in 1..<20 { out.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))]) }
        return out
    }
}
