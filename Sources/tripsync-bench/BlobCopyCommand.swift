import Foundation
import TripSync
import TripSyncHome

/// `tripsync-bench blob-copy SRC DESTDIR`: exactly the library's resumable, verified copy
/// (`BlobCopy.copy`) of the blob file SRC (named by its SHA-256) into the folder DESTDIR; what
/// Tests/killcopy/run.sh kills and runs again. Prints the blob, its size and the verified length
/// it resumed from.
enum BlobCopyCommand {
    static let usage = "usage: tripsync-bench blob-copy SRC DESTDIR   (SRC named by its SHA-256)"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2, !arguments.contains(where: { $0.hasPrefix("-") }) else {
            throw UsageError(message: "blob-copy needs a source file and a destination folder", usage: usage)
        }
        let result = try BlobCopy.copy(blob: arguments[0], into: arguments[1], limit: Int64.max)
        print("\(result.blob) \(result.size) bytes, resumed from \(result.resumedFrom)\(result.alreadyThere ? ", already there" : "")")
    }
}
