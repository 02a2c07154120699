import Foundation
import Testing

/// The public API (issue 27, issue 39): `scripts/public-api.sh` counts public declarations, and
/// this test counts them the same way and holds every one to a `///` comment.
@Suite struct PublicAPITests {
    static let targets = ["TripSyncPlatform", "TripSyncCore", "TripSyncHome", "TripSyncSync", "TripSync"]
    static let modifiers = "(nonisolated|final|static|class|override|mutating|nonmutating|indirect|convenience|required|dynamic|private\\(set\\)|internal\\(set\\)|fileprivate\\(set\\)|package\\(set\\))"
    static let keywords = "(func|var|let|init|subscript|struct|class|enum|protocol|extension|typealias|case|actor|associatedtype)"
    static let pattern = "^[ \\t]*(@[A-Za-z_]+(\\([^)]*\\))?[ \\t]+)*(\(modifiers)[ \\t]+)*(public|open)[ \\t]+(\(modifiers)[ \\t]+)*\(keywords)([^A-Za-z0-9_]|$)"

    /// Every public declaration line of the library: (file, line number, the lines of the file).
    static func declarations() throws -> [(file: String, index: Int, lines: [String])] {
        let regex = try NSRegularExpression(pattern: pattern)
        var found: [(String, Int, [String])] = []
        for target in targets {
            let folder = PackagePaths.root + "/Sources/" + target
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
            for file in files {
                let lines = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).components(separatedBy: "\n")
                for (index, line) in lines.enumerated() where regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    found.append((target + "/" + file, index, lines))
                }
            }
        }
        return found
    }

    @Test("the script counts what this test counts: declarations only, not a local named open")
    func scriptCountsDeclarations() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [PackagePaths.root + "/scripts/public-api.sh"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let total = output.split(separator: "\n").first { $0.hasPrefix("total") }?.split(separator: " ").last.flatMap { Int($0) }
        #expect(total == (try Self.declarations().count))
        let regex = try NSRegularExpression(pattern: Self.pattern)
        for local in ["        open += list.registers.map { $0 }", "    let open = true"] {
            #expect(regex.firstMatch(in: local, range: NSRange(local.startIndex..., in: local)) == nil)
        }
    }

    @Test("every public declaration has a /// comment")
    func everyPublicDeclarationIsDocumented() throws {
        var undocumented: [String] = []
        for (file, index, lines) in try Self.declarations() {
            var above = index - 1
            // Attributes and the lines of a multi-line attribute sit between the comment and the declaration.
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
            if above < 0 || !lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                undocumented.append("\(file):\(index + 1): \(lines[index].trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(undocumented.isEmpty, "\(undocumented.count) undocumented:\n\(undocumented.prefix(40).joined(separator: "\n"))")
    }

    /// The most public declarations the library may have (issue 39: 735 before the report
    /// machinery, listing types, merge inputs and the members' internals became `package`; 602
    /// before the itinerary, team metrics, conflict counts, keys, the version vector, photo
    /// locations, the owner key file, forget and two errors did; 492 before the errors folded into
    /// `TripError`, the items became views and the home's own listing, a sync's forks and
    /// re-key and an issue's severity became `package`; then issue 43's sealed files added
    /// `LoadedTrip.wasSealed`, `ValidationReport.isSealed` and `.contentsChecked`, the error kind
    /// `sealedFile`, and `StatusReport.folderForm` with its `FolderForm`: how the trip travels
    /// through the folder, open, not sealed yet, sealed, or left out: 433; 404 once attachments
    /// were read through `AttachmentEntry` alone and `Attachment`, `BlobReference`,
    /// `AttachmentField`, `Register`, `Versioned`, `Deletion` and `AttachmentError` became
    /// `package`; 396 once `Rev` did, an edit's `Seen` being `.current` or `TripItem.seen(_:)`;
    /// 393 with `SyncReport.DeviceChanges.init`, `StatusReport.recentLimit` and
    /// `RegisterConflict.versions`, the engine's, the JSON's and the editor's).
    /// A change that adds to the public API raises it here, on purpose, and says why in
    /// docs/DESIGN.md ("The app API").
    static let ceiling = 393

    @Test("the public API does not grow by accident: at most the pinned count of declarations")
    func pinnedCount() throws {
        let count = try Self.declarations().count
        #expect(count <= Self.ceiling, "\(count) public declarations, more than the \(Self.ceiling) pinned in PublicAPITests.ceiling")
    }

    @Test("what the faces need beyond the app API stays package: listing, report machinery, merge inputs, members' internals, the itinerary, keys, errors, registers")
    func packageOnly() throws {
        let regex = try NSRegularExpression(pattern: Self.pattern)
        let names = ["ItemDetail", "DeletedItemList", "ItemLookup", "JSONReport", "ReportField", "ReportEncoding", "FileMergeJob", "MergeInput", "FileMergeResult",
            "MergeSummary", "Succession", "TripOwner", "MemberGrant", "DeviceInfo", "FieldWrite", "ResolvedInstant", "LocalTimeResolution",
            "Itinerary", "ItineraryDay", "ItineraryEntry", "ShownTime", "TeamMetrics", "ConflictSummary", "AttachmentCounts", "VersionVector", "PublicKey",
            "JPEGLocation", "OwnerKeyExport", "ForgottenTrip", "MembershipError", "InviteError",
            "EditError", "TripStoreError", "TripFileError", "FileSystemError", "Refusal", "TripSyncError", "HomeTrips",
            "ItemFields", "Tombstone", "TripInfo", "Fork", "Rekey", "Severity",
            "Attachment", "BlobReference", "AttachmentField", "Register", "Versioned", "Deletion", "AttachmentError", "Rev"]
        for (file, index, lines) in try Self.declarations() {
            let line = lines[index]
            guard regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil else { continue }
            for name in names where line.range(of: "(struct|enum|class|protocol) \(name)\\b", options: .regularExpression) != nil {
                Issue.record("\(file):\(index + 1): \(name) is public again")
            }
        }
    }

    /// Every public call throws the one `TripError` (issue 39): each public function or
    /// initializer declared `throws` (but not `throws(TripError)`, which the compiler holds to
    /// it, nor an `Encodable`'s `encode(to:)`, which throws its encoder's errors) runs its body
    /// through the door (`TripError.door`, `.typed`, or a door route that does: `writing`,
    /// `write(`, `open(`, `folderSync(`), throws a `TripError` itself, or tries nothing. A new
    /// public call that forgets would let a `package` error type reach an app.
    @Test("every public call that throws throws a TripError: typed, or its body runs through the door")
    func everyPublicThrowGoesThroughTheDoor() throws {
        let declaration = try NSRegularExpression(pattern: "^([ \\t]*)(@[A-Za-z_]+[ \\t]+)*public[ \\t]+((static|convenience|mutating)[ \\t]+)*(func|init)\\b")
        let door = ["TripError.door", "TripError.typed", "writing {", "try write(", "try open(", "folderSync(", "throw TripError("]
        var leaks: [String] = []
        var checked = 0
        for target in Self.targets {
            let folder = PackagePaths.root + "/Sources/" + target
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
            for file in files {
                let lines = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).components(separatedBy: "\n")
                for (index, line) in lines.enumerated() {
                    guard let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                        let indentRange = Range(match.range(at: 1), in: line)
                    else { continue }
                    let indent = String(line[indentRange])
                    // The signature runs to the line that opens the body.
                    var end = index
                    while end < lines.count - 1 && !lines[end].contains("{") { end += 1 }
                    let signature = lines[index...end].joined(separator: " ")
                    let opening = signature.components(separatedBy: "{").first ?? signature
                    guard opening.range(of: "\\)\\s*throws\\b", options: .regularExpression) != nil, !opening.contains("throws(TripError)"),
                        !opening.contains("encode(to encoder")
                    else { continue }
                    var body = [String(signature.drop { $0 != "{" })]
                    // A body on the declaration's own line ends there; another ends at the indentation's `}`.
                    let oneLine = lines[end].hasSuffix("}") && lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("public")
                    if !oneLine {
                        var next = end + 1
                        while next < lines.count && lines[next] != indent + "}" {
                            body.append(lines[next])
                            next += 1
                        }
                    }
                    let text = body.joined(separator: "\n")
                    checked += 1
                    let throwsNothing = !text.contains("try ") && !text.replacingOccurrences(of: "throw TripError(", with: "").contains("throw ")
                    if !throwsNothing && !door.contains(where: text.contains) {
                        leaks.append("\(target)/\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(checked > 30, "found only \(checked) public throwing calls")
        #expect(leaks.isEmpty, "public calls whose errors do not go through the door:\n\(leaks.joined(separator: "\n"))")
    }
}
