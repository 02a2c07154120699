import Foundation
import Testing

@testable import TripSync
@testable import TripSyncHome

/// One home layout (issue 27): `HomeLayout` is the only place that knows what the files of a
/// home are called, and a home made through the app API has its files where it says.
@Suite struct HomeLayoutTests {
    @Test func aHomeHoldsItsFilesWhereTheLayoutSays() throws {
        let home = Home(path: FileManager.default.temporaryDirectory.appendingPathComponent("tripsync-layout-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        let store = try TripStore.create(name: "Lisbon 2027", defaultZone: "Europe/Lisbon", in: home)
        let trip = store.document.tripID
        try home.recordLastFolder("/tmp/shared", for: trip)
        let layout = home.layout
        for path in [layout.identity, layout.deviceKey, layout.replica(trip), layout.settings(trip), layout.access(trip)] {
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        }
        #expect(home.replicaPath(for: trip) == layout.replica(trip))
        #expect(home.settingsPath(for: trip) == layout.settings(trip))
        #expect(layout.writtenFolders.allSatisfy { $0.hasPrefix(home.path) })
        // Every file the home holds is one the layout names (or inside a folder it names).
        let named = [layout.identity, layout.deviceKey, layout.lock, layout.syncState, layout.trips, layout.access, layout.staged, layout.blobs]
        let walker = try #require(FileManager.default.enumerator(atPath: home.path))
        for case let file as String in walker {
            let path = home.path + "/" + file
            #expect(named.contains { path == $0 || path.hasPrefix($0 + "/") }, "\(file) is not in HomeLayout")
        }
    }

    /// No source file outside `HomeLayout.swift` spells a home file's name into a path.
    @Test func onlyTheLayoutSpellsTheHomesFiles() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources").path
        let spelled = [
            "+ \"/device.json\"", "+ \"/device.key\"", "+ \"/lock\"", "+ \"/sync-state.json\"", "+ \"/trips\"", "+ \"/backups\"", "+ \"/access\"",
            "+ \"/access/", "+ \"/staged\"", "+ \"/staged/", "+ \"/blobs\"", "+ \"/blobs/", ".settings.json\"", "\"partial\")", "\"quarantine\")",
        ]
        var offenders: [String] = []
        for target in ["TripSync", "tripsync", "TripSyncWeb"] {
            guard let walker = FileManager.default.enumerator(atPath: sources + "/" + target) else { continue }
            for case let file as String in walker where file.hasSuffix(".swift") && !file.hasSuffix("HomeLayout.swift") {
                let text = try String(contentsOfFile: sources + "/" + target + "/" + file, encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for name in spelled where line.contains(name) { offenders.append("\(target)/\(file):\(index + 1): \(name)") }
                }
            }
        }
        #expect(offenders.isEmpty, "home paths built outside HomeLayout:\n\(offenders.joined(separator: "\n"))")
    }
}
