import TripSyncPlatform
import TripSyncCore

/// What an owner sends a new laptop to let it join (docs/FORMAT.md, "Invite codes"): the trip,
/// the owner key to trust, the role, a one-time secret and an expiry, as `tsi1.` and base64url.
public struct InviteCode: Hashable, Sendable {
    /// The trip.
    public var trip: TripID
    /// The owner key the new laptop trusts, and through it every member key.
    package var ownerKey: PublicKey
    /// `editor` or `viewer`.
    public var role: MemberRole
    /// The one-time secret (16 bytes); a join request proves it knows it without showing it.
    var secret: [UInt8]
    /// When the invite stops being honoured.
    public var expires: UTCTimestamp

    private static let prefix = "tsi1."
    private static let payloadBytes = 16 + 32 + 1 + 16 + 8

    /// A new invite with a fresh secret.
    package init(trip: TripID, ownerKey: PublicKey, role: MemberRole, expires: UTCTimestamp) {
        self.trip = trip
        self.ownerKey = ownerKey
        self.role = role
        self.secret = Sodium.random(16)
        self.expires = expires
    }

    /// The id a join request names the invite by: hex of the first 16 bytes of BLAKE2b-256 of
    /// the secret.
    package var id: String { InviteCode.id(ofSecret: secret) }

    static func id(ofSecret secret: [UInt8]) -> String {
        SHA256.hex(Array(Sodium.blake2b256(secret).prefix(16)))
    }

    /// The text to send.
    public var text: String {
        var bytes: [UInt8] = []
        bytes += trip.bytes
        bytes += ownerKey.bytes
        bytes.append(role == .viewer ? 2 : 1)
        bytes += secret
        let seconds = UInt64(bitPattern: expires.secondsSinceEpoch)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: seconds >> UInt64(shift))) }
        bytes += Sodium.blake2b256(bytes).prefix(4)
        return InviteCode.prefix + Base64.encodeURL(bytes)
    }

    /// Parses a code as typed or pasted (surrounding spaces and line breaks are ignored).
    package init(parsing typed: String) throws(InviteError) {
        let text = typed.filter { !$0.isWhitespace }
        guard text.hasPrefix(InviteCode.prefix) else {
            throw InviteError(
                "not an invite code: it should start with \"\(InviteCode.prefix)\"", kind: .badInvite, remedy: "ask the owner for an invite code")
        }
        let body = String(text.dropFirst(InviteCode.prefix.count))
        guard body.utf8.allSatisfy(Base64.isURLCharacter) else {
            throw InviteError("the invite code holds characters that cannot be in one (letters, digits, - and _ only): copy it again")
        }
        // Judged by its length, not by its bytes: a code cut to 4n + 1 characters decodes to nothing.
        let characters = ((InviteCode.payloadBytes + 4) * 8 + 5) / 6
        guard body.utf8.count == characters else {
            throw InviteError("the invite code is \(body.utf8.count < characters ? "too short" : "too long") (cut or joined when copied?): copy it again")
        }
        guard let bytes = Base64.decodeURL(body), bytes.count == InviteCode.payloadBytes + 4 else {
            throw InviteError("the invite code is damaged (its check does not match): copy it again")
        }
        let payload = Array(bytes.prefix(InviteCode.payloadBytes))
        guard Array(Sodium.blake2b256(payload).prefix(4)) == Array(bytes.suffix(4)) else {
            throw InviteError("the invite code is damaged (its check does not match): copy it again")
        }
        guard let key = PublicKey(bytes: Array(payload[16..<48])) else { throw InviteError("the invite code holds no owner key") }
        let roleByte = payload[48]
        guard roleByte == 1 || roleByte == 2 else { throw InviteError("the invite code names no role this build knows (\(roleByte))") }
        var seconds: UInt64 = 0
        for byte in payload[65..<73] { seconds = seconds << 8 | UInt64(byte) }
        trip = Identifier(bytes: Array(payload[0..<16]))
        ownerKey = key
        role = roleByte == 2 ? .viewer : .editor
        secret = Array(payload[49..<65])
        expires = UTCTimestamp(secondsSinceEpoch: Int64(bitPattern: seconds))
    }
}

/// A code, request or key file that cannot be used, with what to do about it.
package struct InviteError: TripSyncError, Hashable {
    /// What went wrong.
    package var errorKind: TripSyncErrorKind
    /// What happened, in words.
    package var message: String
    /// What would fix it, in words.
    package var remedy: String?
    /// The trip involved, when one is.
    package var facts: ErrorFacts
    package init(_ message: String, kind: TripSyncErrorKind = .refused, remedy: String? = nil, facts: ErrorFacts = ErrorFacts()) {
        self.errorKind = kind
        self.message = message
        self.remedy = remedy
        self.facts = facts
    }
    /// The message, then the remedy.
    package var description: String { message + (remedy.map { " (" + $0 + ")" } ?? "") }
}
