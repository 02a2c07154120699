import TripSync
import TripSyncPlatform
import TripSyncHome

/// `tripsync-bench strip-location IN OUT [--repeat R]`: writes a copy of the photo `IN` (JPEG,
/// PNG, WebP, HEIC) without its location to `OUT` (`PhotoLocation.stripFile`, the code `tripsync
/// attach --strip-location` runs) and prints what `IN` recorded and what was removed; with
/// `--repeat`, also the median time of finding and of stripping in memory. A file it cannot
/// strip (another type, some HEIC files) is refused, exit 1, nothing written.
///
/// The path `Tests/exif/check.py` strips real photos made by Pillow through.
enum StripLocationCommand {
    static let usage = "usage: tripsync-bench strip-location IN OUT [--repeat R]"
    /// The attachments' default size limit (issue 17).
    static let maxBytes = 100 << 20

    static func run(_ arguments: [String]) throws {
        var paths: [String] = []
        var repeats = 0
        var parser = ArgumentParser(arguments, usage: usage)
        while let argument = parser.nextOption() {
            if argument == "--repeat" {
                repeats = try parser.positiveInt(for: argument)
            } else if argument.hasPrefix("--") {
                throw UsageError(message: "unknown option '\(argument)'", usage: usage)
            } else {
                paths.append(argument)
            }
        }
        guard paths.count == 2 else { throw UsageError(message: "expected IN and OUT", usage: usage) }
        let stripped = try PhotoLocation.stripFile(paths[0], to: paths[1], maxBytes: maxBytes)
        print("\(paths[0]): \(stripped.finding)")
        for change in stripped.changes { print("  \(change)") }
        print("wrote \(paths[1]) (\(stripped.bytes.count) bytes, \(stripped.changes.isEmpty ? "unchanged" : "without location"))")
        guard repeats > 0 else { return }
        let bytes = try FileIO.readFile(paths[0], maxBytes: maxBytes)
        let find = Stats.medianSeconds(repeats: repeats) { blackHole(PhotoLocation.find(in: bytes)) }
        let strip = Stats.medianSeconds(repeats: repeats) { blackHole(Result { () throws(PhotoLocationError) in try PhotoLocation.strip(bytes) }) }
        print("find \(Stats.format(find * 1e6)) µs, strip \(Stats.format(strip * 1e6)) µs (median of \(repeats), \(bytes.count) bytes)")
    }
}
