import COpenSSL

/// A streaming SHA-256 (FIPS 180-4) through OpenSSL's libcrypto (`EVP_sha256`), which uses the
/// CPU's SHA instructions: about four times libsodium's speed on large files (docs/PERFORMANCE.md,
/// "Issue 17"). All of the package's libcrypto calls are here.
package final class SHA256Hasher {
    /// The digest context; owned, freed with the hasher.
    private let context: OpaquePointer
    /// The bytes fed so far.
    package private(set) var count: Int64 = 0

    /// A hasher over no bytes yet.
    package init() {
        // Only allocation can fail here (out of memory), like any other allocation.
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("OpenSSL could not allocate a digest context") }
        self.context = context
        restart()
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Forgets every byte fed: the hasher is over no bytes again.
    package func restart() {
        let started = EVP_DigestInit_ex(context, EVP_sha256(), nil)
        precondition(started == 1, "OpenSSL could not start SHA-256")
        count = 0
    }

    /// Feeds `bytes`.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = EVP_DigestUpdate(context, base, bytes.count)
        count += Int64(bytes.count)
    }

    /// Feeds `bytes`.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of every byte fed; the hasher then starts over.
    package func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        restart()
        return digest
    }

    /// The 32-byte SHA-256 digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finish()
    }
}
