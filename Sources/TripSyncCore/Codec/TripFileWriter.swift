import TripSyncPlatform

extension TripDocument {
    /// The canonical JSON bytes of the document (`docs/FORMAT.md`): the same state written by
    /// the same device always gives the same bytes.
    package func canonicalJSON() -> [UInt8] {
        CanonicalWriter.encode(self)
    }

    /// The canonical JSON as gzip: one gzip member per part (`CanonicalWriter.Parts`: at most
    /// 1,500 items), encoded and compressed on every core.
    package func gzipData(_ compression: GzipCompression = .fast) throws -> [UInt8] {
        Gzip.concatenate(try gzipMembers(compression))
    }

    /// The gzip members of the canonical JSON: each part (`CanonicalWriter.Parts`) is encoded
    /// and compressed by one task, so the whole JSON is never in memory at once.
    func gzipMembers(_ compression: GzipCompression) throws -> [OwnedBytes] {
        let parts = CanonicalWriter.Parts(self)
        let members = ParallelMap.map(Array(0..<parts.count)) { index in TripDocument.compress(parts.encode(index), compression) }
        return try TripDocument.collect(members)
    }

    /// One part's JSON as one gzip member.
    private static func compress(_ json: OwnedBytes, _ compression: GzipCompression) -> Result<OwnedBytes, GzipError> {
        withExtendedLifetime(json) {
            Result { () throws(GzipError) -> OwnedBytes in
                try Gzip.compressMember(UnsafeRawBufferPointer(start: json.base, count: json.count), compression)
            }
        }
    }

    /// The members in order, or the first failure as a `FileSystemError`.
    private static func collect(_ members: [Result<OwnedBytes, GzipError>]) throws -> [OwnedBytes] {
        var result: [OwnedBytes] = []
        result.reserveCapacity(members.count)
        for member in members {
            switch member {
            case .success(let bytes): result.append(bytes)
            case .failure(let error): throw FileSystemError(path: "", message: error.message)
            }
        }
        return result
    }

    /// The canonical JSON signed by `key` (docs/FORMAT.md, "Schema 3"): what sync publishes,
    /// as plain JSON.
    package func signedCanonicalJSON(signingKey key: SigningKey) -> [UInt8] {
        Gzip.concatenate(signedParts(key))
    }

    /// The signed canonical JSON as gzip (what sync publishes): the parts are encoded on every
    /// core, hashed in order, the signature written into the last, then each is compressed.
    /// Unlike `gzipData`, the JSON of all parts is in memory at once (it must be hashed
    /// before the part holding the signature can be compressed).
    package func signedGzipData(signingKey key: SigningKey, _ compression: GzipCompression = .fast) throws -> [UInt8] {
        let members = try TripDocument.collect(ParallelMap.map(signedParts(key)) { TripDocument.compress($0, compression) })
        return Gzip.concatenate(members)
    }

    /// The JSON parts with the signature filled in.
    private func signedParts(_ key: SigningKey) -> [OwnedBytes] {
        let layout = CanonicalWriter.Parts(self, signer: key.publicKey)
        let encoded = ParallelMap.map(Array(0..<layout.count)) { layout.encodeMarked($0) }
        let parts = encoded.map(\.bytes)
        let digest = withExtendedLifetime(parts) {
            Sodium.blake2b256(parts.map { UnsafeRawBufferPointer(start: $0.base, count: $0.count) })
        }
        let signature = Array(Base64.encode(key.sign(FileSignature.message(digest: digest))).utf8)
        if let last = encoded.last, let offset = last.signatureOffset, let base = last.bytes.base, offset + signature.count <= last.bytes.count {
            for (index, byte) in signature.enumerated() { base[offset + index] = byte }
        }
        return parts
    }

    /// Writes the document durably (temp file, fsync, rename, fsync the folder): gzip when the
    /// path ends in `.gz`, canonical JSON otherwise.
    package func write(to path: String) throws {
        // Written part by part: the JSON parts (or their gzip members) are never joined in memory.
        let parts = path.hasSuffix(".gz") ? try gzipMembers(.fast) : CanonicalWriter.encodeParts(self)
        try withExtendedLifetime(parts) { try FileIO.writeAtomically(chunks: parts.map(\.view), to: path) }
    }
}

/// How gzip output is compressed. Either way the file is ordinary gzip that any tool reads.
package enum GzipCompression: Sendable, Hashable {
    /// libdeflate at level 1 (the default): 10% smaller than zlib's fastest level, and faster
    /// (docs/PERFORMANCE.md, "Gzip: libdeflate").
    case fast
    /// zlib at `level`: 1 fastest ... 9 smallest, 0 stored (no compression); any other level
    /// is refused with an error.
    case zlib(level: Int32)
}

extension GzipCompression {
    /// `bytes` as one gzip member compressed this way (what writing does to each part of a
    /// document's JSON); throws `FileSystemError` when memory runs out or zlib refuses the level.
    package func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let member = bytes.withUnsafeBytes { buffer in Result { () throws(GzipError) -> OwnedBytes in try Gzip.compressMember(buffer, self) } }
        switch member {
        case .success(let bytes): return bytes.toArray()
        case .failure(let error): throw FileSystemError(path: "", message: error.message)
        }
    }
}
