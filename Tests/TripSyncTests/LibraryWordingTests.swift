import Foundation
import Testing
import TripSyncCore

/// The library says what happened and what would fix it; a face (the CLI, the browser app) says
/// which of its commands does that (issue 27). So no string literal of a library target names a
/// `tripsync` command; the CLI adds them from each error's kind and facts (`Failure.swift`).
@Suite struct LibraryWordingTests {
    /// The repository's `Sources` folder.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources").path

    /// Targets that are faces or tools, which may name commands.
    static let faces: Set<String> = ["tripsync", "tripsync-bench", "TripSyncFixtures", "TripSyncWeb"]

    /// What may stay, each with its reason.
    static let allowed: [(text: String, reason: String)] = [
        ("tripsync schema 1", "the seed of a derived id (Migration1To2): changing it changes ids"),
        ("tripsync process", "a process, not a command"),
        // The exported page and calendar are documents for the person who ran the CLI's export:
        // they show the command that settles a conflict or brings an item back, as text to type.
        ("Keep one: tripsync resolve", "the exported calendar's conflict line"),
        ("tripsync resolve trip", "the exported page's conflict line"),
        ("tripsync resolve \" +", "the exported page's conflict line"),
        ("tripsync extract \\(", "the exported page's attachment line"),
        ("tripsync restore \\(", "the exported page's deleted-item line"),
        ("<code>tripsync resolve \\(", "the exported page's conflict line"),
    ]

    /// The string literals of `text` with their line numbers (single-line ones, and each line of
    /// a multi-line one), comments left out.
    static func literals(_ text: String) -> [(line: Int, text: String)] {
        var found: [(line: Int, text: String)] = []
        var inMultiline = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inMultiline {
                if trimmed.hasPrefix("\"\"\"") { inMultiline = false } else { found.append((index + 1, line)) }
                continue
            }
            if trimmed.hasPrefix("//") { continue }
            if trimmed.hasSuffix("\"\"\"") {
                inMultiline = true
                continue
            }
            var inString = false
            var escaped = false
            var current = ""
            var previous: Character = " "
            for character in line {
                defer { previous = character }
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        found.append((index + 1, current))
                        current = ""
                        inString = false
                        continue
                    }
                    current.append(character)
                } else if character == "\"" {
                    inString = true
                } else if character == "/" && previous == "/" {
                    break  // a comment after code
                }
            }
            if inString { found.append((index + 1, current)) }
        }
        return found
    }

    @Test func noLibraryStringNamesACommand() throws {
        var offenders: [String] = []
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources).filter { !Self.faces.contains($0) }
        #expect(!targets.isEmpty)
        for target in targets {
            guard let walker = FileManager.default.enumerator(atPath: Self.sources + "/" + target) else { continue }
            for case let file as String in walker where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: Self.sources + "/" + target + "/" + file, encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                for literal in Self.literals(text) where Self.namesACommand(literal.text) {
                    let line = String(lines[literal.line - 1])
                    guard !Self.allowed.contains(where: { line.contains($0.text) }) else { continue }
                    offenders.append("\(target)/\(file):\(literal.line): \(literal.text.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "library strings that name a command (the CLI words those):\n\(offenders.joined(separator: "\n"))")
    }

    /// "tripsync " followed by a word: a command as a person would type it.
    static func namesACommand(_ literal: String) -> Bool {
        guard let range = literal.range(of: "tripsync ") else { return false }
        return literal[range.upperBound...].first.map { $0.isLetter || $0 == "-" } ?? false
    }
}
