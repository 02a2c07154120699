import TripSyncPlatform

/// One epoch key of an owned trip (docs/DESIGN.md, "Encryption"): 32 random bytes, its epoch
/// number, and its id, the first 16 bytes of BLAKE2b-256 of `tripsync-epoch-id-v1\n` and the
/// key in lowercase hex. The id names a key without showing it and lets a reader check that what
/// it opened is the key a keyring meant.
package struct EpochKey: Sendable {
    /// The greatest epoch number a keyring may name.
    package static let maximumEpoch = 1 << 40
    /// The most epochs one keyring may carry.
    package static let maximumCount = 10_000

    /// The epoch number, from 1.
    package let epoch: Int
    /// The key (32 bytes), wiped when released.
    package let key: SecretBytes
    /// Its id: 32 lowercase hex digits.
    package let id: String

    /// A key of `epoch`; nil when the number is out of range or the key is not 32 bytes.
    package init?(epoch: Int, key: SecretBytes) {
        guard (1...Self.maximumEpoch).contains(epoch), key.count == Sodium.streamKeyBytes else { return nil }
        self.epoch = epoch
        self.key = key
        id = Self.id(of: key)
    }

    /// A fresh random key of `epoch` (1 … `maximumEpoch`).
    package static func generate(epoch: Int) -> EpochKey {
        guard let made = EpochKey(epoch: epoch, key: Sodium.randomSecret(Sodium.streamKeyBytes)) else {
            preconditionFailure("epoch \(epoch) is out of range")
        }
        return made
    }

    /// The key stored as `base64`; nil when the text is not 32 bytes of base64.
    package init?(epoch: Int, base64 text: String) {
        guard var bytes = Base64.decode(text, count: 32) else { return nil }
        self.init(epoch: epoch, key: SecretBytes(taking: &bytes))
    }

    /// The stored form of the key: standard base64 of its 32 bytes.
    package var base64: String {
        var bytes = key.withBytes { Array($0) }
        defer { SecretBytes.wipe(&bytes) }
        return Base64.encode(bytes)
    }

    /// The id of `key`.
    static func id(of key: SecretBytes) -> String {
        let prefix = Array("tripsync-epoch-id-v1\n".utf8)
        let digest = prefix.withUnsafeBytes { head in key.withBytes { Sodium.blake2b256([head, $0]) } }
        return SHA256.hex(Array(digest.prefix(16)))
    }

    /// Whether `self` comes before `other` in the order that picks the current epoch: the
    /// epoch number, then the id.
    package func precedes(_ other: EpochKey) -> Bool {
        epoch != other.epoch ? epoch < other.epoch : id < other.id
    }

    /// Whether `text` is an id: 32 lowercase hex digits.
    package static func isID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
