import Foundation
import Testing

/// The web pages build markup only as `HTML` (issue 39): a value reaches a page by
/// interpolation, escaped by the type. Escaping by hand (`HTMLText.escape`) or turning a built
/// string into markup (`HTML.trusted`) is how a page once let a value through unescaped, so a
/// web source file may call either only on a string literal without interpolation.
@Suite("WebSource")
struct WebSourceTests {
    /// Each call of `HTMLText.escape(` or `HTML.trusted(` in `text` whose argument is not one
    /// plain string literal, by line number (comment lines skipped).
    static func unsafeCalls(in text: String) -> [Int] {
        let literal = #/^\s*"(?:[^"\\\n]|\\[^(])*"\s*\)/#
        var found: [Int] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            for call in ["HTMLText.escape(", "HTML.trusted("] {
                var rest = line[...]
                while let range = rest.range(of: call) {
                    rest = rest[range.upperBound...]
                    if rest.prefixMatch(of: literal) == nil { found.append(index + 1) }
                }
            }
        }
        return found
    }

    @Test("the scan finds a value escaped by hand or made markup by name, and lets a plain literal pass")
    func scanFindsUnsafeCalls() {
        #expect(Self.unsafeCalls(in: "body += HTML.trusted(Page.error(message))") == [1])
        #expect(Self.unsafeCalls(in: "let a = \"<p>\" + HTMLText.escape(title)\nlet b: HTML = \"x\\(HTML.trusted(nav))\"") == [1, 2])
        #expect(Self.unsafeCalls(in: "let c = HTML.trusted(\"<b>\\(name)</b>\")") == [1])
        #expect(Self.unsafeCalls(in: "let d = HTML.trusted(\"<br>\")\n// HTML.trusted(body) in a comment") == [])
    }

    @Test("no web source file escapes by hand or makes markup of a value")
    func webSourcesBuildMarkupByType() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let folder = url.path + "/Sources/TripSyncWeb"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(Self.unsafeCalls(in: text).isEmpty, "\(file) lines \(Self.unsafeCalls(in: text)): interpolate the value into an HTML literal instead")
        }
    }
}
