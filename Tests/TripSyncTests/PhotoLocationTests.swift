import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome

/// Issue 26, finding 7: the location is read and removed in every container the type sniffer
/// knows, by the one Exif and XMP code: PNG (`eXIf`, XMP in `iTXt`/`tEXt`), WebP (`EXIF`,
/// `XMP `, the VP8X flags kept consistent), HEIC/HEIF (Exif and XMP items, in place or
/// refused); any other type is refused by `strip`, naming it.
@Suite struct PhotoLocationTests {
    typealias Fixture = PhotoContainerFixture

    static func tiff(_ order: JPEGFixture.ByteOrder = .little, gps: Bool = true) -> [UInt8] {
        var fixture = JPEGFixture()
        fixture.byteOrder = order
        if !gps { fixture.gps = nil }
        return fixture.tiff().bytes
    }

    static func gpsValues(_ order: JPEGFixture.ByteOrder) -> [[UInt8]] {
        var fixture = JPEGFixture()
        fixture.byteOrder = order
        return fixture.gpsValueBytes()
    }

    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        JPEGXMPLocation.find(part, in: bytes, bytes.indices) != nil
    }

    static func coordinate(_ finding: JPEGLocation.Finding) -> JPEGLocation.Coordinate? {
        if case .location(let coordinate) = finding { return coordinate }
        return nil
    }

    /// The orientation entry (12 bytes) of IFD0 of the TIFF data starting at `start`.
    static func orientation(_ bytes: [UInt8], tiffAt start: Int) -> [UInt8]? {
        guard let tiff = EXIFTIFF(bytes, tiff: start..<bytes.count), let first = tiff.firstDirectory,
              let entry = tiff.directory(at: first)?.entries.first(where: { $0.tag == 0x0112 }) else { return nil }
        return Array(bytes[tiff.start + entry.offset..<tiff.start + entry.offset + 12])
    }

    /// Every container with Exif GPS (both byte orders) and XMP GPS: found (Exif first), and
    /// stripped to a copy of the same length that reads as no location, without the GPS values
    /// or XMP GPS texts, with the orientation entry and the other XMP text kept.
    @Test(arguments: [JPEGFixture.ByteOrder.little, .big], ["png", "png-prefix", "png-text", "webp", "webp-prefix", "webp-simple", "heic", "heic-idat"])
    func everyContainerIsFoundAndStrippedInPlace(order: JPEGFixture.ByteOrder, container: String) throws {
        let xmp = JPEGFixture.xmpElements()
        let input: [UInt8] = switch container {
        case "png": Fixture.png(exif: Self.tiff(order), xmp: xmp)
        case "png-prefix": Fixture.png(exif: Self.tiff(order), exifPrefix: true, xmp: xmp)
        case "png-text": Fixture.png(exif: Self.tiff(order), xmp: xmp, xmpChunk: .tEXt)
        case "webp": Fixture.webp(exif: Self.tiff(order), xmp: xmp)
        case "webp-prefix": Fixture.webp(exif: Self.tiff(order), exifPrefix: true, xmp: xmp)
        case "webp-simple": Fixture.webp(exif: Self.tiff(order), xmp: xmp, vp8x: false)
        case "heic": Fixture.heic(exif: Self.tiff(order), xmp: xmp)
        default: Fixture.heic(exif: Self.tiff(order), xmp: xmp, place: .idat)
        }
        let coordinate = try #require(Self.coordinate(PhotoLocation.find(in: input)), "\(container)")
        #expect(coordinate.source == .exif)
        #expect(abs(coordinate.latitude - JPEGLocationTests.lisbonLatitude) < 1e-9 && abs(coordinate.longitude - JPEGLocationTests.lisbonLongitude) < 1e-9)
        let stripped = try PhotoLocation.strip(input)
        let output = stripped.bytes
        #expect(stripped.finding == PhotoLocation.find(in: input))
        #expect(output.count == input.count, "\(container): edited in place")
        #expect(stripped.keptOtherMetadata, "\(stripped.changes)")
        #expect(stripped.changes.count == 2, "\(stripped.changes)")
        #expect(PhotoLocation.find(in: output) == JPEGLocation.Finding.none, "\(container)")
        for value in Self.gpsValues(order) {
            #expect(Self.contains(input, value) && !Self.contains(output, value), "\(container)")
        }
        for text in ["28.44N", "11.52W", "GPSVersionID"] {
            #expect(Self.contains(input, Array(text.utf8)) && !Self.contains(output, Array(text.utf8)), "\(container): \(text)")
        }
        #expect(Self.contains(output, Array("Tram 28".utf8)), "\(container): the XMP title is kept")
        // The orientation entry is the same 12 bytes, wherever the TIFF data lies.
        let header: [UInt8] = order == .big ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        let at = try #require(JPEGXMPLocation.find(header, in: input, input.indices))
        #expect(Self.orientation(input, tiffAt: at) != nil && Self.orientation(output, tiffAt: at) == Self.orientation(input, tiffAt: at))
        if container.hasPrefix("png") { #expect(Fixture.pngCRCsHold(output), "edited chunks get their CRC again") }
        let again = try PhotoLocation.strip(output)
        #expect(again.bytes == output && again.changes.isEmpty)
    }

    /// The XMP packet alone (no Exif) is found as XMP and stripped, in every container.
    @Test(arguments: ["png", "webp", "heic"])
    func xmpAloneIsFoundAndStripped(container: String) throws {
        let xmp = JPEGFixture.xmpAttributes()
        let input = container == "png" ? Fixture.png(exif: nil, xmp: xmp) : container == "webp" ? Fixture.webp(exif: nil, xmp: xmp) : Fixture.heic(exif: nil, xmp: xmp)
        #expect(Self.coordinate(PhotoLocation.find(in: input))?.source == .xmp, "\(container)")
        let stripped = try PhotoLocation.strip(input)
        #expect(PhotoLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none)
        #expect(Self.contains(stripped.bytes, Array("tiff:Orientation=\"6\"".utf8)))
    }

    /// A photo without location comes back byte for byte, with nothing listed.
    @Test func withoutLocationNothingChanges() throws {
        for input in [Fixture.png(exif: Self.tiff(gps: false)), Fixture.webp(exif: Self.tiff(gps: false)), Fixture.heic(exif: Self.tiff(gps: false)),
                      Fixture.png(exif: nil), Fixture.webp(exif: nil, vp8x: false), Fixture.heic(exif: nil)] {
            #expect(PhotoLocation.find(in: input) == JPEGLocation.Finding.none)
            let stripped = try PhotoLocation.strip(input)
            #expect(stripped.bytes == input && stripped.changes.isEmpty)
        }
    }

    /// A PNG chunk that cannot be edited in place (compressed XMP with GPS, Exif without a TIFF
    /// header, ImageMagick's hex profile, compressed XMP that does not inflate) is reported and
    /// left out of the copy; every other chunk is the same bytes.
    @Test func aPNGChunkThatCannotBeEditedIsLeftOut() throws {
        let compressed = Fixture.png(exif: nil, xmp: JPEGFixture.xmpElements(), xmpChunk: .compressedITXt)
        let broken = Fixture.png(exif: Array("not a TIFF header".utf8))
        let ihdr = Fixture.pngChunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        let tail = Fixture.pngChunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]) + Fixture.pngChunk("IEND", [])
        let signature = Array(compressed.prefix(8))
        let raw = signature + ihdr + Fixture.pngChunk("zTXt", Array("Raw profile type exif".utf8) + [0, 0, 0x78, 0x9C]) + tail
        let cut = signature + ihdr + Fixture.pngChunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0, 0x78, 0x9C, 0x63]) + tail
        #expect(Self.coordinate(PhotoLocation.find(in: compressed))?.source == .xmp, "compressed XMP is inflated and read")
        for (name, input) in [("compressed XMP", compressed), ("broken Exif", broken), ("raw profile", raw), ("cut zlib stream", cut)] {
            if name != "compressed XMP" {
                guard case .unreadable = PhotoLocation.find(in: input) else {
                    Issue.record("\(name): \(PhotoLocation.find(in: input))")
                    continue
                }
            }
            let stripped = try PhotoLocation.strip(input)
            #expect(stripped.bytes == signature + ihdr + tail, "\(name)")
            #expect(!stripped.keptOtherMetadata && stripped.changes.count == 1, "\(name): \(stripped.changes)")
            #expect(PhotoLocation.find(in: stripped.bytes) == JPEGLocation.Finding.none)
        }
    }

    /// Compressed XMP without GPS is inflated, found to record nothing, and kept as it is.
    @Test func compressedXMPWithoutGPSIsNoLocation() throws {
        let input = Fixture.png(exif: Self.tiff(gps: false), xmp: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><dc:title>Tram 28</dc:title></x:xmpmeta>", xmpChunk: .compressedITXt)
        #expect(PhotoLocation.find(in: input) == JPEGLocation.Finding.none)
        #expect(try PhotoLocation.strip(input).bytes == input)
        #expect(Zlib.inflate(Fixture.deflate(Array(repeating: 0x41, count: 1 << 20))[...], limit: 1000) == nil, "stops at the limit")
    }

    /// A WebP chunk left out: the RIFF size counts what is left, and the VP8X Exif flag is
    /// cleared while the XMP flag (its chunk kept) stays.
    @Test func aWebPChunkLeftOutKeepsTheRIFFSizeAndFlagsConsistent() throws {
        let input = Fixture.webp(exif: Array("not a TIFF header!".utf8), xmp: JPEGFixture.xmpAttributes())
        #expect(PhotoLocation.find(in: input).recordsLocation)
        let output = try PhotoLocation.strip(input).bytes
        #expect(PhotoLocation.find(in: output) == JPEGLocation.Finding.none)
        #expect(output.count < input.count)
        #expect(WebPChunks.u32(output, 4) == output.count - 8, "the RIFF size")
        let chunks = WebPChunks(output).chunks
        #expect(chunks.map { String(decoding: $0.type, as: UTF8.self) } == ["VP8X", "VP8L", "XMP "])
        #expect(output[chunks[0].payload.lowerBound] == 0x04, "Exif flag cleared, XMP flag kept")
        #expect(input[WebPChunks(input).chunks[0].payload.lowerBound] == 0x0C)
    }

    /// A HEIC whose Exif item is in two extents is read (the location reported), but not
    /// rewritten: strip refuses, naming the type.
    @Test func aHEICItemThatCannotBeEditedInPlaceIsRefusedNamingTheType() {
        let input = Fixture.heic(exif: Self.tiff(.big), place: .split)
        #expect(Self.coordinate(PhotoLocation.find(in: input))?.source == .exif)
        do {
            _ = try PhotoLocation.strip(input)
            Issue.record("a split HEIC Exif item was stripped")
        } catch {
            #expect(error.type == .heic && error.description.contains("image/heic") && error.description.contains("38.707900"), "\(error)")
        }
    }

    /// A type whose location is not read: found as not a photo; strip refuses, naming it.
    @Test func otherTypesAreRefusedNamingTheType() {
        for (input, type) in [(Array("GIF89a\u{1}\0\u{1}\0".utf8), BlobType.gif), (Array("%PDF-1.4\n".utf8), .pdf), (Array("hello".utf8), .octetStream)] {
            #expect(PhotoLocation.find(in: input) == .notPhoto)
            #expect(throws: PhotoLocationError(type: type, finding: .notPhoto)) { try PhotoLocation.strip(input) }
            #expect(PhotoLocationError(type: type, finding: .notPhoto).description.contains(type.rawValue))
        }
        #expect(!JPEGLocation.Finding.notPhoto.recordsLocation)
    }

    /// Every prefix of every container (files cut short anywhere): no crash, and a strip that
    /// succeeds yields a copy that reads as no location.
    @Test func everyPrefixIsReadAndStrippedSafely() throws {
        let xmp = JPEGFixture.xmpElements()
        for input in [Fixture.png(exif: Self.tiff(), xmp: xmp), Fixture.webp(exif: Self.tiff(.big), xmp: xmp), Fixture.heic(exif: Self.tiff(), xmp: xmp)] {
            for length in 0...input.count {
                let prefix = Array(input.prefix(length))
                let finding = PhotoLocation.find(in: prefix)
                if let stripped = try? PhotoLocation.strip(prefix) {
                    #expect(stripped.finding == finding)
                    #expect(!PhotoLocation.find(in: stripped.bytes).recordsLocation, "prefix \(length)")
                }
            }
            // Cut inside the Exif data, the PNG and WebP chunk is still read, and left out.
            if BlobType.sniff(input) != .heic {
                let cut = Array(input.prefix(input.count - xmp.utf8.count - 40))
                #expect(Self.coordinate(PhotoLocation.find(in: cut)) != nil)
                #expect(PhotoLocation.find(in: try PhotoLocation.strip(cut).bytes) == JPEGLocation.Finding.none)
            }
        }
    }

    /// Seeded random damage (bytes changed, cut, repeated) to every container: never a crash,
    /// and every copy strip makes reads as no location (the input itself when it recorded none).
    @Test func randomlyDamagedContainersAlwaysStripToNoLocation() {
        var random = SeededGenerator(seed: 26)
        let xmp = JPEGFixture.xmpAttributes()
        let bases = [Fixture.png(exif: Self.tiff(), xmp: xmp), Fixture.png(exif: Self.tiff(.big), xmp: xmp, xmpChunk: .compressedITXt),
                     Fixture.webp(exif: Self.tiff(.big), xmp: xmp), Fixture.webp(exif: Self.tiff(), vp8x: false),
                     Fixture.heic(exif: Self.tiff(), xmp: xmp), Fixture.heic(exif: Self.tiff(.big), place: .idat)]
        var located = 0
        var refused = 0
        for round in 0..<3000 {
            var bytes = bases[round % bases.count]
            for _ in 0...(random.next() % 4) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes[at] = [0x00, 0xFF, 0x88, 0x25, 0x01][Int(random.next() % 5)]
                case 2: bytes = Array(bytes.prefix(max(16, at)))
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 8)], at: at)
                }
            }
            let finding = PhotoLocation.find(in: bytes)
            if finding.recordsLocation { located += 1 }
            do {
                let stripped = try PhotoLocation.strip(bytes)
                #expect(stripped.finding == finding)
                #expect(!PhotoLocation.find(in: stripped.bytes).recordsLocation, "round \(round)")
                if !finding.recordsLocation { #expect(stripped.bytes == bytes, "round \(round)") }
                let twice = try PhotoLocation.strip(stripped.bytes)
                #expect(twice.bytes == stripped.bytes && twice.changes.isEmpty, "round \(round)")
            } catch {
                refused += 1
                #expect(error.type != .png && error.type != .webp && error.type != .jpeg, "round \(round): \(error)")
            }
        }
        #expect(located > 1000)
    }

    /// Hostile HEIF tables stay bounded: an iloc with 65,535 extents of no bytes each and an
    /// iinf with many Exif items are read in linear time and reported as unreadable.
    @Test func hostileHEIFTablesAreBounded() {
        let ftyp = Fixture.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1".utf8))
        var infos: [UInt8] = []
        for id in 1...40 { infos += Fixture.fullBox("infe", version: 2, [0, UInt8(id), 0, 0] + Array("Exif".utf8) + [0]) }
        let iinf = Fixture.fullBox("iinf", version: 0, [0, 40] + infos)
        let many = ftyp + Fixture.fullBox("meta", version: 0, iinf)
        guard case .unreadable(let reason) = PhotoLocation.find(in: many) else { Issue.record("\(PhotoLocation.find(in: many))"); return }
        #expect(reason.contains("more than 16"))
        // iloc version 1 with offset and length sizes 0: each extent takes no byte.
        let iloc = Fixture.fullBox("iloc", version: 1, [0x00, 0x00, 0, 1, 0, 2, 0, 0, 0, 0, 0xFF, 0xFF])
        let empty = ftyp + Fixture.fullBox("meta", version: 0, Fixture.fullBox("iinf", version: 0, [0, 1] + Fixture.fullBox("infe", version: 2, [0, 2, 0, 0] + Array("Exif".utf8) + [0])) + iloc)
        #expect(PhotoLocation.find(in: empty).recordsLocation)
    }

    @Test func stripFileWritesTheCopyAndWritesNothingItRefuses() throws {
        let folder = temporaryFolder()
        try FileIO.writeAtomically(Fixture.png(exif: Self.tiff()), to: folder + "/photo.png")
        let result = try PhotoLocation.stripFile(folder + "/photo.png", to: folder + "/copy.png", maxBytes: 1 << 20)
        #expect(result.finding.recordsLocation)
        #expect(try FileIO.readFile(folder + "/copy.png", maxBytes: 1 << 20) == result.bytes)
        try FileIO.writeAtomically(Array("GIF89a".utf8), to: folder + "/a.gif")
        #expect(throws: PhotoLocationError.self) { try PhotoLocation.stripFile(folder + "/a.gif", to: folder + "/b.gif", maxBytes: 1 << 20) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/b.gif"))
    }

    /// FuzzExif's container seeds (Fuzz/seeds/exif), written from these fixtures when
    /// TRIPSYNC_WRITE_FUZZ_SEEDS=1 and checked on every run.
    @Test func fuzzSeedsAreTheContainerFixtures() throws {
        let folder = PackagePaths.root + "/Fuzz/seeds/exif"
        let seeds: [(String, [UInt8])] = [
            ("png-exif-le-xmp.png", Fixture.png(exif: Self.tiff(), xmp: JPEGFixture.xmpElements())),
            ("png-exif-be-compressed-xmp.png", Fixture.png(exif: Self.tiff(.big), exifPrefix: true, xmp: JPEGFixture.xmpAttributes(), xmpChunk: .compressedITXt)),
            ("webp-exif-be-xmp.webp", Fixture.webp(exif: Self.tiff(.big), xmp: JPEGFixture.xmpAttributes())),
            ("webp-simple-exif-le.webp", Fixture.webp(exif: Self.tiff(), exifPrefix: true, vp8x: false)),
            ("heic-exif-le-xmp.heic", Fixture.heic(exif: Self.tiff(), xmp: JPEGFixture.xmpElements())),
            ("heic-exif-be-idat.heic", Fixture.heic(exif: Self.tiff(.big), place: .idat)),
            ("heic-exif-split.heic", Fixture.heic(exif: Self.tiff(), place: .split)),
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
