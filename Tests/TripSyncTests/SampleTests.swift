import Foundation
import Testing
import TripSync

/// The bundled samples: valid ones pass, warnings warn, every invalid one fails at its pointer.
@Suite struct SampleTests {
    struct InvalidSample: CustomTestStringConvertible, Sendable {
        var file: String
        var pointer: String
        var message: String
        var testDescription: String { file }
    }

    static func invalidSamples() -> [InvalidSample] {
        invalidSamples(folder: "invalid") + invalidSamples(folder: "v1/invalid") + invalidSamples(folder: "v3/invalid")
    }

    static func invalidSamples(folder: String) -> [InvalidSample] {
        guard let data = FileManager.default.contents(atPath: PackagePaths.samples + "/\(folder)/index.json"),
            let entries = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return entries.compactMap { entry in
            guard let file = entry["file"] as? String, let pointer = entry["pointer"] as? String,
                let message = entry["message"] as? String
            else { return nil }
            return InvalidSample(file: folder + "/" + file, pointer: pointer, message: message)
        }
    }

    @Test(arguments: [("invalid", 25), ("v1/invalid", 8), ("v3/invalid", 18)])
    func indexCoversEveryInvalidFile(folder: String, atLeast: Int) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: PackagePaths.samples + "/" + folder)
            .filter { $0 != "index.json" }.map { folder + "/" + $0 }
        let indexed = Set(Self.invalidSamples(folder: folder).map(\.file))
        #expect(indexed.count >= atLeast)
        #expect(Set(files) == indexed)
    }

    @Test(arguments: invalidSamples())
    func invalidSampleFailsAtItsPointer(sample: InvalidSample) {
        let report = TripFileReader().validate(path: PackagePaths.samples + "/" + sample.file)
        #expect(!report.isValid)
        let atPointer = report.errors.filter { $0.pointer == sample.pointer }
        #expect(!atPointer.isEmpty, "errors: \(report.errors)")
        #expect(atPointer.contains { $0.message.contains(sample.message) }, "errors: \(report.errors)")
    }

    @Test(arguments: ["lisbon-new-york.trip.json", "lisbon-new-york.trip.json.gz"])
    func validSamplePassesAndRoundTrips(file: String) throws {
        let path = PackagePaths.samples + "/" + file
        let loaded = try TripFileReader().read(path: path)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.document.items.count >= 15)
        #expect(loaded.document.items.values.contains { $0.title?.hasVisibleConflict == true })
        #expect(!loaded.document.tombstones.isEmpty)
        // Schema 2, migrated to an open schema 3 trip: exactly samples/v3/open-trip.trip.json.
        #expect(loaded.sourceSchemaVersion == 2)
        #expect(loaded.document.owner == nil && loaded.document.members.isEmpty)
        let open = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v3/open-trip.trip.json"))
        #expect(loaded.document.canonicalJSON() == Array(open))
    }

    /// Schema 3 samples made by an independent writer (Python and PyNaCl, scripts/make-samples-v3.py).
    @Test(arguments: [
        ("porto-owned.trip.json", true), ("porto-owned.trip.json.gz", true), ("porto-backup.trip.json", false),
        ("porto-removed.trip.json", true), ("open-trip.trip.json", false), ("lisbon-claimed.trip.json", true),
    ])
    func schema3SamplePassesWithItsSigner(file: String, signed: Bool) throws {
        let path = PackagePaths.samples + "/v3/" + file
        let loaded = try TripFileReader().read(path: path)
        #expect(loaded.sourceSchemaVersion == 3)
        #expect(loaded.warnings.isEmpty)
        #expect((loaded.signedBy != nil) == signed)
        if let owner = loaded.document.owner {
            #expect(!loaded.document.members.isEmpty)
            #expect(loaded.document.members.values.contains { $0.role == .owner })
            if file.hasPrefix("porto") { #expect(owner.derives(loaded.document.tripID)) }
            if file.hasPrefix("lisbon") { #expect(!owner.derives(loaded.document.tripID)) }
        }
        if !signed {
            // Unsigned files are canonical: written back byte for byte.
            let bytes = try #require(FileManager.default.contents(atPath: path))
            #expect(loaded.document.canonicalJSON() == Array(bytes))
        }
    }

    /// The signed sample without its signature is the backup sample, byte for byte.
    @Test func signedSampleIsTheBackupSigned() throws {
        let signed = try TripFileReader().read(path: PackagePaths.samples + "/v3/porto-owned.trip.json")
        let backup = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v3/porto-backup.trip.json"))
        #expect(signed.document.canonicalJSON() == Array(backup))
        let removed = try TripFileReader().read(path: PackagePaths.samples + "/v3/porto-removed.trip.json")
        #expect(removed.document.members.values.contains { $0.role == .removed && $0.seen != nil })
    }

    @Test(arguments: [
        ("unknown-zone.trip.json", "is unknown to this machine"),
        ("end-before-start.trip.json", "the end is before the start"),
    ])
    func warningSamplesAreValidWithAWarning(file: String, warning: String) {
        let report = TripFileReader().validate(path: PackagePaths.samples + "/warnings/" + file)
        #expect(report.isValid)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.message.contains(warning) == true)
    }
}
