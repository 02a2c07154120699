import Foundation
import Testing

/// Every command is declared once (issue 27): the options its parser takes are exactly the ones
/// its help shows (in the usage lines and the options list), and the completion scripts offer
/// exactly those. Checked through the built binary, so a parser and a help written apart fail.
@Suite struct CommandTableTests {
    /// The command names `tripsync help` lists.
    static func commandNames() throws -> [String] {
        let help = try CLI.run(["help"])
        let lines = help.stdout.split(separator: "\n").drop { $0 != "commands:" }.dropFirst()
        return lines.prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "help" }
    }

    /// Option names (`--day`, `-o`) in `text`.
    static func optionNames(in text: String) -> Set<String> {
        let regex = try? NSRegularExpression(pattern: #"(?<![\w-])(--[a-z][a-z-]*[a-z]|-[a-zA-Z])(?![\w-])"#)
        let range = NSRange(text.startIndex..., in: text)
        let source = text as NSString
        return Set((regex?.matches(in: text, range: range) ?? []).map { source.substring(with: $0.range(at: 1)) })
    }

    /// The options a help text shows: its usage lines (up to the first blank line) and the labels
    /// of its options list (the words before the help of each entry).
    static func shownOptions(_ help: String) -> Set<String> {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let usage = lines.prefix { !$0.isEmpty }.joined(separator: "\n")
        var labels: [String] = []
        if let start = lines.firstIndex(of: "options:") {
            for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) where line.hasPrefix("  ") && !line.hasPrefix("   ") {
                labels.append(String(line.dropFirst(2).prefix { $0 != " " || false }) + " " + (line.dropFirst(2).components(separatedBy: "   ").first ?? ""))
            }
        }
        return optionNames(in: usage + "\n" + labels.joined(separator: "\n")).subtracting(["--help", "-h"])
    }

    /// How the parser of `command` takes `option`, asked without running the command: `O= O`
    /// is refused at `O=` for a flag ("takes no value"), at the second `O` for an option with a
    /// value ("needs a value"), at once for an unknown one. A short option (`-o`, which takes no
    /// `=`) is given alone: every short option takes a value, so it is refused as needing one.
    static func parserTakes(_ command: String, _ option: String, home: String) throws -> Bool {
        let probe = option.hasPrefix("--") ? [option + "=", option] : [option]
        let result = try CLI.run(["--home", home, command] + probe)
        #expect(result.status == 2, "\(command) \(option): \(result.stderr)")
        if result.stderr.contains("unknown option \(option) ") { return false }
        #expect(result.stderr.contains("option \(option) takes no value") || result.stderr.contains("option \(option) needs a value"), "\(command) \(option): \(result.stderr)")
        return true
    }

    @Test func everyOptionTheParserTakesIsInTheHelpAndBack() throws {
        let home = CLI.temporaryFolder() + "/never-made"
        let names = try Self.commandNames()
        #expect(names.count >= 25)
        for name in names {
            let help = try CLI.run(["help", name]).stdout
            let shown = Self.shownOptions(help)
            // Every option named anywhere in the help (prose too) is a candidate; --home is global.
            let candidates = Self.optionNames(in: help).union(shown).union(["-o", "--output", "--json", "--force", "--yes"]).subtracting(["--help", "-h", "--home"])
            var taken: Set<String> = []
            for option in candidates.sorted() where try Self.parserTakes(name, option, home: home) { taken.insert(option) }
            #expect(taken == shown, "\(name): the parser takes \(taken.subtracting(shown).sorted()) that the help does not show; the help shows \(shown.subtracting(taken).sorted()) that the parser refuses")
        }
        #expect(!FileManager.default.fileExists(atPath: home), "asking the parser made a home")
    }

    /// The bash script offers, for each command, exactly the options its help shows (and the
    /// global ones); zsh and fish are made from the same list.
    @Test func completionOffersWhatTheHelpShows() throws {
        let bash = try CLI.run(["completion", "bash"]).stdout
        let fish = try CLI.run(["completion", "fish"]).stdout
        for name in try Self.commandNames() {
            let shown = Self.shownOptions(try CLI.run(["help", name]).stdout)
            let line = bash.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(name)) opts=\"") }
            let offered = line.map { Set($0.split(separator: "\"")[1].split(separator: " ").map(String.init)) } ?? []
            #expect(offered == shown.union(["--home", "--trip", "--help", "-h"]), "\(name): bash offers \(offered.sorted()), the help shows \(shown.sorted())")
            let fishLines = fish.split(separator: "\n").filter { $0.contains("'__fish_seen_subcommand_from \(name)'") }
            for option in shown where option != "--trip" {
                let spelled = option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())"
                #expect(fishLines.contains { $0.contains(spelled + " ") || $0.hasSuffix(spelled) }, "\(name): fish lacks \(option)")
            }
        }
    }
}
