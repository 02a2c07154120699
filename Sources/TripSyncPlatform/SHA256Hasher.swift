import COpenSSL

/// A streaming SHA-256 (FIPS 180-4) through OpenSSL's libcrypto (`SHA256_Update`), which uses
/// the CPU's SHA instructions: about four times libsodium's speed on large files
/// (docs/PERFORMANCE.md, "Issue 17"). All of the package's libcrypto calls are here.
package final class SHA256Hasher {
    /// The digest state; owned, freed with the hasher.
    private let context: UnsafeMutablePointer<SHA256_CTX>
    /// The bytes fed so far.
    package private(set) var count: Int64 = 0

    /// A hasher over no bytes yet.
    package init() {
        context = UnsafeMutablePointer<SHA256_CTX>.allocate(capacity: 1)
        restart()
    }

    deinit { context.deallocate() }

    /// Forgets every byte fed: the hasher is over no bytes again.
    package func restart() {
        // Fills the state; it returns 1 always (it takes no memory and checks nothing).
        _ = SHA256_Init(context)
        count = 0
    }

    /// Feeds `bytes`.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = SHA256_Update(context, base, bytes.count)
        count += Int64(bytes.count)
    }

    /// Feeds `bytes`.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of every byte fed; the hasher then starts over.
    package func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = digest.withUnsafeMutableBufferPointer { SHA256_Final($0.baseAddress, context) }
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
