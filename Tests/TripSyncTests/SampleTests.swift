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
        invalidSamples(folder: "invalid") + invalidSamples(folder: "v1/invalid")
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

    @Test(arguments: [("invalid", 25), ("v1/invalid", 8)])
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
        let plain = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/lisbon-new-york.trip.json"))
        #expect(loaded.document.canonicalJSON() == Array(plain))
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
