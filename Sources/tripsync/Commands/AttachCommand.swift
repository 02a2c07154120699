import Foundation
import TripSync
import TripSyncHome

/// `tripsync attach ITEM FILE [--caption C] [--strip-location]`.
enum AttachCommand: Command {
    static let spec = CommandSpec(
        name: "attach",
        summary: "attach a photo, ticket or PDF to an item (shared by the next sync)",
        forms: ["ITEM FILE [--caption] [--strip-location] [--trip]"],
        about: """
            Copies FILE into this home at once (checked by its SHA-256; at most 100 MiB unless
            TRIPSYNC_ATTACHMENT_LIMIT_MB says otherwise) and shows it on this laptop as "not yet
            shared". The next 'tripsync sync' puts the bytes into the trip folder and only then adds
            the attachment to the trip, so companions never see one whose bytes are not there.
            The type comes from the file's first bytes, never its name.

            A photo (JPEG, PNG, WebP, HEIC) that records where it was taken (Exif or XMP GPS)
            is reported; --strip-location stores a copy without the location (orientation and the
            rest kept). A file whose location cannot be removed (a GIF, a PDF, a HEIC whose Exif
            cannot be edited in place) is refused with --strip-location, naming its type.
            """,
        options: [
            OptionSpec("--caption", .text("C"), "the attachment's caption"),
            OptionSpec("--strip-location", .flag, "store a copy without the photo's location"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 2 else { throw CLIError.usage("attach needs an ITEM and a FILE", command: name) }
        let (selector, file) = (parser.positionals[0], parser.positionals[1])
        let store = try Session.store(global, trip: parser.value("--trip"))
        let limit = try AttachmentLimit.fromEnvironment()
        let outcome = try Session.attachmentWork(nothing: "nothing was attached") {
            let item = try store.edit { trip in try trip.item(selector) }
            return try store.attach(file: file, to: item, caption: parser.value("--caption"), stripLocation: parser.has("--strip-location"), limit: limit)
        }
        let entry = outcome.entry
        Console.out("attached \(entry.name) (\(entry.blob.type), \(ByteCount.text(entry.blob.size))) as \(entry.id.description.prefix(8)): not yet shared; the next sync shares it")
        if outcome.stripped {
            Console.out("stored without its location (\(outcome.location))")
        } else if outcome.location.recordsLocation {
            Console.warning("\(file) records where it was taken (\(outcome.location)); companions will see it. To keep it private: tripsync detach \(entry.id.description.prefix(8)), then attach again with --strip-location")
        }
    }
}

/// The limit per attachment: `TRIPSYNC_ATTACHMENT_LIMIT_MB` (whole MiB), else 100 MiB.
enum AttachmentLimit {
    static func fromEnvironment() throws -> Int64 {
        guard let text = ProcessEnvironment.process["TRIPSYNC_ATTACHMENT_LIMIT_MB"] else { return BlobStore.defaultLimit }
        guard let megabytes = Int64(text), (1...1_000_000).contains(megabytes) else {
            throw CLIError.refused("TRIPSYNC_ATTACHMENT_LIMIT_MB is \"\(text.prefix(20))\", expected whole MiB from 1 to 1000000")
        }
        return megabytes << 20
    }
}
