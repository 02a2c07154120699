import Foundation
import Testing

/// Every doc example of the two handles and of docs/REFERENCE.md is compiled and run in CI
/// (issue 39: neither handle's compiled, and the reference's used a `package` type): each
/// ```swift block of their doc comments, and of the document, is in Tests/app, which imports
/// only `TripSync` and which `.ci/run` builds and runs.
@Suite struct DocExampleTests {
    @Test(arguments: ["Sources/TripSync/App/TripHome.swift", "Sources/TripSync/App/TripStore.swift", "docs/REFERENCE.md"])
    func docExampleIsInTheAppExample(_ file: String) throws {
        let source = try String(contentsOfFile: PackagePaths.root + "/" + file, encoding: .utf8)
        let app = try String(contentsOfFile: PackagePaths.root + "/Tests/app/Sources/TripSyncAppExample/main.swift", encoding: .utf8)
        let appLines = app.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var blocks: [[String]] = []
        var current: [String]?
        for line in source.components(separatedBy: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            // A source file's examples are in its doc comments; a document's are its own blocks.
            guard text.hasPrefix("///") || file.hasSuffix(".md") else { continue }
            let body = file.hasSuffix(".md") ? text : String(text.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            if body == "```swift" { current = [] } else if body == "```", let block = current { blocks.append(block); current = nil } else { current?.append(body) }
        }
        #expect(!blocks.isEmpty, "\(file) has a doc example")
        for block in blocks.map({ Array($0.drop { $0.isEmpty || $0.hasPrefix("import ") }) }) {
            let found = appLines.indices.contains { start in
                start + block.count <= appLines.count && Array(appLines[start..<start + block.count]) == block
            }
            #expect(found, "\(file): this doc example is not in Tests/app:\n\(block.joined(separator: "\n"))")
        }
    }
}
