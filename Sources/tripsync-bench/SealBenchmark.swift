import Foundation
import TripSync
import TripSyncCore
import TripSyncPlatform

/// `tripsync-bench seal FILE... [--repeat R]`: what sealing a device file would add to writing
/// it (issue 43), measured on the primitives alone: the document written as gzip (what every
/// write does today), then that gzip padded to its bucket (`sodium_pad`) and sealed with the
/// XChaCha20-Poly1305 secret stream (64 KiB chunks, associated data on each), and opened again
/// (pull every chunk, final tag required, unpad). Medians in ms, and sealing as a share of the
/// gzip write. It checks that opening gives the gzip bytes back.
enum SealBenchmark {
    static let usage = "usage: tripsync-bench seal FILE... [--repeat R]"

    static func run(_ arguments: [String]) throws {
        let (files, repeats) = try ArgumentParser.filesAndRepeats(arguments, usage: usage, command: "seal")
        let key = Sodium.randomSecret(Sodium.streamKeyBytes)
        let data = Array("tripsync-sealed-file-v1\nTRIP\n1\nDEVICE\ngzip-json".utf8)
        print("file                          gzip bytes   padded bytes   gzip ms   pad+seal ms   open+unpad ms   seal/gzip")
        for file in files {
            let document = try TripFileReader().read(path: file).document
            let gzip = try document.gzipData()
            var padded = gzip
            Sodium.pad(&padded)
            let sealed = Sodium.streamSeal(padded, key: key, additionalData: data)
            guard case .success(let opened) = Sodium.streamOpen(sealed, key: key, additionalData: data),
                let count = opened.withUnsafeBytes({ Sodium.unpaddedCount($0) }), Array(opened.prefix(count)) == gzip
            else { throw UsageError(message: "\(file): the sealed bytes did not open to the gzip bytes", usage: usage) }
            let write = try Stats.medianSeconds(repeats: repeats, producing: { try document.gzipData() })
            let seal = Stats.medianSeconds(repeats: repeats, producing: { () -> [UInt8] in
                var bytes = gzip
                Sodium.pad(&bytes)
                return Sodium.streamSeal(bytes, key: key, additionalData: data)
            })
            let open = Stats.medianSeconds(repeats: repeats, producing: { () -> Int? in
                guard case .success(let bytes) = Sodium.streamOpen(sealed, key: key, additionalData: data) else { return nil }
                return bytes.withUnsafeBytes { Sodium.unpaddedCount($0) }
            })
            let name = String((file as NSString).lastPathComponent.prefix(28))
            let numbers = String(
                format: "%11d %14d %9.2f %13.2f %15.2f %10.1f%%", gzip.count, padded.count, write * 1000, seal * 1000, open * 1000,
                seal / write * 100)
            print(name.padding(toLength: 29, withPad: " ", startingAt: 0) + numbers)
        }
    }
}
