import TripSync
import TripSyncCore
import TripSyncHome

/// `tripsync gc [--folder FOLDER] [--dry-run]`.
enum GCCommand: Command {
    static let spec = CommandSpec(
        name: "gc",
        summary: "remove attachment bytes nothing names any more",
        forms: ["[--folder] [--dry-run]"],
        about: """
            Removes from this home the attachment bytes (HOME/blobs) that no attachment of any trip
            here names: live, detached, of a deleted item, or staged are all kept.
            With --folder, removes instead from FOLDER/<tripId>/blobs the bytes that no trip file
            in that trip folder (nor this home) names, once 90 days have passed since they were
            written. A trip file that cannot be read keeps every blob of its trip.
            --dry-run lists what would go and removes nothing.
            """,
        options: [
            OptionSpec("--folder", .folder("FOLDER"), "clean FOLDER/<tripId>/blobs instead of this home"),
            OptionSpec("--dry-run", .flag, "list what would go; remove nothing"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        try HomeAccess.requireExisting(global)
        guard parser.positionals.isEmpty else { throw CLIError.usage("gc takes no arguments", command: name) }
        let home = HomeAccess.home(global)
        let dryRun = parser.has("--dry-run")
        let result = try Session.attachmentWork(nothing: "nothing was removed") {
            if let folder = parser.value("--folder") {
                return try BlobCleanup.folder(folder, home: home, now: UTCTimestamp(millisecondsSinceEpoch: FileMerger.wallClockMilliseconds()), dryRun: dryRun)
            }
            return try BlobCleanup.home(home, dryRun: dryRun)
        }
        for notice in result.notices { Console.warning(notice) }
        for path in result.removed { Console.out((dryRun ? "would remove " : "removed ") + path) }
        Console.out("\(dryRun ? "would remove" : "removed") \(result.removed.count) blob(s), \(ByteCount.text(result.bytes)); kept \(result.kept)")
    }
}
