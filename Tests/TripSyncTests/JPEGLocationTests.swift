import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncHome

/// Issue 17, location in photos: `JPEGLocation.find` reads Exif GPS (both byte orders) and XMP
/// GPS from hostile bytes; `JPEGLocation.strip` removes them in place, keeping orientation, every
/// other tag, the thumbnail and the image data byte for byte.
@Suite struct JPEGLocationTests {
    static let lisbonLatitude = 38 + 42.0 / 60 + 28.44 / 3600
    static let lisbonLongitude = -(9 + 8.0 / 60 + 11.52 / 3600)

    static func fixture(_ order: JPEGFixture.ByteOrder = .little, _ change: (inout JPEGFixture) -> Void = { _ in }) -> JPEGFixture {
        var fixture = JPEGFixture()
        fixture.byteOrder = order
        change(&fixture)
        return fixture
    }

    /// The JPEG of `fixture` with its TIFF data changed by `corrupt` (offsets from `layout`).
    static func hostile(_ fixture: JPEGFixture, _ corrupt: (inout [UInt8], JPEGFixture.Layout) -> Void) -> [UInt8] {
        var (tiff, layout) = fixture.tiff()
        corrupt(&tiff, layout)
        return JPEGFixture.jpeg(segments: [(0xE1, Array("Exif".utf8) + [0, 0] + tiff)], scanData: fixture.scanData)
    }

    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        JPEGXMPLocation.find(part, in: bytes, bytes.indices) != nil
    }

    static func coordinate(_ finding: JPEGLocation.Finding) -> JPEGLocation.Coordinate? {
        if case .location(let coordinate) = finding { return coordinate }
        return nil
    }

    /// The tags of IFD0 and of the directories chained after it.
    static func chainTags(_ bytes: [UInt8]) -> [[UInt16]] {
        guard let segment = JPEGSegments(bytes).app1.first, let data = EXIFTIFF.exifPayload(bytes, segment.payload),
              let tiff = EXIFTIFF(bytes, tiff: data) else { return [] }
        return tiff.chain().map { $0.entries.map(\.tag) }
    }

    /// The bytes outside the first APP1 segment's payload.
    static func outsideFirstAPP1(_ bytes: [UInt8]) -> [UInt8] {
        guard let segment = JPEGSegments(bytes).app1.first else { return bytes }
        return Array(bytes[..<segment.payload.lowerBound] + bytes[segment.payload.upperBound...])
    }

    @Test(arguments: [JPEGFixture.ByteOrder.little, .big])
    func findsTheGPSPositionInEitherByteOrder(order: JPEGFixture.ByteOrder) throws {
        let finding = JPEGLocation.find(in: Self.fixture(order).bytes())
        let coordinate = try #require(Self.coordinate(finding))
        #expect(abs(coordinate.latitude - Self.lisbonLatitude) < 1e-9)
        #expect(abs(coordinate.longitude - Self.lisbonLongitude) < 1e-9)
        #expect(coordinate.source == .exif)
        #expect(finding.description == "location 38.707900, -9.136533 (Exif GPS)")
        #expect(finding.recordsLocation)
    }

    @Test func southAndEastAndDegreesOnlyDecode() throws {
        let fixture = Self.fixture(.big) {
            $0.gps = .init(latitudeRef: "S", latitude: [(3386, 100)], longitudeRef: "E", longitude: [(151, 1), (12, 1)])
        }
        let coordinate = try #require(Self.coordinate(JPEGLocation.find(in: fixture.bytes())))
        #expect(abs(coordinate.latitude + 33.86) < 1e-9)
        #expect(abs(coordinate.longitude - 151.2) < 1e-9)
    }

    @Test(arguments: [JPEGFixture.ByteOrder.little, .big])
    func stripKeepsOrientationTagsThumbnailAndImageData(order: JPEGFixture.ByteOrder) throws {
        let fixture = Self.fixture(order)
        let input = fixture.bytes()
        let stripped = JPEGLocation.strip(input)
        let output = stripped.bytes
        #expect(stripped.changes.count == 1)
        #expect(stripped.keptOtherMetadata)
        #expect(Self.coordinate(stripped.finding)?.source == .exif)
        #expect(JPEGLocation.find(in: output) == JPEGLocation.Finding.none)
        #expect(output.count == input.count)
        // Every GPS value is gone from the file.
        for value in fixture.gpsValueBytes() {
            #expect(Self.contains(input, value))
            #expect(!Self.contains(output, value))
        }
        // IFD0 lost only the GPS pointer; IFD1 (the thumbnail's) is whole; the rest is untouched.
        #expect(Self.chainTags(input) == [[0x010F, 0x0112, 0x8769, 0x8825], [0x0103, 0x0201, 0x0202]])
        #expect(Self.chainTags(output) == [[0x010F, 0x0112, 0x8769], [0x0103, 0x0201, 0x0202]])
        #expect(Self.outsideFirstAPP1(output) == Self.outsideFirstAPP1(input))
        let segment = try #require(JPEGSegments(output).app1.first)
        let data = try #require(EXIFTIFF.exifPayload(output, segment.payload))
        let tiff = try #require(EXIFTIFF(output, tiff: data))
        let ifd0 = try #require(tiff.chain().first)
        let orientation = try #require(ifd0.entries.first { $0.tag == 0x0112 })
        #expect(tiff.u16(orientation.offset + 8) == 6)
        let make = try #require(ifd0.entries.first { $0.tag == 0x010F }.flatMap(tiff.values))
        #expect(Array(output[tiff.start + make.lowerBound..<tiff.start + make.upperBound]) == Array("TripSync Camera".utf8) + [0])
        // Outside IFD0 and the GPS directory, the TIFF data is the same bytes (thumbnail, Exif directory).
        let layout = fixture.tiff().layout
        let gpsEnd = try #require(layout.ifd1)
        let (original, _) = fixture.tiff()
        let after = Array(output[(tiff.start + gpsEnd)..<segment.payload.upperBound])
        #expect(after == Array(original[gpsEnd...]))
        let gpsStart = try #require(layout.gps)
        #expect(output[(tiff.start + gpsStart)..<(tiff.start + gpsEnd)].allSatisfy { $0 == 0 })
        // Idempotent: stripping the copy changes nothing.
        let again = JPEGLocation.strip(output)
        #expect(again.bytes == output && again.changes.isEmpty && again.finding == JPEGLocation.Finding.none)
    }

    @Test func aPhotoWithoutLocationOrNotAJPEGComesBackUnchanged() {
        let plain = Self.fixture { $0.gps = nil }.bytes()
        #expect(JPEGLocation.find(in: plain) == JPEGLocation.Finding.none)
        let stripped = JPEGLocation.strip(plain)
        #expect(stripped.bytes == plain && stripped.changes.isEmpty && stripped.finding == JPEGLocation.Finding.none)
        let noExif = Self.fixture { $0.exif = false }.bytes()
        #expect(JPEGLocation.find(in: noExif) == JPEGLocation.Finding.none)
        for other in [Array("\u{89}PNG\r\n\u{1A}\n".utf8), [], [0xFF], Array("Exif\0\0II*\0".utf8)] {
            #expect(JPEGLocation.find(in: other) == .notJPEG)
            let result = JPEGLocation.strip(other)
            #expect(result.bytes == other && result.finding == .notJPEG && result.changes.isEmpty)
        }
        #expect(!JPEGLocation.Finding.none.recordsLocation && !JPEGLocation.Finding.notJPEG.recordsLocation)
    }

    @Test(arguments: [
        ("attributes", JPEGFixture.xmpAttributes(), ["38,42.474N", "9,8.192W", "exif:GPSAltitude"], ["tiff:Orientation=\"6\""], 3),
        ("elements", JPEGFixture.xmpElements(), ["38,42,28.44N", "9,8,11.52W", "GPSVersionID"], ["<dc:title>", "Tram 28"], 3),
    ])
    func xmpGPSIsFoundAndOverwrittenWithSpaces(form: String, packet: String, gone: [String], kept: [String], count: Int) throws {
        let input = Self.fixture { $0.exif = false; $0.xmp = packet }.bytes()
        let coordinate = try #require(Self.coordinate(JPEGLocation.find(in: input)), "\(form)")
        #expect(coordinate.source == .xmp)
        #expect(abs(coordinate.latitude - Self.lisbonLatitude) < 1e-9)
        #expect(abs(coordinate.longitude - Self.lisbonLongitude) < 1e-9)
        let stripped = JPEGLocation.strip(input)
        #expect(stripped.changes == [.xmpPropertiesRemoved(segmentOffset: 20, count: count)])
        #expect(stripped.bytes.count == input.count)
        #expect(JPEGLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none)
        for text in gone { #expect(!Self.contains(stripped.bytes, Array(text.utf8)), "\(text)") }
        for text in kept + ["<rdf:Description", "</x:xmpmeta>"] { #expect(Self.contains(stripped.bytes, Array(text.utf8)), "\(text)") }
        // Only the properties became spaces.
        let differing = zip(input, stripped.bytes).filter { $0 != $1 }
        #expect(!differing.isEmpty && differing.allSatisfy { $0.1 == 0x20 })
    }

    @Test func exifWinsOverXMPAndBothAreStripped() throws {
        let fixture = Self.fixture { $0.xmp = JPEGFixture.xmpAttributes(latitude: "10,0N", longitude: "20,0E") }
        let input = fixture.bytes()
        #expect(Self.coordinate(JPEGLocation.find(in: input))?.source == .exif)
        let stripped = JPEGLocation.strip(input)
        #expect(stripped.changes.count == 2)
        #expect(JPEGLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none)
        #expect(!Self.contains(stripped.bytes, Array("10,0N".utf8)))
    }

    @Test func aSecondImageAfterTheFirstIsReadAndStrippedToo() {
        let first = Self.fixture { $0.gps = nil }
        let second = Self.fixture(.big)
        let input = first.bytes() + second.bytes()
        #expect(JPEGSegments(input).app1.count == 2)
        #expect(JPEGLocation.find(in: input).recordsLocation)
        let stripped = JPEGLocation.strip(input)
        #expect(JPEGLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none)
        for value in second.gpsValueBytes() { #expect(!Self.contains(stripped.bytes, value)) }
        #expect(Array(stripped.bytes.prefix(first.bytes().count)) == first.bytes())
    }

    /// Hostile TIFF data: each must be read without crashing, give this finding, and strip to a
    /// copy of the same length that reads as no location.
    static let hostileCases: [(String, Bool, @Sendable (inout [UInt8], JPEGFixture.Layout) -> Void)] = [
        ("GPS pointer past the end", true, { tiff, _ in
            tiff.replaceSubrange(8 + 2 + 12 * 3 + 8..<8 + 2 + 12 * 3 + 12, with: [0xF0, 0xFF, 0xFF, 0x7F])
        }),
        ("IFD0 past the end", true, { tiff, _ in tiff.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0, 0]) }),
        ("IFD0 entry count 65535", true, { tiff, _ in tiff.replaceSubrange(8..<10, with: [0xFF, 0xFF]) }),
        ("not a TIFF header", true, { tiff, _ in tiff[2] = 0x2B }),
        ("IFD1 links back to IFD0", false, { tiff, layout in
            let link = layout.ifd1! + 2 + 12 * 3
            tiff.replaceSubrange(link..<link + 4, with: [8, 0, 0, 0])
        }),
        ("IFD0 links to itself", false, { tiff, _ in
            let link = 8 + 2 + 12 * 4
            tiff.replaceSubrange(link..<link + 4, with: [8, 0, 0, 0])
        }),
        ("GPS latitude count 2^32-1", true, { tiff, layout in
            let entry = layout.gps! + 2 + 12 * 2
            tiff.replaceSubrange(entry + 4..<entry + 8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        }),
        ("GPS latitude values past the end", true, { tiff, layout in
            let entry = layout.gps! + 2 + 12 * 2
            tiff.replaceSubrange(entry + 8..<entry + 12, with: [0xFF, 0xFF, 0xFF, 0x0F])
        }),
        ("GPS latitude denominator 0", true, { tiff, layout in
            let value = layout.gps! + 2 + 12 * 7 + 4 + 4  // the first rational's denominator
            tiff.replaceSubrange(value..<value + 4, with: [0, 0, 0, 0])
        }),
        ("GPS directory count past the end", true, { tiff, layout in tiff.replaceSubrange(layout.gps!..<layout.gps! + 2, with: [0xFF, 0x7F]) }),
        ("GPS directory at IFD0 itself", true, { tiff, _ in
            let value = 8 + 2 + 12 * 3 + 8
            tiff.replaceSubrange(value..<value + 4, with: [8, 0, 0, 0])
        }),
        ("GPS directory at offset 0", true, { tiff, _ in
            let value = 8 + 2 + 12 * 3 + 8
            tiff.replaceSubrange(value..<value + 4, with: [0, 0, 0, 0])
        }),
    ]

    @Test(arguments: hostileCases.indices)
    func hostileExifIsReadSafelyAndStripsToNoLocation(index: Int) {
        let (name, unreadable, corrupt) = Self.hostileCases[index]
        let input = Self.hostile(JPEGFixture(), corrupt)
        let finding = JPEGLocation.find(in: input)
        if unreadable {
            guard case .unreadable(let reason) = finding else {
                Issue.record("\(name): \(finding)")
                return
            }
            #expect(reason.contains("offset 2"), "\(name): \(reason)")
        } else {
            #expect(Self.coordinate(finding) != nil, "\(name): \(finding)")
        }
        let stripped = JPEGLocation.strip(input)
        #expect(stripped.bytes.count == input.count, "\(name)")
        #expect(JPEGLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none, "\(name)")
        #expect(Self.outsideFirstAPP1(stripped.bytes).suffix(40) == Self.outsideFirstAPP1(input).suffix(40), "\(name)")
    }

    @Test func anExifSegmentThatCannotBeReadIsBlankedIntoAComment() throws {
        let input = Self.hostile(JPEGFixture()) { tiff, _ in tiff.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0, 0]) }
        let stripped = JPEGLocation.strip(input)
        #expect(!stripped.keptOtherMetadata)
        guard case .segmentBlanked(let offset, _) = try #require(stripped.changes.first) else {
            Issue.record("\(stripped.changes)")
            return
        }
        #expect(stripped.bytes[offset + 1] == 0xFE)
        #expect(JPEGSegments(stripped.bytes).app1.isEmpty)
    }

    @Test func gpsValuesOverlappingIFD0BlankTheSegmentRatherThanDamageIt() {
        // GPSAltitude's value offset points at IFD0: zeroing it would take the orientation along.
        let input = Self.hostile(JPEGFixture()) { tiff, layout in
            let entry = layout.gps! + 2 + 12 * 6
            tiff.replaceSubrange(entry + 8..<entry + 12, with: [8, 0, 0, 0])
        }
        #expect(Self.coordinate(JPEGLocation.find(in: input)) != nil)
        let stripped = JPEGLocation.strip(input)
        #expect(!stripped.keptOtherMetadata)
        #expect(JPEGSegments(stripped.bytes).app1.isEmpty)
        #expect(JPEGLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none)
    }

    @Test func thousandsOfGPSPointersAreRefusedPastFourDirectories() {
        // IFD0 of 3,000 GPS pointers to 3,000 different (empty) directories in the zeros after it.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0xB8, 0x0B]
        let zeros = 8 + 2 + 12 * 3000 + 4
        for index in 0..<3000 {
            let at = UInt32(zeros + 2 * index)
            tiff += [0x25, 0x88, 4, 0, 1, 0, 0, 0] + [UInt8(at & 0xFF), UInt8(at >> 8 & 0xFF), 0, 0]
        }
        tiff += [UInt8](repeating: 0, count: 4 + 6006)
        let input = JPEGFixture.jpeg(segments: [(0xE1, Array("Exif".utf8) + [0, 0] + tiff)], scanData: [1])
        #expect(JPEGLocation.find(in: input) == .unreadable("the Exif data at offset 2 points to more than 4 GPS directories"))
        #expect(JPEGLocation.find(in: JPEGLocation.strip(input).bytes) == JPEGLocation.Finding.none)
        // The zeros are written as joined ranges.
        #expect(EXIFLocation.merged([5..<9, 0..<2, 2..<3, 7..<12, 20..<20]) == [0..<3, 5..<12])
    }

    @Test func truncatedFilesAreReadAsFarAsTheyGo() {
        let input = Self.fixture().bytes()
        let segment = JPEGSegments(input).app1[0]
        // Cut inside the Exif segment, after the GPS directory: still found, and stripped.
        let layout = Self.fixture().tiff().layout
        let cut = Array(input.prefix(segment.payload.lowerBound + 6 + layout.ifd1!))
        #expect(Self.coordinate(JPEGLocation.find(in: cut)) != nil)
        #expect(JPEGLocation.find(in: JPEGLocation.strip(cut).bytes) == JPEGLocation.Finding.none)
        // Cut inside the image data: the headers are whole.
        #expect(Self.coordinate(JPEGLocation.find(in: Array(input.dropLast(5)))) != nil)
        // Every prefix reads without crashing, and strips to no location.
        for length in 0..<input.count {
            let prefix = Array(input.prefix(length))
            #expect(!JPEGLocation.find(in: JPEGLocation.strip(prefix).bytes).recordsLocation, "prefix \(length)")
        }
    }

    @Test(arguments: [
        ("an element never closed", "<x:xmpmeta><exif:GPSLatitude>38,42.474N</x:xmpmeta>"),
        ("a quote never closed", "<rdf:Description exif:GPSLatitude=\"38,42.474N/>"),
        ("a closing tag without its opening", "<rdf:Description>38,42.474N</exif:GPSLatitude>"),
        ("a prefix longer than 64 bytes", "<rdf:Description \(String(repeating: "p", count: 70)):GPSLatitude=\"38,42.474N\"/>"),
    ])
    func xmpWhoseGPSCannotBeDelimitedIsBlankedWhole(name: String, packet: String) {
        let input = Self.fixture { $0.exif = false; $0.xmp = packet }.bytes()
        guard case .unreadable(let reason) = JPEGLocation.find(in: input) else {
            Issue.record("\(name): \(JPEGLocation.find(in: input))")
            return
        }
        #expect(reason.contains("XMP packet at offset 20"), "\(name): \(reason)")
        let stripped = JPEGLocation.strip(input)
        #expect(!stripped.keptOtherMetadata, "\(name)")
        #expect(!Self.contains(stripped.bytes, Array("38,42.474N".utf8)), "\(name)")
        #expect(JPEGLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none, "\(name)")
    }

    @Test func xmpTextThatOnlyMentionsGPSIsNoLocation() {
        let packet = "<rdf:Description dc:description=\"no :GPS here, nor GPSLatitude\"><dc:note>see exif:GPSLatitude docs</dc:note></rdf:Description>"
        let input = Self.fixture { $0.exif = false; $0.xmp = packet }.bytes()
        #expect(JPEGLocation.find(in: input) == JPEGLocation.Finding.none)
        #expect(JPEGLocation.strip(input).bytes == input)
    }

    @Test func extendedXMPThatMentionsGPSIsBlanked() {
        let header = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0] + [UInt8](repeating: 0x41, count: 32) + [0, 0, 0, 40, 0, 0, 0, 0]
        let chunks = ["<rdf:Description exif:GPSLat", "itude=\"1,2N\" exif:GPSLongitude=\"3,4E\"/>"]
        let segments = chunks.map { (marker: UInt8(0xE1), payload: header + Array($0.utf8)) }
        let input = JPEGFixture.jpeg(segments: segments, scanData: [1, 2, 3])
        let finding = JPEGLocation.find(in: input)
        #expect(Self.coordinate(finding).map { abs($0.latitude - (1 + 2.0 / 60)) < 1e-9 && $0.longitude > 3 } == true, "\(finding)")
        let stripped = JPEGLocation.strip(input)
        #expect(stripped.changes.count == 1 && !stripped.keptOtherMetadata)
        #expect(JPEGSegments(stripped.bytes).app1.isEmpty)
        #expect(JPEGLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none)
    }

    @Test(arguments: [("38,42.474N", 38.7079), ("38,42,28.44N", 38.7079), ("38.7079N", 38.7079), ("0,30S", -0.5), (" 9,8.192W ", -9.136533)])
    func xmpCoordinateTexts(text: String, expected: Double) {
        let letters = text.contains("N") || text.contains("S") ? "NS" : "EW"
        let value = JPEGXMPLocation.degrees(Array(text.utf8)[...], letters, limit: 180)
        #expect(value.map { abs($0 - expected) < 1e-6 } == true, "\(text): \(String(describing: value))")
    }

    @Test(arguments: ["91,0N", "38,42.474", "38,,1N", "1,2,3,4N", "1e3N", "38,42.474E", "inf,0N", ""])
    func xmpCoordinateTextsRefused(text: String) {
        #expect(JPEGXMPLocation.degrees(Array(text.utf8)[...], "NS", limit: 90) == nil, "\(text)")
    }

    /// Seeded random damage to the fixtures (bytes changed, cut, repeated): the reader never
    /// crashes, and stripping always yields a copy of the same length that reads as no location,
    /// or the input itself when it recorded none.
    @Test func randomlyDamagedPhotosAlwaysStripToNoLocation() {
        var random = SeededGenerator(seed: 17)
        let bases = [Self.fixture(.little).bytes(), Self.fixture(.big).bytes(),
                     Self.fixture { $0.xmp = JPEGFixture.xmpElements() }.bytes(),
                     Self.fixture(.big) { $0.exif = false; $0.xmp = JPEGFixture.xmpAttributes() }.bytes()]
        var located = 0
        for round in 0..<3000 {
            var bytes = bases[round % bases.count]
            for _ in 0...(random.next() % 4) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes[at] = [0x00, 0xFF, 0x88, 0x25, 0x3A][Int(random.next() % 5)]
                case 2: bytes = Array(bytes.prefix(max(2, at)))
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 8)], at: at)
                }
            }
            let finding = JPEGLocation.find(in: bytes)
            if finding.recordsLocation { located += 1 }
            let stripped = JPEGLocation.strip(bytes)
            #expect(stripped.finding == finding)
            #expect(stripped.bytes.count == bytes.count)
            #expect(!JPEGLocation.find(in: stripped.bytes).recordsLocation, "round \(round)")
            if !finding.recordsLocation { #expect(stripped.bytes == bytes, "round \(round)") }
        }
        #expect(located > 1000)
    }

    @Test func stripFileWritesTheCopyAndNamesAFileItCannotRead() throws {
        let folder = temporaryFolder()
        let input = folder + "/photo.jpg"
        try FileIO.writeAtomically(Self.fixture().bytes(), to: input)
        let result = try JPEGLocation.stripFile(input, to: folder + "/copy.jpg", maxBytes: 1 << 20)
        #expect(result.finding.recordsLocation)
        #expect(try FileIO.readFile(folder + "/copy.jpg", maxBytes: 1 << 20) == result.bytes)
        #expect(throws: FileSystemError.self) { try JPEGLocation.stripFile(folder + "/missing.jpg", to: folder + "/x.jpg", maxBytes: 1 << 20) }
        do {
            _ = try JPEGLocation.stripFile(input, to: folder + "/y.jpg", maxBytes: 10)
            Issue.record("a file over the limit was read")
        } catch let error as FileSystemError {
            #expect(error.path == input && error.description.contains("more than the limit of 10"))
        }
    }

    /// The fuzz target's seeds (Fuzz/seeds/exif), written from these fixtures when
    /// TRIPSYNC_WRITE_FUZZ_SEEDS=1 and checked on every run.
    @Test func fuzzSeedsAreTheFixtures() throws {
        let folder = PackagePaths.root + "/Fuzz/seeds/exif"
        let seeds: [(String, [UInt8])] = [
            ("exif-le-gps-thumbnail.jpg", Self.fixture(.little).bytes()),
            ("exif-be-gps-thumbnail.jpg", Self.fixture(.big).bytes()),
            ("exif-le-no-gps.jpg", Self.fixture { $0.gps = nil }.bytes()),
            ("xmp-attributes.jpg", Self.fixture { $0.exif = false; $0.xmp = JPEGFixture.xmpAttributes() }.bytes()),
            ("exif-be-xmp-elements.jpg", Self.fixture(.big) { $0.xmp = JPEGFixture.xmpElements() }.bytes()),
            ("two-images.jpg", Self.fixture { $0.gps = nil }.bytes() + Self.fixture(.big) { $0.thumbnail = false }.bytes()),
            // FuzzExif's wrapped forms: 0x00 then TIFF data, 0x02 then an XMP packet.
            ("wrapped-tiff-be.bin", [0x00] + Self.fixture(.big).tiff().bytes),
            ("wrapped-xmp-elements.bin", [0x02] + Array(JPEGFixture.xmpElements().utf8)),
        ]
        if ProcessInfo.processInfo.environment["TRIPSYNC_WRITE_FUZZ_SEEDS"] == "1" {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, bytes) in seeds { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        }
        for (name, bytes) in seeds {
            #expect(try FileIO.readFile(folder + "/" + name, maxBytes: 1 << 20) == bytes, "\(name): run with TRIPSYNC_WRITE_FUZZ_SEEDS=1")
        }
    }
}
