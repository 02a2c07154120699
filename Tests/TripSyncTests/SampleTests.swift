import Foundation
import Testing
import TripSync
import TripSyncCore

/// The bundled samples: valid ones pass, warnings warn, every invalid one fails at its pointer.
@Suite struct SampleTests {
    struct InvalidSample: CustomTestStringConvertible, Sendable {
        var file: String
        var pointer: String
        var message: String
        var testDescription: String { file }
    }

    /// A schema 5 file's canonical bytes as the current schema writes them: migration 5 → 6
    /// adds nothing, so only the version differs.
    static func asCurrent(_ schema5: Data) -> [UInt8] {
        Array(String(decoding: schema5, as: UTF8.self).replacingOccurrences(of: "\"schemaVersion\":5,", with: "\"schemaVersion\":7,").utf8)
    }

    static func invalidSamples() -> [InvalidSample] {
        ["invalid", "v1/invalid", "v3/invalid", "v4/invalid", "v5/invalid", "v6/invalid", "v7/invalid"].flatMap { invalidSamples(folder: $0) }
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

    @Test(arguments: [("invalid", 25), ("v1/invalid", 8), ("v3/invalid", 18), ("v4/invalid", 22), ("v5/invalid", 13), ("v6/invalid", 3), ("v7/invalid", 3)])
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
        // Schema 2, migrated to an open trip: exactly samples/v5/open-trip.trip.json as schema 6.
        #expect(loaded.sourceSchemaVersion == 2)
        #expect(loaded.document.owner == nil && loaded.document.members.isEmpty && loaded.document.attachments.isEmpty)
        #expect(loaded.document.trip.zone == nil && loaded.document.successions.isEmpty)
        let open = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v5/open-trip.trip.json"))
        #expect(loaded.document.canonicalJSON() == Self.asCurrent(open))
    }

    /// The valid schema 3 samples, each also in samples/v4 migrated (and re-signed when signed).
    static let schema3Samples = [
        ("porto-owned.trip.json", true), ("porto-owned.trip.json.gz", true), ("porto-backup.trip.json", false),
        ("porto-removed.trip.json", true), ("open-trip.trip.json", false), ("lisbon-claimed.trip.json", true),
    ]

    /// Schema 3 samples made by an independent writer (Python and PyNaCl, scripts/make-samples-v3.py);
    /// each one's migration is the v4 sample of the same name (scripts/make-samples-v4.py).
    @Test(arguments: schema3Samples)
    func schema3SamplePassesWithItsSignerAndMigratesToTheV4Sample(file: String, signed: Bool) throws {
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
        #expect(
            loaded.migration?.steps == [
                "3→4: no attachments yet", "4→5: no trip zone, member names or successions yet", "5→6: no encryption keys in grants yet", "6→7: no sealed attachment bytes yet",
            ])
        #expect(loaded.document.attachments.isEmpty)
        // Migrated 3 → 6, it is the v5 sample (the v4 one migrated) as schema 6: byte for byte when unsigned,
        // its document when signed (a signature covers the bytes of its own version).
        let v4Path = PackagePaths.samples + "/v5/" + file
        if signed {
            let v4 = try TripFileReader().read(path: v4Path)
            #expect(loaded.document.canonicalJSON() == v4.document.canonicalJSON())
            #expect(loaded.signedBy == v4.signedBy)
        } else {
            let bytes = try #require(FileManager.default.contents(atPath: v4Path))
            #expect(loaded.document.canonicalJSON() == Self.asCurrent(bytes))
        }
    }

    static let schema4Samples = schema3Samples + [("porto-attachments.trip.json", true), ("porto-attachments-backup.trip.json", false)]

    /// Schema 4 samples (scripts/make-samples-v4.py): the migrated ones and the trip with
    /// attachments; each one's migration 4 → 5 is the v5 sample of the same name (scripts/make-samples-v5.py).
    @Test(arguments: schema4Samples)
    func schema4SamplePassesWithItsSignerAndMigratesToTheV5Sample(file: String, signed: Bool) throws {
        let path = PackagePaths.samples + "/v4/" + file
        let loaded = try TripFileReader().read(path: path)
        #expect(loaded.sourceSchemaVersion == 4)
        #expect(loaded.migration?.steps == ["4→5: no trip zone, member names or successions yet", "5→6: no encryption keys in grants yet", "6→7: no sealed attachment bytes yet"])
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.document.trip.zone == nil && loaded.document.successions.isEmpty)
        #expect(loaded.document.members.values.allSatisfy { $0.name == nil })
        let v5Path = PackagePaths.samples + "/v5/" + file
        if signed {
            let signer = try #require(loaded.signedBy)
            #expect(loaded.document.members[loaded.document.deviceID]?.key == signer)
            let v5 = try TripFileReader().read(path: v5Path)
            #expect(loaded.document.canonicalJSON() == v5.document.canonicalJSON())
            #expect(v5.signedBy == signer)
        } else {
            #expect(loaded.signedBy == nil)
            let bytes = try #require(FileManager.default.contents(atPath: v5Path))
            #expect(loaded.document.canonicalJSON() == Self.asCurrent(bytes))
        }
    }

    /// Schema 5 samples (scripts/make-samples-v5.py): the migrated ones and the trip with a zone,
    /// named grants and a succession.
    @Test(arguments: schema4Samples + [("porto-zone.trip.json", true), ("porto-zone-backup.trip.json", false)])
    func schema5SamplePassesWithItsSigner(file: String, signed: Bool) throws {
        let path = PackagePaths.samples + "/v5/" + file
        let loaded = try TripFileReader().read(path: path)
        #expect(loaded.sourceSchemaVersion == 5)
        #expect(loaded.migration?.steps == ["5→6: no encryption keys in grants yet", "6→7: no sealed attachment bytes yet"])
        #expect(loaded.warnings.isEmpty)
        if signed {
            // Signed by the writing device's member key.
            let signer = try #require(loaded.signedBy)
            #expect(loaded.document.members[loaded.document.deviceID]?.key == signer)
        } else {
            // Unsigned files are canonical: written back byte for byte, as schema 6.
            #expect(loaded.signedBy == nil)
            let bytes = try #require(FileManager.default.contents(atPath: path))
            #expect(loaded.document.canonicalJSON() == Self.asCurrent(bytes))
        }
    }

    /// The schema 5 sample holds what samples/v5/README.md says: the trip's zone, a name in every
    /// grant (signed over the v2 message), Sam's laptop's succession to a new device.
    @Test func zoneSampleHoldsEachAddition() throws {
        let document = try TripFileReader().read(path: PackagePaths.samples + "/v5/porto-zone.trip.json").document
        #expect(document.trip.zone?.value == "Europe/Lisbon")
        #expect(Set(document.members.values.compactMap(\.name)) == ["Alex's laptop", "Sam's laptop", "Rita's phone"])
        // (The reader has checked each grant's signature over its name: grant-name-not-signed in v5/invalid.)
        let owner = try #require(document.owner)
        #expect(document.successions.count == 1)
        let (to, succession) = try #require(document.successions.first)
        let old = try #require(document.members[succession.from])
        #expect(succession.isSigned(by: old.key, trip: document.tripID, to: to))
        #expect(!succession.isSigned(by: owner.key, trip: document.tripID, to: to))
        // The canonical writer gives back the unsigned sample byte for byte.
        let backup = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v5/porto-zone-backup.trip.json"))
        #expect(document.canonicalJSON() == Self.asCurrent(backup))
    }

    /// The attachment sample holds what samples/v4/README.md says: a photo and a ticket shown, a
    /// caption conflict, a detach that had not seen a caption, an attachment of a deleted item.
    @Test func attachmentSampleHoldsEachCase() throws {
        let document = try TripFileReader().read(path: PackagePaths.samples + "/v4/porto-attachments.trip.json").document
        let attachments = document.attachments
        #expect(attachments.count == 5)
        #expect(Set(attachments.values.compactMap { $0.blob?.value.type }) == ["image/jpeg", "image/png", "application/pdf"])
        #expect(attachments.keys.filter { document.isShown($0) }.count == 3)
        #expect(attachments.values.filter { $0.caption?.hasVisibleConflict == true }.count == 1)
        let detached = attachments.values.filter(\.isDetached)
        #expect(detached.count == 1)
        if let detached = detached.first, let caption = detached.caption, let delete = detached.deleted {
            #expect(!delete.value.seen.sees(caption.rev), "the caption was written while detached")
        }
        let ofDeletedItems = attachments.values.filter { $0.item.map { document.tombstones[$0.value] != nil } == true }
        #expect(ofDeletedItems.count == 1 && ofDeletedItems.allSatisfy { !$0.isDetached })
    }

    /// The signed sample without its signature is the backup sample, byte for byte (the v3 and v4
    /// pairs read migrated: `schema3SamplePassesWithItsSignerAndMigratesToTheV4Sample`).
    @Test(arguments: [
        ("v5/porto-owned.trip.json", "v5/porto-backup.trip.json"),
        ("v5/porto-attachments.trip.json", "v5/porto-attachments-backup.trip.json"),
        ("v5/porto-zone.trip.json", "v5/porto-zone-backup.trip.json"),
    ])
    func signedSampleIsTheBackupSigned(signedFile: String, backupFile: String) throws {
        let signed = try TripFileReader().read(path: PackagePaths.samples + "/" + signedFile)
        let backup = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/" + backupFile))
        #expect(signed.document.canonicalJSON() == Self.asCurrent(backup))
    }

    @Test func removedSampleHoldsTheRemoval() throws {
        let removed = try TripFileReader().read(path: PackagePaths.samples + "/v3/porto-removed.trip.json")
        #expect(removed.document.members.values.contains { $0.role == .removed && $0.seen != nil })
    }

    @Test(arguments: [
        ("warnings/unknown-zone.trip.json", "is unknown to this machine"),
        ("warnings/end-before-start.trip.json", "the end is before the start"),
        ("v4/warnings/attachment-item-unknown.trip.json", "which the trip does not hold (it stays hidden)"),
    ])
    func warningSamplesAreValidWithAWarning(file: String, warning: String) {
        let report = TripFileReader().validate(path: PackagePaths.samples + "/" + file)
        #expect(report.isValid)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.message.contains(warning) == true)
    }
}
