import Foundation
import Testing

@testable import TripSyncCore
import TripSyncFixtures
@testable import TripSyncPlatform

/// Sealed trip files (issue 43, layer 4): an owned trip's file padded, sealed with the epoch key
/// and signed. Each refusal below is a file a host or a member could plant; each would be read
/// as a trip file if the check it names were missing.
@Suite struct SealedFileTests {
    static let epoch = EpochKey.generate(epoch: 3)
    static let writer = MemberTests.keys[0]

    /// The member test trip (owned, writer `ids[0]`), its gzip and its sealed bytes.
    static func sealed(
        key: EpochKey = epoch, signingKey: SigningKey = writer, writer device: DeviceID? = nil, trip: TripID? = nil
    ) throws -> (document: TripDocument, gzip: [UInt8], bytes: [UInt8]) {
        let (document, _) = try MemberTests.trip()
        let gzip = try document.gzipData()
        let bytes = SealedFile.seal(
            gzip: gzip, trip: trip ?? document.tripID, writer: device ?? document.deviceID, key: key, signingKey: signingKey)
        return (document, gzip, bytes)
    }

    static func reader(_ keys: [EpochKey] = [epoch], trip: TripID) -> TripFileReader {
        TripFileReader(sealKeys: OpeningKeys(trip: trip, keys: keys))
    }

    @Test func aMemberReadsTheSameDocumentSignedByTheWriter() throws {
        let (document, _, bytes) = try Self.sealed()
        let loaded = try Self.reader(trip: document.tripID).read(bytes: bytes, file: "sealed")
        #expect(loaded.document.canonicalJSON() == document.canonicalJSON())
        #expect(loaded.wasSealed && loaded.signedBy == Self.writer.publicKey)
        // Sealing again gives other bytes (a fresh stream header), so a host cannot tell two
        // files apart by content, only by size.
        let (_, _, again) = try Self.sealed()
        #expect(again != bytes && again.count == bytes.count)
        #expect(SealedFile.holds(again, gzip: try document.gzipData(), key: Self.epoch, signer: Self.writer.publicKey))
    }

    @Test func withoutTheKeyTheEnvelopeIsCheckedAndTheContentsAreSaidToBeSealed() throws {
        let (document, _, bytes) = try Self.sealed()
        let other = EpochKey.generate(epoch: 3)
        for reader in [TripFileReader(), Self.reader([other], trip: document.tripID), Self.reader(trip: DeviceID.random())] {
            do {
                _ = try reader.read(bytes: bytes, file: "sealed")
                Issue.record("read without the epoch key")
            } catch {
                #expect(error.kind == .sealed(epoch: 3), "\(error)")
                #expect(error.errorKind == .sealedFile)
            }
        }
    }

    @Test func everyChangedByteAndEveryCutIsRefused() throws {
        let (document, _, bytes) = try Self.sealed()
        let reader = Self.reader(trip: document.tripID)
        var accepted: [Int] = []
        for position in bytes.indices {
            var tampered = bytes
            tampered[position] ^= 0x01
            if (try? reader.read(bytes: tampered, file: "t")) != nil { accepted.append(position) }
        }
        #expect(accepted.isEmpty, "changed bytes at \(accepted.prefix(10)) were accepted")
        var cut: [Int] = []
        for length in 0..<bytes.count where (try? reader.read(bytes: Array(bytes.prefix(length)), file: "t")) != nil { cut.append(length) }
        #expect(cut.isEmpty, "cut at \(cut.prefix(10)) was accepted")
        #expect((try? reader.read(bytes: bytes + [0], file: "t")) == nil, "a byte added")
    }

    @Test func aLargeFileIsManyChunksAndACutAtAChunkBoundaryIsRefused() throws {
        var (document, _) = try MemberTests.trip()
        var hlc = HybridLogicalClock()
        hlc.observe(MemberTests.start + 100)
        for index in 0..<2000 {
            try document.addItem(
                DeviceID.random(), NewItem(title: "Item \(index) \(DeviceID.random())", sortKey: "V", place: "\(DeviceID.random())"), hlc: &hlc,
                now: MemberTests.start + 100)
        }
        let gzip = try document.gzipData()
        #expect(gzip.count > 2 * Sodium.streamChunkBytes, "\(gzip.count) bytes: more than two chunks")
        let bytes = SealedFile.seal(gzip: gzip, trip: document.tripID, writer: document.deviceID, key: Self.epoch, signingKey: Self.writer)
        let reader = Self.reader(trip: document.tripID)
        #expect(try reader.read(bytes: bytes, file: "large").document.canonicalJSON() == document.canonicalJSON())
        // Re-signed after dropping the last chunk (a writer's own key, the header's length
        // fixed): the stream lacks its final tag.
        let envelope = try SealedFile(parsing: bytes)
        let chunk = Sodium.streamChunkBytes + Sodium.streamChunkOverhead
        let full = (envelope.ciphertext.count - Sodium.streamHeaderBytes) / chunk
        let cut = Array(envelope.ciphertext.prefix(Sodium.streamHeaderBytes + full * chunk))
        let forged = Self.resealed(envelope, ciphertext: cut, signingKey: Self.writer)
        do {
            _ = try reader.read(bytes: forged, file: "cut")
            Issue.record("a stream cut at a chunk boundary was read")
        } catch {
            #expect(error.description.contains("cut short") || error.description.contains("does not open"), "\(error)")
        }
    }

    /// `envelope` with `ciphertext` and a header changed by `edit`, signed again by `signingKey`
    /// (what a member holding its own key, or a host holding none, can make).
    static func resealed(_ envelope: SealedFile, ciphertext: [UInt8], signingKey: SigningKey, edit: (inout SealedFile) -> Void = { _ in }) -> [UInt8] {
        var changed = envelope
        changed.ciphertext = ciphertext
        changed.signer = signingKey.publicKey
        edit(&changed)
        var bytes = changed.headerLine + ciphertext
        bytes += signingKey.sign(SealedFile.message(signing: bytes))
        return bytes
    }

    @Test func aFileMovedToAnotherTripOrRelabelledDoesNotOpen() throws {
        let (document, _, bytes) = try Self.sealed()
        let envelope = try SealedFile(parsing: bytes)
        let otherTrip = DeviceID.random()
        let keysOfBoth = OpeningKeys { _, id in id == Self.epoch.id ? Self.epoch : nil }
        let reader = TripFileReader(sealKeys: keysOfBoth)
        // The header relabelled and signed again by the writer itself: the associated data no
        // longer matches what was sealed, so nothing opens.
        let relabels: [(String, (inout SealedFile) -> Void)] = [
            ("another trip", { $0.trip = otherTrip }),
            ("another writer", { $0.writer = MemberTests.ids[1] }),
        ]
        for (what, edit) in relabels {
            let forged = Self.resealed(envelope, ciphertext: envelope.ciphertext, signingKey: Self.writer, edit: edit)
            do {
                _ = try reader.read(bytes: forged, file: what)
                Issue.record("\(what): read")
            } catch {
                #expect(error.description.contains("does not open"), "\(what): \(error)")
            }
        }
        // Sealed honestly for another trip, it opens, and names a trip this file is not of.
        let moved = SealedFile.seal(gzip: try document.gzipData(), trip: otherTrip, writer: document.deviceID, key: Self.epoch, signingKey: Self.writer)
        #expect(throws: TripFileError.self) { try reader.read(bytes: moved, file: "moved") }
    }

    @Test func aFileOpenedAndSealedAgainByAnotherMemberNamesThatMembersKey() throws {
        // Mallory (a member, key 1) opens the writer's file and seals it again as the writer's,
        // signing with her own key: the reader says who signed, and sync takes a file only from
        // the key granted to the device inside (`FileAcceptance`).
        let (document, gzip, _) = try Self.sealed()
        let mallory = MemberTests.keys[1]
        let forged = SealedFile.seal(gzip: gzip, trip: document.tripID, writer: document.deviceID, key: Self.epoch, signingKey: mallory)
        let loaded = try Self.reader(trip: document.tripID).read(bytes: forged, file: "forged")
        #expect(loaded.signedBy == mallory.publicKey && loaded.signedBy != document.members[document.deviceID]?.key)
        // Sealed as her own device with the writer's document inside: refused, the writer named
        // outside is not the one inside.
        let renamed = SealedFile.seal(gzip: gzip, trip: document.tripID, writer: MemberTests.ids[1], key: Self.epoch, signingKey: mallory)
        do {
            _ = try Self.reader(trip: document.tripID).read(bytes: renamed, file: "renamed")
            Issue.record("a file whose envelope names another writer was read")
        } catch {
            #expect(error.errors.map(\.pointer) == ["/deviceId"], "\(error)")
        }
    }

    @Test func anOpenTripIsNeverSealed() throws {
        var (document, _) = try MemberTests.trip()
        document.owner = nil
        document.members = [:]
        let bytes = SealedFile.seal(gzip: try document.gzipData(), trip: document.tripID, writer: document.deviceID, key: Self.epoch, signingKey: Self.writer)
        do {
            _ = try Self.reader(trip: document.tripID).read(bytes: bytes, file: "open")
            Issue.record("an open trip's sealed file was read")
        } catch {
            #expect(error.errors.map(\.pointer).contains("/owner"), "\(error)")
        }
    }

    @Test func noTypedValueAppearsInTheSealedBytesInAnyForm() throws {
        let marker = "PASSPORT-X7Q9"
        var (document, hlc) = try MemberTests.trip()
        try document.addItem(DeviceID.random(), NewItem(title: marker, sortKey: "W", place: marker, note: marker), hlc: &hlc, now: MemberTests.start + 9)
        let bytes = SealedFile.seal(gzip: try document.gzipData(), trip: document.tripID, writer: document.deviceID, key: Self.epoch, signingKey: Self.writer)
        for form in MarkerForms.all(marker) { #expect(!MarkerForms.contains(bytes, form), "found \(form.count) bytes of a marker form") }
        // Nothing in it inflates: the gzip is inside the ciphertext.
        #expect(MarkerForms.inflatedStreams(bytes).isEmpty)
        // The header is all the host reads: ids, the epoch, a key, a length.
        let header = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        #expect(!header.contains("Porto") && !header.contains("Ribeira"))
    }

    /// The Porto trip's epoch 2 key of samples/v6/README.md.
    static var sampleKey: EpochKey {
        get throws {
            var bytes = SHA256.digest(Array("tripsync-sample-epoch:2".utf8))
            return try #require(EpochKey(epoch: 2, key: SecretBytes(taking: &bytes)))
        }
    }

    @Test func theSampleSealedByPythonFromTheFormatPageOpens() throws {
        // samples/v7/sealed: made by scripts/make-sealed-sample.py from docs/FORMAT.md alone.
        let path = PackagePaths.samples + "/v7/sealed/porto.sealed.trip.json.gz"
        let inside = try TripFileReader().read(path: PackagePaths.samples + "/v6/porto-boxes-backup.trip.json").document
        let loaded = try Self.reader([try Self.sampleKey], trip: inside.tripID).read(path: path)
        #expect(loaded.wasSealed && loaded.document == inside)
        #expect(loaded.signedBy == inside.members[inside.deviceID]?.key, "signed by Alex's laptop's device key")
        #expect(TripFileReader().validate(path: path).contentsChecked == false)
    }

    @Test(.enabled(if: SealedFileTests.pythonHasNaCl, "needs python3 with PyNaCl (.ci/run installs it)"))
    func pythonOpensAFileSealedHereByTheFormatPageAlone() throws {
        let inside = try TripFileReader().read(path: PackagePaths.samples + "/v6/porto-boxes-backup.trip.json").document
        let signing = try #require(SigningKey(seed: SHA256.digest(Array("tripsync-sample-key:v3/device/alex".utf8))))
        let bytes = SealedFile.seal(gzip: try inside.gzipData(), trip: inside.tripID, writer: inside.deviceID, key: try Self.sampleKey, signingKey: signing)
        let file = NSTemporaryDirectory() + "tripsync-sealed-\(UUID().uuidString).trip.json.gz"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let key = Base64.encode(SHA256.digest(Array("tripsync-sample-epoch:2".utf8)))
        let (status, output) = try Self.python([PackagePaths.root + "/scripts/make-sealed-sample.py", "--open", file, key])
        #expect(status == 0, "\(String(decoding: output, as: UTF8.self))")
        #expect(try TripFileReader().read(bytes: output, file: "python").document == inside)
    }

    static let pythonHasNaCl: Bool = (try? python(["-c", "import nacl.bindings"]).status) == 0

    static func python(_ arguments: [String]) throws -> (status: Int32, output: [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](data))
    }

    @Test func aFileOfTheLastVersionBeforeSealedFilesSaysNewerInsteadOfBroken() throws {
        // A schema 6 reader's probe reads `schemaVersion` first; the envelope puts it first.
        let (_, _, bytes) = try Self.sealed()
        #expect(bytes.starts(with: Array("{\"schemaVersion\":7,".utf8)))
        // The probe every build runs on a file that is not gzip finds version 7, so a build
        // that reads up to 6 refuses it as newer before it reaches the binary part.
        let version = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { SchemaVersionProbe(JSONScanner(base: $0, count: buffer.count), delimitsItems: false).version }
        }
        #expect(version == 7)
    }
}

