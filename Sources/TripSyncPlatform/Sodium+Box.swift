import CSodium

/// X25519 encryption key pairs and sealed boxes (`crypto_box_keypair`, `crypto_box_seal`):
/// how one device hands a key to another it knows only by its public key (docs/DESIGN.md,
/// "Encryption").
extension Sodium {
    /// Bytes of an X25519 public key, and of its secret key.
    package static var boxKeyBytes: Int { Int(crypto_box_PUBLICKEYBYTES) }
    /// Bytes a sealed box adds to its message (an ephemeral public key and a MAC: 48).
    package static var sealedBoxOverhead: Int { crypto_box_sealbytes() }

    /// A fresh X25519 key pair from the system's random source (`crypto_box_keypair`).
    package static func boxKeyPair() -> (publicKey: [UInt8], secretKey: SecretBytes) {
        start()
        var publicKey = [UInt8](repeating: 0, count: boxKeyBytes)
        let secretKey = SecretBytes(count: Int(crypto_box_SECRETKEYBYTES)) { secret, _ in
            _ = crypto_box_keypair(&publicKey, secret)
        }
        return (publicKey, secretKey)
    }

    /// The X25519 public key of `secretKey` (`crypto_scalarmult_base`), or nil when the secret
    /// key does not have 32 bytes or gives the all-zero point.
    package static func boxPublicKey(secretKey: SecretBytes) -> [UInt8]? {
        start()
        guard secretKey.count == Int(crypto_box_SECRETKEYBYTES) else { return nil }
        var publicKey = [UInt8](repeating: 0, count: boxKeyBytes)
        let result = secretKey.withPointer { secret, _ in crypto_scalarmult_base(&publicKey, secret) }
        return result == 0 ? publicKey : nil
    }

    /// `message` sealed to `publicKey` (`crypto_box_seal`: an ephemeral key pair, X25519 and
    /// XSalsa20-Poly1305), which only the holder of the matching secret key opens; nil when
    /// `publicKey` is not 32 bytes or is a point libsodium refuses.
    package static func sealBox(_ message: SecretBytes, to publicKey: [UInt8]) -> [UInt8]? {
        start()
        guard publicKey.count == boxKeyBytes else { return nil }
        var sealed = [UInt8](repeating: 0, count: message.count + sealedBoxOverhead)
        let result = message.withPointer { message, count in crypto_box_seal(&sealed, message, UInt64(count), publicKey) }
        return result == 0 ? sealed : nil
    }

    /// The message of a sealed box (a secret, wiped when released), or nil when it was not
    /// sealed to this key pair or a byte was changed (`crypto_box_seal_open`).
    package static func openSealedBox(_ sealed: [UInt8], publicKey: [UInt8], secretKey: SecretBytes) -> SecretBytes? {
        start()
        guard sealed.count >= sealedBoxOverhead, publicKey.count == boxKeyBytes, secretKey.count == Int(crypto_box_SECRETKEYBYTES) else {
            return nil
        }
        var result: Int32 = -1
        let message = SecretBytes(count: sealed.count - sealedBoxOverhead) { message, _ in
            secretKey.withPointer { secret, _ in
                result = crypto_box_seal_open(message, sealed, UInt64(sealed.count), publicKey, secret)
            }
        }
        return result == 0 ? message : nil
    }
}
