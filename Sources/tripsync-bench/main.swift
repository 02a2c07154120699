import Foundation

/// The TripSync benchmark tool: `generate`, `read-write`, `sync-noop`, `compare`, `phases`, `gzip`, `signatures`, `strip-location`, `attachments`, `blob-copy`, `peak-read`, `hostile`, `members`, `edit`, `web`, `seal`, `sealed-sync`. All timing of the
/// package lives here, never in tests.
let topUsage = """
    usage: tripsync-bench <command> [options]
      generate --items N --out DIR                 write DIR/trip-N.trip.json and .json.gz
      read-write [--sizes A,B,C] [--repeat R] [--json] [--python-script PATH]
                                                   read/write throughput, peak RSS, Python floors
      sync-noop [--trips N] [--devices N] [--items N]  first and no-op sync of a large shared folder
      compare [--sizes A,B] [--repeat R] [--script PATH]
                                                   `tripsync merge` end to end next to Loro and Yrs
      phases A B                                   where the time of one merge goes
      gzip FILE... [--repeat R]                    TripSync's gzip encoder next to zlib's fastest level
      signatures [--sizes A,B] [--repeat R]        what checking and making signed files cost, next to a merge
      strip-location IN OUT [--repeat R]           a copy of the photo IN (JPEG, PNG, WebP, HEIC) without its location
      attachments [--megabytes N] [--repeat R] [--dir DIR]
                                                   blob hashing and copying next to openssl dgst and cp
      blob-copy SRC DESTDIR                        the library's resumable verified blob copy (Tests/killcopy)
      hostile [--tombstones N] [--devices N] [--forked N] [--values N] [--repeat R]
                                                   a hostile file next to a plain one of its size (issue 26)
      members [--files N] [--successions N] [--requests N] [--repeat R]
                                                   hostile members' files next to a plain one (issue 41)
      edit [--items N] [--runs N] [--binary PATH]  `tripsync add` and `edit` end to end on a large trip (issue 30)
      web [--items N] [--repeat R]                 `tripsync open`: itinerary render and a write's round trip over loopback
      seal FILE... [--repeat R]                    padding and the secret stream on a file's gzip, next to writing the gzip
      sealed-sync [--items N] [--repeat R]         two laptops' syncs of one trip, open and sealed, side by side
      peak-read FILE | --baseline                  (internal) print this process's peak RSS after a read
    """

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "generate": try GenerateCommand.run(Array(arguments.dropFirst()))
    case "read-write": try ReadWriteBenchmark.run(Array(arguments.dropFirst()))
    case "peak-read": try PeakReadCommand.run(Array(arguments.dropFirst()))
    case "phases": try PhaseTiming.run(Array(arguments.dropFirst()))
    case "gzip": try GzipBenchmark.run(Array(arguments.dropFirst()))
    case "compare": try CompareCommand.run(Array(arguments.dropFirst()))
    case "sync-noop": try SyncBenchmark.run(Array(arguments.dropFirst()))
    case "signatures": try SignatureBenchmark.run(Array(arguments.dropFirst()))
    case "strip-location": try StripLocationCommand.run(Array(arguments.dropFirst()))
    case "attachments": try AttachmentsBenchmark.run(Array(arguments.dropFirst()))
    case "blob-copy": try BlobCopyCommand.run(Array(arguments.dropFirst()))
    case "hostile": try HostileBenchmark.run(Array(arguments.dropFirst()))
    case "members": try MembersBenchmark.run(Array(arguments.dropFirst()))
    case "edit": try EditBenchmark.run(Array(arguments.dropFirst()))
    case "web": try WebBenchmark.run(Array(arguments.dropFirst()))
    case "seal": try SealBenchmark.run(Array(arguments.dropFirst()))
    case "sealed-sync": try SyncSealedBenchmark.run(Array(arguments.dropFirst()))
    case "-h", "--help", "help": print(topUsage)
    default:
        FileHandle.standardError.write(Data((topUsage + "\n").utf8))
        exit(2)
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("tripsync-bench: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("tripsync-bench: \(error)\n".utf8))
    exit(1)
}
