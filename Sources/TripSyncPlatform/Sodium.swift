import CSodium

/// All libsodium calls of the package: SHA-256, BLAKE2b, Ed25519, Argon2id and secretbox here;
/// X25519 sealed boxes, the XChaCha20-Poly1305 secret stream and padding in the files beside
/// it (`Sodium+Box.swift`, `Sodium+SecretStream.swift`, `Sodium+Padding.swift`). Nothing is
/// cryptography of our own; each function is one documented libsodium call.
package enum Sodium {
    /// `sodium_init()`, run once before the first use (a static let is initialised once,
    /// thread-safely); true when libsodium is ready.
    private static let ready: Bool = sodium_init() >= 0

    static func start() {
        // It fails only without a source of randomness (no /dev/urandom, no getrandom).
        precondition(ready, "libsodium could not be initialised")
    }

    /// The SHA-256 digest (FIPS 180-4) of `message`, 32 bytes.
    package static func sha256(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        start()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        withBytes(message) { input, count in _ = crypto_hash_sha256(&digest, input, UInt64(count)) }
        return digest
    }

    /// BLAKE2b with a 32-byte output over the concatenation of `parts`, keyed when `key` is
    /// given (16 to 64 bytes): `crypto_generichash_init/update/final`.
    package static func blake2b256(_ parts: [UnsafeRawBufferPointer], key: [UInt8] = []) -> [UInt8] {
        start()
        precondition(key.isEmpty || (16...64).contains(key.count), "a BLAKE2b key has 16 to 64 bytes")
        // The state must be 64-byte aligned, which a Swift stack value is not promised to be.
        let state = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        defer { state.deallocate() }
        // The state's C type is 64-byte aligned, which Swift imports as an opaque pointer.
        let typed = OpaquePointer(state)
        var digest = [UInt8](repeating: 0, count: 32)
        key.withUnsafeBufferPointer { key in _ = crypto_generichash_init(typed, key.baseAddress, key.count, 32) }
        for part in parts {
            withBytes(part) { input, count in _ = crypto_generichash_update(typed, input, UInt64(count)) }
        }
        _ = crypto_generichash_final(typed, &digest, 32)
        return digest
    }

    /// BLAKE2b-256 of `bytes`, keyed when `key` is given.
    package static func blake2b256(_ bytes: [UInt8], key: [UInt8] = []) -> [UInt8] {
        bytes.withUnsafeBytes { blake2b256([$0], key: key) }
    }

    /// `count` bytes from the system's random source.
    package static func random(_ count: Int) -> [UInt8] {
        start()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, count) }
        }
        return bytes
    }

    // MARK: Ed25519

    /// `count` secret bytes from the system's random source, straight into their own storage.
    package static func randomSecret(_ count: Int) -> SecretBytes {
        start()
        return SecretBytes(count: count) { base, count in randombytes_buf(base, count) }
    }

    /// The Ed25519 key pair of a 32-byte seed: (public key 32 bytes, secret key 64 bytes).
    package static func signKeyPair(seed: SecretBytes) -> (publicKey: [UInt8], secretKey: SecretBytes) {
        start()
        precondition(seed.count == Int(crypto_sign_SEEDBYTES), "an Ed25519 seed has 32 bytes")
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        let secretKey = SecretBytes(count: Int(crypto_sign_SECRETKEYBYTES)) { secret, _ in
            seed.withPointer { seed, _ in _ = crypto_sign_seed_keypair(&publicKey, secret, seed) }
        }
        return (publicKey, secretKey)
    }

    /// The detached Ed25519 signature (64 bytes) of `message` by `secretKey`.
    package static func sign(_ message: [UInt8], secretKey: SecretBytes) -> [UInt8] {
        start()
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        var length: UInt64 = 0
        secretKey.withPointer { key, _ in
            _ = crypto_sign_detached(&signature, &length, message, UInt64(message.count), key)
        }
        return signature
    }

    /// Whether `signature` is `publicKey`'s Ed25519 signature of `message`.
    package static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        start()
        guard signature.count == Int(crypto_sign_BYTES), publicKey.count == Int(crypto_sign_PUBLICKEYBYTES) else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }

    // MARK: Passphrase sealing

    /// Argon2id parameters of a sealed key.
    package struct PasswordCost: Hashable {
        package var operations: UInt64
        package var memoryBytes: Int

        package init(operations: UInt64, memoryBytes: Int) {
            self.operations = operations
            self.memoryBytes = memoryBytes
        }

        /// libsodium's "moderate" level (about a second and 256 MiB here).
        package static var moderate: PasswordCost {
            PasswordCost(operations: UInt64(crypto_pwhash_opslimit_moderate()), memoryBytes: crypto_pwhash_memlimit_moderate())
        }

        /// The most a file may ask for (so a hostile file cannot take minutes or all memory).
        package static let limit = PasswordCost(operations: 10, memoryBytes: 1 << 30)
    }

    /// Bytes of an Argon2id salt.
    package static var saltBytes: Int { Int(crypto_pwhash_SALTBYTES) }
    /// Bytes of a secretbox nonce.
    package static var nonceBytes: Int { Int(crypto_secretbox_NONCEBYTES) }

    /// A 32-byte key from a passphrase (Argon2id v1.3), wiped when released; nil when memory
    /// runs out.
    package static func passwordKey(_ passphrase: SecretBytes, salt: [UInt8], cost: PasswordCost) -> SecretBytes? {
        start()
        guard salt.count == saltBytes else { return nil }
        var result: Int32 = -1
        let key = SecretBytes(count: Int(crypto_secretbox_KEYBYTES)) { key, keyCount in
            passphrase.withPointer { phrase, phraseCount in
                phrase.withMemoryRebound(to: CChar.self, capacity: max(phraseCount, 1)) { chars in
                    result = crypto_pwhash(
                        key, UInt64(keyCount), chars, UInt64(phraseCount), salt, cost.operations, cost.memoryBytes, crypto_pwhash_ALG_ARGON2ID13)
                }
            }
        }
        return result == 0 ? key : nil
    }

    /// `message` sealed (XSalsa20-Poly1305) with `key` and `nonce`.
    package static func seal(_ message: SecretBytes, key: SecretBytes, nonce: [UInt8]) -> [UInt8] {
        start()
        var sealed = [UInt8](repeating: 0, count: message.count + Int(crypto_secretbox_MACBYTES))
        message.withPointer { message, count in
            key.withPointer { key, _ in _ = crypto_secretbox_easy(&sealed, message, UInt64(count), nonce, key) }
        }
        return sealed
    }

    /// The message of `sealed` (a secret, wiped when released), or nil when the key is wrong
    /// or a byte was changed.
    package static func open(_ sealed: [UInt8], key: SecretBytes, nonce: [UInt8]) -> SecretBytes? {
        start()
        let mac = Int(crypto_secretbox_MACBYTES)
        guard sealed.count >= mac, nonce.count == nonceBytes, key.count == Int(crypto_secretbox_KEYBYTES) else { return nil }
        var result: Int32 = -1
        let message = SecretBytes(count: sealed.count - mac) { message, _ in
            key.withPointer { key, _ in result = crypto_secretbox_open_easy(message, sealed, UInt64(sealed.count), nonce, key) }
        }
        return result == 0 ? message : nil
    }

    /// Calls `body` with a pointer that is valid even for an empty buffer.
    private static func withBytes(_ buffer: UnsafeRawBufferPointer, _ body: (UnsafePointer<UInt8>, Int) -> Void) {
        let placeholder: UInt8 = 0
        withUnsafePointer(to: placeholder) { empty in
            body(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? empty, buffer.count)
        }
    }
}
