import Foundation
import Testing

/// One minimum for a new passphrase, typed or read from `--passphrase-file` (issue 26,
/// finding 9).
@Suite struct SecretTests {
    @Test(arguments: ["x", "1234567", "ñññññññ"])
    func aShortPassphraseFileIsRefusedAsThePromptRefusesIt(passphrase: String) throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = root + "/home"
        #expect(try CLI.run(["--home", home, "init", "--device-name", "Alex"]).status == 0)
        #expect(try CLI.run(["--home", home, "new", "Lisbon", "--zone", "Europe/Lisbon", "--owned"]).status == 0)
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: root + "/pass.txt"))
        let result = try CLI.run(["--home", home, "owner", "export", "-o", root + "/owner.key", "--passphrase-file", root + "/pass.txt"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("at least 8 characters"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/owner.key"), "nothing was written")
        // Eight characters are enough, as at the prompt.
        try Data("12345678\n".utf8).write(to: URL(fileURLWithPath: root + "/pass.txt"))
        let enough = try CLI.run(["--home", home, "owner", "export", "-o", root + "/owner.key", "--passphrase-file", root + "/pass.txt"])
        #expect(enough.status == 0, "\(enough.stderr)")
    }
}
