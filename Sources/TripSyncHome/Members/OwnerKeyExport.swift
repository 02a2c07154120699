import TripSyncPlatform
import TripSyncCore

/// A trip's owner key sealed with a passphrase, to move it to another home of the same
/// person (`owner export` / `owner import`): Argon2id derives the sealing key, secretbox
/// seals the seed (both libsodium). The file says which trip and which public key it holds.
package struct OwnerKeyExport: Sendable {
    /// The trip.
    package var trip: TripID
    /// The owner public key sealed inside.
    package var publicKey: PublicKey
    private var salt: [UInt8]
    private var nonce: [UInt8]
    private var sealed: [UInt8]
    private var cost: Sodium.PasswordCost

    /// The fewest characters (Unicode scalars) a new passphrase has.
    package static let minimumPassphraseLength = 8

    /// Why `passphrase` may not seal an owner key, nil when it may: the one rule for every way
    /// a passphrase comes in (typed at the prompt, `--passphrase-file`, the library).
    package static func passphraseProblem(_ passphrase: [UInt8]) -> String? {
        let length = String(validating: passphrase, as: UTF8.self)?.unicodeScalars.count ?? passphrase.count
        if length < minimumPassphraseLength {
            return "a passphrase of at least \(minimumPassphraseLength) characters, please (this one has \(length))"
        }
        return nil
    }

    /// Seals `key` of `trip` with `passphrase` (refused when `passphraseProblem` names one).
    package init(trip: TripID, key: SigningKey, passphrase: SecretBytes) throws(InviteError) {
        let problem = passphrase.withBytes { Self.passphraseProblem(Array($0)) }
        if let problem { throw InviteError(problem + "; nothing was written") }
        self.trip = trip
        publicKey = key.publicKey
        salt = Sodium.random(Sodium.saltBytes)
        nonce = Sodium.random(Sodium.nonceBytes)
        cost = .moderate
        guard let box = Sodium.passwordKey(passphrase, salt: salt, cost: cost) else {
            throw InviteError("not enough memory to seal the owner key (Argon2id needs \(cost.memoryBytes >> 20) MiB)")
        }
        sealed = Sodium.seal(key.seed, key: box, nonce: nonce)
    }

    /// The file's bytes (JSON).
    package var fileBytes: [UInt8] {
        let json = JSONValue.object([
            "type": .string("tripsync-owner-key"), "version": .int(1), "tripId": .string(trip.description),
            "publicKey": .string(publicKey.base64), "salt": .string(Base64.encode(salt)), "nonce": .string(Base64.encode(nonce)),
            "sealed": .string(Base64.encode(sealed)), "operations": .int(Int64(cost.operations)), "memoryBytes": .int(Int64(cost.memoryBytes)),
        ])
        return Array((json.text + "\n").utf8)
    }

    /// Reads an exported key file as untrusted input (a hostile file cannot ask for more than
    /// `Sodium.PasswordCost.limit`).
    package init(parsing bytes: [UInt8]) throws(InviteError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw InviteError("not an exported owner key (not JSON)")
        }
        guard json["type"]?.stringValue == "tripsync-owner-key", json["version"]?.intValue == 1 else {
            throw InviteError("/type: not an exported owner key of version 1", kind: .badKeyFile, remedy: "the owner's laptop exports one")
        }
        guard let trip = json["tripId"]?.stringValue.flatMap(Identifier.init) else { throw InviteError("/tripId: expected a lowercase UUID") }
        guard let key = json["publicKey"]?.stringValue.flatMap(PublicKey.init(base64:)) else { throw InviteError("/publicKey: expected a public key") }
        guard let salt = json["salt"]?.stringValue.flatMap({ Base64.decode($0, count: Sodium.saltBytes) }) else { throw InviteError("/salt: expected \(Sodium.saltBytes) bytes of base64") }
        guard let nonce = json["nonce"]?.stringValue.flatMap({ Base64.decode($0, count: Sodium.nonceBytes) }) else { throw InviteError("/nonce: expected \(Sodium.nonceBytes) bytes of base64") }
        guard let sealed = json["sealed"]?.stringValue.flatMap({ Base64.decode($0, count: 48) }) else { throw InviteError("/sealed: expected 48 bytes of base64") }
        guard let operations = json["operations"]?.intValue, (1...Int64(Sodium.PasswordCost.limit.operations)).contains(operations) else {
            throw InviteError("/operations: expected 1 to \(Sodium.PasswordCost.limit.operations)")
        }
        guard let memory = json["memoryBytes"]?.intValue, (8192...Int64(Sodium.PasswordCost.limit.memoryBytes)).contains(memory) else {
            throw InviteError("/memoryBytes: expected 8 KiB to \(Sodium.PasswordCost.limit.memoryBytes >> 20) MiB")
        }
        self.trip = trip
        publicKey = key
        self.salt = salt
        self.nonce = nonce
        self.sealed = sealed
        cost = Sodium.PasswordCost(operations: UInt64(operations), memoryBytes: Int(memory))
    }

    /// The key, opened with `passphrase`; refused when the passphrase is wrong or the file was
    /// changed.
    package func open(passphrase: SecretBytes) throws(InviteError) -> SigningKey {
        guard let box = Sodium.passwordKey(passphrase, salt: salt, cost: cost) else {
            throw InviteError("not enough memory to open the owner key (Argon2id needs \(cost.memoryBytes >> 20) MiB)")
        }
        guard let seed = Sodium.open(sealed, key: box, nonce: nonce), let key = SigningKey(seed: seed) else {
            throw InviteError("wrong passphrase, or the file was changed: the owner key could not be opened")
        }
        guard key.publicKey == publicKey else { throw InviteError("the sealed key is not the public key the file names") }
        return key
    }
}
