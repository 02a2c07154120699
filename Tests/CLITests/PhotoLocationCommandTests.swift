import Foundation
import Testing
import TripSync
import TripSyncFixtures
import TripSyncHome

/// Issue 26, finding 7, through the built binary: `attach` reports the location of a PNG, WebP
/// and HEIC photo as of a JPEG, `attach --strip-location` stores a copy without it, and a file
/// whose location cannot be removed is refused with `--strip-location`, naming its type, with
/// nothing attached.
@Suite struct PhotoLocationCommandTests {
    typealias Fixture = PhotoContainerFixture

    static let tiff = JPEGFixture().tiff().bytes
    static let bigTIFF: [UInt8] = {
        var fixture = JPEGFixture()
        fixture.byteOrder = .big
        return fixture.tiff().bytes
    }()
    static let files: [(name: String, bytes: [UInt8], type: String)] = [
        ("photo.png", Fixture.png(exif: tiff, xmp: JPEGFixture.xmpAttributes()), "image/png"),
        ("photo.webp", Fixture.webp(exif: bigTIFF, xmp: JPEGFixture.xmpElements()), "image/webp"),
        ("photo.heic", Fixture.heic(exif: tiff, xmp: JPEGFixture.xmpElements()), "image/heic"),
    ]
    static let located = "records where it was taken (location 38.707900, -9.136533 (Exif GPS))"

    /// A home with a trip and one item, the files written into `folder`; returns the runner and the item.
    static func setUp(_ folder: String) throws -> (run: (String...) throws -> CLIResult, item: String) {
        for file in files { try Data(file.bytes).write(to: URL(fileURLWithPath: folder + "/" + file.name)) }
        try Data(Fixture.heic(exif: tiff, place: .split)).write(to: URL(fileURLWithPath: folder + "/split.heic"))
        try Data(Array("GIF89a\u{1}\0\u{1}\0\0\0\0;".utf8)).write(to: URL(fileURLWithPath: folder + "/anim.gif"))
        func run(_ arguments: String...) throws -> CLIResult {
            try CLI.run(["--home", folder + "/home"] + arguments, cwd: folder)
        }
        #expect(try run("new", "Lisbon 2027", "--open").status == 0)
        let item = try run("add", "Tram 28").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (run, item)
    }

    /// The attachment id `attach` printed ("… as 1a2b3c4d: …").
    static func attachmentID(_ output: String) -> String? {
        guard let range = output.range(of: " as ") else { return nil }
        return String(output[range.upperBound...].prefix(8))
    }

    @Test func attachReportsAndStripsThePNGWebPAndHEICLocation() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (run, item) = try Self.setUp(folder)
        for file in Self.files {
            let plain = try run("attach", item, file.name)
            #expect(plain.status == 0, "\(file.name): \(plain.stderr)")
            #expect(plain.stdout.contains("(\(file.type),"), "\(file.name): \(plain.stdout)")
            #expect(plain.stderr.contains("\(file.name) \(Self.located)"), "\(file.name) without --strip-location: \(plain.stderr)")

            let stripped = try run("attach", item, file.name, "--strip-location")
            #expect(stripped.status == 0, "\(file.name): \(stripped.stderr)")
            #expect(stripped.stdout.contains("stored without its location (location 38.707900, -9.136533 (Exif GPS))"), "\(file.name): \(stripped.stdout)")
            #expect(!stripped.stderr.contains("records where"), "\(file.name): \(stripped.stderr)")
            let id = try #require(Self.attachmentID(stripped.stdout))
            let copy = folder + "/copy-" + file.name
            #expect(try run("extract", id, "-o", copy).status == 0)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy)))
            #expect(PhotoLocation.find(in: bytes) == JPEGLocation.Finding.none, "\(file.name): the stored copy still records a location")
            #expect(BlobType.sniff(Array(bytes.prefix(BlobType.sniffLength))).rawValue == file.type)
            #expect(bytes != file.bytes && bytes.count == file.bytes.count)
        }
    }

    @Test func stripLocationRefusesATypeItCannotStripNamingItAndAttachesNothing() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (run, item) = try Self.setUp(folder)
        // Reported without the flag, refused with it (the Exif item lies in two extents).
        let plain = try run("attach", item, "split.heic")
        #expect(plain.status == 0 && plain.stderr.contains("split.heic \(Self.located)"), "\(plain.stderr)")
        let before = try run("attachments").stdout
        for (name, type) in [("split.heic", "image/heic"), ("anim.gif", "image/gif")] {
            let refused = try run("attach", item, name, "--strip-location")
            #expect(refused.status != 0, "\(name): \(refused.stdout)")
            #expect(refused.stderr.contains(name) && refused.stderr.contains(type) && refused.stderr.contains("nothing was attached"), "\(name): \(refused.stderr)")
        }
        #expect(try run("attachments").stdout == before, "a refused attach changed the attachments")
    }
}
