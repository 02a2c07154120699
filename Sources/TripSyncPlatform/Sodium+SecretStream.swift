import CSodium

/// XChaCha20-Poly1305 in libsodium's secret stream (`crypto_secretstream_xchacha20poly1305`):
/// a sealed file's bytes, in chunks each with its own MAC, the last one tagged final, so a
/// stream cut after any chunk, chunks reordered, dropped or repeated, or a byte changed is
/// refused (docs/FORMAT.md, "Sealed files").
///
/// Layout: the 24-byte header, then chunks of `chunkBytes` plaintext bytes sealed to
/// `chunkBytes + 17`, tagged `MESSAGE`; the last chunk (0 to `chunkBytes` bytes, the only one
/// when the plaintext is short) tagged `FINAL`. The associated data goes with every chunk.
extension Sodium {
    /// Bytes of a secret-stream key (32).
    package static var streamKeyBytes: Int { Int(crypto_secretstream_xchacha20poly1305_KEYBYTES) }
    /// Bytes of a secret stream's header (24).
    package static var streamHeaderBytes: Int { Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES) }
    /// Bytes each chunk adds to its plaintext (a tag byte and a 16-byte MAC: 17).
    package static var streamChunkOverhead: Int { Int(crypto_secretstream_xchacha20poly1305_ABYTES) }
    /// Plaintext bytes of each chunk but the last (64 KiB).
    package static let streamChunkBytes = 65_536

    /// Why a secret stream was refused.
    package enum StreamFailure: Error, Hashable, Sendable {
        /// Shorter than a header and one empty chunk.
        case tooShort
        /// The key does not have 32 bytes.
        case badKey
        /// Chunk `index` (from 0) did not open: a byte changed, a chunk moved, the wrong key or
        /// associated data, or a chunk cut short.
        case chunkRefused(index: Int)
        /// The last chunk is not tagged final: the stream was cut after a whole chunk.
        case finalMissing
        /// Chunk `index` is tagged final but more chunks follow.
        case dataAfterFinal(index: Int)
    }

    /// Bytes of the stream that seals `plaintextCount` bytes in chunks of `chunkBytes`.
    package static func streamSealedCount(plaintextCount: Int, chunkBytes: Int = streamChunkBytes) -> Int {
        let chunks = max(1, (plaintextCount + chunkBytes - 1) / chunkBytes)
        return streamHeaderBytes + plaintextCount + chunks * streamChunkOverhead
    }

    /// `plaintext` sealed under `key` (32 bytes) with `additionalData` bound to every chunk; a
    /// fresh random header each time, so the same plaintext never seals to the same bytes.
    package static func streamSeal(
        _ plaintext: UnsafeRawBufferPointer, key: SecretBytes, additionalData: [UInt8], chunkBytes: Int = streamChunkBytes
    ) -> [UInt8] {
        start()
        precondition(key.count == streamKeyBytes, "a secret-stream key has 32 bytes")
        precondition(chunkBytes > 0, "chunks have at least one byte")
        let total = streamSealedCount(plaintextCount: plaintext.count, chunkBytes: chunkBytes)
        var state = crypto_secretstream_xchacha20poly1305_state()
        defer { sodium_memzero(&state, MemoryLayout.size(ofValue: state)) }
        return [UInt8](unsafeUninitializedCapacity: total) { output, written in
            guard let out = output.baseAddress else { return }
            key.withPointer { key, _ in _ = crypto_secretstream_xchacha20poly1305_init_push(&state, out, key) }
            var offset = streamHeaderBytes
            var consumed = 0
            let input = plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self)
            let empty: UInt8 = 0
            withUnsafePointer(to: empty) { emptyPointer in
                repeat {
                    let count = min(chunkBytes, plaintext.count - consumed)
                    let last = consumed + count == plaintext.count
                    let tag = UInt8(last ? crypto_secretstream_xchacha20poly1305_TAG_FINAL : crypto_secretstream_xchacha20poly1305_TAG_MESSAGE)
                    var length: UInt64 = 0
                    _ = crypto_secretstream_xchacha20poly1305_push(
                        &state, out + offset, &length, (input ?? emptyPointer) + (input == nil ? 0 : consumed), UInt64(count),
                        additionalData, UInt64(additionalData.count), tag)
                    offset += Int(length)
                    consumed += count
                    if last { break }
                } while true
            }
            written = offset
        }
    }

    /// `streamSeal` of an array.
    package static func streamSeal(_ plaintext: [UInt8], key: SecretBytes, additionalData: [UInt8], chunkBytes: Int = streamChunkBytes) -> [UInt8] {
        plaintext.withUnsafeBytes { streamSeal($0, key: key, additionalData: additionalData, chunkBytes: chunkBytes) }
    }

    /// The plaintext of a stream sealed by `streamSeal` with the same key, associated data and
    /// chunk size, or why it was refused. The last chunk must be tagged final and be the last
    /// bytes: a stream cut at a chunk boundary is refused as much as a changed byte.
    package static func streamOpen(
        _ sealed: [UInt8], key: SecretBytes, additionalData: [UInt8], chunkBytes: Int = streamChunkBytes
    ) -> Result<[UInt8], StreamFailure> {
        start()
        guard key.count == streamKeyBytes else { return .failure(.badKey) }
        guard chunkBytes > 0, sealed.count >= streamHeaderBytes + streamChunkOverhead else { return .failure(.tooShort) }
        let sealedChunk = chunkBytes + streamChunkOverhead
        let body = sealed.count - streamHeaderBytes
        let chunks = max(1, (body + sealedChunk - 1) / sealedChunk)
        // Every chunk but the last is full; the last has at least its overhead.
        let lastCount = body - (chunks - 1) * sealedChunk
        guard lastCount >= streamChunkOverhead else { return .failure(.chunkRefused(index: chunks - 1)) }
        var state = crypto_secretstream_xchacha20poly1305_state()
        defer { sodium_memzero(&state, MemoryLayout.size(ofValue: state)) }
        var failure: StreamFailure?
        let plaintext = sealed.withUnsafeBufferPointer { input -> [UInt8] in
            guard let base = input.baseAddress else { failure = .tooShort; return [] }
            let started = key.withPointer { key, _ in crypto_secretstream_xchacha20poly1305_init_pull(&state, base, key) }
            guard started == 0 else { failure = .chunkRefused(index: 0); return [] }
            return [UInt8](unsafeUninitializedCapacity: body - chunks * streamChunkOverhead) { output, written in
                written = 0
                guard let out = output.baseAddress else {
                    failure = .tooShort
                    return
                }
                var offset = streamHeaderBytes
                for index in 0..<chunks {
                    let count = index == chunks - 1 ? lastCount : sealedChunk
                    var length: UInt64 = 0
                    var tag: UInt8 = 0
                    let result = crypto_secretstream_xchacha20poly1305_pull(
                        &state, out + written, &length, &tag, base + offset, UInt64(count), additionalData, UInt64(additionalData.count))
                    guard result == 0 else {
                        failure = .chunkRefused(index: index)
                        return
                    }
                    let final = tag == UInt8(crypto_secretstream_xchacha20poly1305_TAG_FINAL)
                    if final && index != chunks - 1 {
                        failure = .dataAfterFinal(index: index)
                        return
                    }
                    if !final && index == chunks - 1 {
                        failure = .finalMissing
                        return
                    }
                    written += Int(length)
                    offset += count
                }
            }
        }
        if let failure { return .failure(failure) }
        return .success(plaintext)
    }
}
