import TripSyncPlatform

/// A sealed trip file (docs/FORMAT.md, "Sealed files"): what an owned trip's device file and
/// backup are once the trip has an epoch key. One line of canonical JSON that says what is
/// inside without saying anything typed (the trip id, the epoch, the writer and its signing
/// key, the format, the ciphertext's length), a line feed, the ciphertext, then the writer's
/// Ed25519 signature over the two (encrypt-then-sign).
///
/// The ciphertext is the XChaCha20-Poly1305 secret stream (`Sodium.streamSeal`) under the epoch
/// key of the file's gzip JSON padded to its size bucket (`Sodium.pad`), with the trip id, the
/// epoch, its id, the writer and the format as associated data on every chunk. So a file moved
/// to another trip, relabelled with another epoch or writer, cut short, or changed in any byte
/// does not open; and a file opened and sealed again by another member carries that member's
/// signature, which sync refuses for a file its writer did not sign.
///
/// The header starts with `{"schemaVersion":7,`: a TripSync that predates sealed files says
/// the file was written by a newer TripSync instead of calling it broken.
package struct SealedFile: Sendable {
    /// The schema version a sealed file's header declares.
    package static let schemaVersion = 7
    /// The envelope's own version.
    package static let version = 1
    /// The only format sealed so far: gzip of canonical JSON.
    package static let gzipJSON = "gzip-json"
    /// The most bytes a header line may have.
    static let maximumHeaderBytes = 1024
    /// Bytes of the signature at the end.
    static let signatureBytes = 64

    /// The trip.
    package var trip: TripID
    /// The epoch whose key sealed it.
    package var epoch: Int
    /// That epoch key's id (`EpochKey.id`).
    package var epochID: String
    /// The device that wrote it: the document inside must be its (`deviceId`).
    package var writer: DeviceID
    /// The key that signed it, the writer's signing key.
    package var signer: PublicKey
    /// What the plaintext is (`gzipJSON`).
    package var format: String
    /// The ciphertext.
    package var ciphertext: [UInt8]

    private init(trip: TripID, epoch: Int, epochID: String, writer: DeviceID, signer: PublicKey, format: String, ciphertext: [UInt8]) {
        self.trip = trip
        self.epoch = epoch
        self.epochID = epochID
        self.writer = writer
        self.signer = signer
        self.format = format
        self.ciphertext = ciphertext
    }

    /// Whether `bytes` start like a sealed file (its header's first bytes), so a reader can
    /// tell one from gzip or plain JSON before reading it.
    package static func isSealed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let prefix = headerPrefix
        guard bytes.count >= prefix.count else { return false }
        return zip(bytes.prefix(prefix.count), prefix).allSatisfy { $0 == $1 }
    }

    /// The first bytes of every sealed file.
    static let headerPrefix = Array("{\"schemaVersion\":7,\"sealed\":{".utf8)

    /// `gzip` (the file's gzip JSON) padded and sealed under `key` for `trip`, written by
    /// `writer` and signed by `signingKey`: the bytes of the file.
    package static func seal(gzip: [UInt8], trip: TripID, writer: DeviceID, key: EpochKey, signingKey: SigningKey) -> [UInt8] {
        var plain = gzip
        Sodium.pad(&plain)
        var file = SealedFile(
            trip: trip, epoch: key.epoch, epochID: key.id, writer: writer, signer: signingKey.publicKey, format: gzipJSON, ciphertext: [])
        file.ciphertext = Sodium.streamSeal(plain, key: key.key, additionalData: file.associatedData)
        var bytes = file.headerLine
        bytes.reserveCapacity(bytes.count + file.ciphertext.count + signatureBytes)
        bytes += file.ciphertext
        bytes += signingKey.sign(message(signing: bytes))
        return bytes
    }

    /// Reads a sealed file's envelope as untrusted input: the header's every key, the
    /// ciphertext's length, and the signature, which must verify with the signing key the
    /// header names. Nothing is opened (that needs the epoch key: `open(with:)`).
    package init(parsing bytes: [UInt8]) throws(SealedFileError) {
        guard bytes.withUnsafeBytes({ Self.isSealed($0) }) else {
            throw SealedFileError("", "a sealed trip file (its first line starting {\"schemaVersion\":7,\"sealed\":{)")
        }
        let window = bytes.prefix(Self.maximumHeaderBytes)
        guard let newline = window.firstIndex(of: 0x0A) else {
            throw SealedFileError("/sealed", "a header line of at most \(Self.maximumHeaderBytes) bytes ending in a line feed")
        }
        let header = Array(bytes[..<newline])
        let json: JSONValue
        do {
            json = try JSONValue.parse(header)
        } catch {
            throw SealedFileError("/sealed", "a header of JSON (\(error))")
        }
        guard case .object(let top) = json, Set(top.keys) == ["schemaVersion", "sealed"], case .object(let fields)? = top["sealed"] else {
            throw SealedFileError("", "an object with exactly schemaVersion and sealed")
        }
        let expected: Set<String> = ["deviceKey", "epoch", "epochId", "format", "length", "tripId", "version", "writer"]
        if let extra = Set(fields.keys).subtracting(expected).sorted().first { throw SealedFileError("/sealed/\(extra.prefix(40))", "no such key in a sealed file's header") }
        if let missing = expected.subtracting(fields.keys).sorted().first { throw SealedFileError("/sealed/\(missing)", "this key (it is missing)") }
        guard fields["version"]?.intValue == Int64(Self.version) else { throw SealedFileError("/sealed/version", "\(Self.version)") }
        guard let trip = fields["tripId"]?.stringValue.flatMap(Identifier.init) else { throw SealedFileError("/sealed/tripId", "a trip id (a lowercase UUID)") }
        guard let writer = fields["writer"]?.stringValue.flatMap(Identifier.init) else { throw SealedFileError("/sealed/writer", "a device id (a lowercase UUID)") }
        guard let epoch = fields["epoch"]?.intValue, (1...Int64(EpochKey.maximumEpoch)).contains(epoch) else {
            throw SealedFileError("/sealed/epoch", "an epoch number from 1 to \(EpochKey.maximumEpoch)")
        }
        guard let epochID = fields["epochId"]?.stringValue, EpochKey.isID(epochID) else { throw SealedFileError("/sealed/epochId", "32 lowercase hex digits") }
        guard let signer = fields["deviceKey"]?.stringValue.flatMap(PublicKey.init(base64:)) else {
            throw SealedFileError("/sealed/deviceKey", "a signing key (44 characters of base64)")
        }
        guard fields["format"]?.stringValue == Self.gzipJSON else { throw SealedFileError("/sealed/format", "\"\(Self.gzipJSON)\"") }
        let body = bytes.count - newline - 1 - Self.signatureBytes
        guard let length = fields["length"]?.intValue, length == Int64(body), body >= Sodium.streamHeaderBytes + Sodium.streamChunkOverhead else {
            throw SealedFileError(
                "/sealed/length",
                "the ciphertext's length, \(max(0, body)) bytes as this file has them (the file was cut short or added to, or its header changed)")
        }
        self.init(
            trip: trip, epoch: Int(epoch), epochID: epochID, writer: writer, signer: signer, format: Self.gzipJSON,
            ciphertext: Array(bytes[(newline + 1)..<(bytes.count - Self.signatureBytes)]))
        guard headerLine == Array(bytes[...newline]) else {
            throw SealedFileError("/sealed", "the header in its one canonical spelling (keys sorted, no spaces)")
        }
        let signature = Array(bytes[(bytes.count - Self.signatureBytes)...])
        guard signer.verifies(signature, of: Self.message(signing: bytes[..<(bytes.count - Self.signatureBytes)])) else {
            throw SealedFileError("/sealed/deviceKey", "the signature at the end to verify with this key (the file was changed after it was signed, or signed by another key)")
        }
    }

    /// The gzip JSON inside, opened with `key` (the epoch key the header names); nil when it
    /// does not open: another key, or a ciphertext or header changed since it was sealed.
    package func open(with key: EpochKey) -> Result<[UInt8], SealedFileError> {
        guard key.id == epochID, key.epoch == epoch else { return .failure(SealedFileError("/sealed/epochId", "the id of the epoch key used, \(key.id)")) }
        switch Sodium.streamOpen(ciphertext, key: key.key, additionalData: associatedData) {
        case .failure(let failure):
            return .failure(SealedFileError("", "a ciphertext that opens with epoch \(epoch)'s key (\(Self.describe(failure)))"))
        case .success(var plain):
            guard let count = plain.withUnsafeBytes({ Sodium.unpaddedCount($0) }) else {
                return .failure(SealedFileError("", "padding at the end of the opened contents"))
            }
            plain.removeSubrange(count...)
            return .success(plain)
        }
    }

    /// Whether `bytes` are a sealed file with the gzip JSON `gzip` inside, sealed with `key`
    /// and signed by `signer`: how a writer tells that its published file already holds what
    /// it would write (sealing the same bytes twice gives other bytes each time).
    package static func holds(_ bytes: [UInt8], gzip: [UInt8], key: EpochKey, signer: PublicKey) -> Bool {
        guard bytes.withUnsafeBytes({ isSealed($0) }) else { return false }
        do {
            let file = try SealedFile(parsing: bytes)
            guard file.signer == signer, case .success(let plain) = file.open(with: key) else { return false }
            return plain == gzip
        } catch {
            return false  // not a sealed file as we write them: not what we would write
        }
    }

    /// The header line, canonical JSON and a line feed.
    var headerLine: [UInt8] {
        let fields: JSONValue = [
            "deviceKey": .string(signer.base64), "epoch": .int(Int64(epoch)), "epochId": .string(epochID), "format": .string(format),
            "length": .int(Int64(ciphertext.count)),
            "tripId": .string(trip.description), "version": .int(Int64(Self.version)), "writer": .string(writer.description),
        ]
        let top: JSONValue = ["schemaVersion": .int(Int64(Self.schemaVersion)), "sealed": fields]
        return Array((top.text + "\n").utf8)
    }

    /// The associated data bound to every chunk.
    var associatedData: [UInt8] { Array("tripsync-sealed-file-v1\n\(trip)\n\(epoch)\n\(epochID)\n\(writer)\n\(format)".utf8) }

    /// What the writer signs: the domain, then BLAKE2b-256 of the header line and ciphertext.
    static func message<Bytes: Collection<UInt8>>(signing bytes: Bytes) -> [UInt8] {
        let digest = bytes.withContiguousStorageIfAvailable { Sodium.blake2b256([UnsafeRawBufferPointer($0)]) } ?? Sodium.blake2b256(Array(bytes))
        return Array("tripsync-sealed-v1\n".utf8) + digest
    }

    static func describe(_ failure: Sodium.StreamFailure) -> String {
        switch failure {
        case .tooShort: return "it is too short"
        case .badKey: return "the key is not 32 bytes"
        case .chunkRefused(let index): return "chunk \(index) does not open: a changed byte, another key, or a file moved or relabelled"
        case .finalMissing: return "it was cut short: its last chunk is not the final one"
        case .dataAfterFinal(let index): return "bytes follow its final chunk \(index)"
        }
    }
}
