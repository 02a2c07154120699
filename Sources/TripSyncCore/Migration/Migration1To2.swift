import Foundation
import TripSyncPlatform

/// Schema 1 → 2: rows become items keyed by id with a register per field; instants plus zones
/// become local times; deleted rows become tombstones.
///
/// Revisions: every schema 1 revision came from one per-trip server sequence that clients
/// pulled in order, so clean rows become dots of one shared **legacy writer**
/// (`Migration1To2.legacyWriter`, counter = `serverRev`), and the file's clock entry for it is
/// its highest `serverRev`: two devices migrating the same server state produce identical dots.
/// Rows with `dirty: true` carry unconfirmed local edits: their fields become dots of a writer
/// derived from the file's bytes (never this installation's id), with counters above every
/// legacy dot, so the edit replaces the server value it was based on and re-migrating one file
/// gives the same dots. The trip name gets a dot of a writer derived from the name itself, so
/// equal names merge silently and different names show as a conflict.
enum Migration1To2 {
    /// The fixed id of the schema 1 server's revision sequence: `00000000-0000-4000-8000-000000000001`.
    static let legacyWriter = Identifier(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0001)

    static let step = MigrationStep(from: 1, name: "1→2: rows to registers, instants to local times, deletes to tombstones") {
        (document: VersionedDocument, context: inout MigrationContext) throws(MigrationFailure) -> VersionedDocument in
        guard case .v1(let v1) = document else { return document }
        return .v2(try migrate(v1, &context))
    }

    /// A deterministic id (UUID version 8 layout) from a label and bytes.
    static func derivedID(_ label: String, _ bytes: [UInt8]) -> Identifier {
        let digest = SHA256.digest(Array(label.utf8) + [0x0A] + bytes)
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(digest[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(digest[index]) }
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_8000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return Identifier(high: high, low: low)
    }

    static func migrate(_ v1: TripDocumentV1, _ context: inout MigrationContext) throws(MigrationFailure) -> TripDocument {
        let legacyHigh = v1.rows.map(\.serverRev).max() ?? 0
        let dirtyWriter = derivedID("tripsync schema 1 dirty edits", Array(context.sourceBytes))
        let nameWriter = derivedID("tripsync schema 1 trip name", Array(v1.name.utf8))
        var clock = VersionVector()
        if legacyHigh > 0 { clock[legacyWriter] = legacyHigh }
        let nameRev = Rev(counter: 1, device: nameWriter)
        clock.include(nameRev)
        var document = TripDocument(
            tripID: v1.tripID, deviceID: v1.deviceID, clock: clock, trip: TripInfo(name: Register(value: v1.name, rev: nameRev)))
        var issues: [ValidationIssue] = []
        var dirtyCount: UInt64 = 0
        for (index, row) in v1.rows.enumerated() {
            let rev: Rev
            if row.dirty {
                dirtyCount += 1
                guard legacyHigh + dirtyCount <= Rev.maxCounter else {
                    issues.append(ValidationIssue(.error, pointer: "/items/\(index)/serverRev", message: "item \(row.itemID): no counter is left above serverRev for its unconfirmed edits"))
                    continue
                }
                rev = Rev(counter: legacyHigh + dirtyCount, device: dirtyWriter)
            } else {
                rev = Rev(counter: row.serverRev, device: legacyWriter)
            }
            document.clock.include(rev)
            var start: TripTime?
            if let instant = row.startInstant, let zone = row.startZoneID {
                switch localTime(instant: instant, zone: zone, zones: context.zones) {
                case .success(let (local, shifted)):
                    start = .local(local, zone: zone)
                    if shifted {
                        context.warnings.append(
                            ValidationIssue(
                                .warning, pointer: "/items/\(index)/startInstant",
                                message: "item \(row.itemID): \(local) happens twice in \(zone) (the clocks go back); the instant was the second occurrence and is now read as the first"))
                    }
                case .failure(let message):
                    issues.append(ValidationIssue(.error, pointer: "/items/\(index)/" + (message.zone ? "startZoneId" : "startInstant"), message: "item \(row.itemID): \(message.text)"))
                    continue
                }
            }
            let fields = ItemFields(
                title: Register(value: row.title, rev: rev), sortKey: Register(value: row.sortKey, rev: rev),
                start: Register(value: start, rev: rev), end: Register(value: nil, rev: rev),
                place: Register(value: row.place, rev: rev), note: Register(value: row.note, rev: rev))
            if let deletedAt = row.deletedAt {
                let seconds = deletedAt >= 0 ? deletedAt / 1000 : (deletedAt - 999) / 1000
                // The delete has seen the row's own revision (and, for a clean row, the server log up to it).
                var seen = VersionVector()
                seen.include(rev)
                let deletion = Deletion(at: UTCTimestamp(secondsSinceEpoch: seconds), seen: seen)
                document.tombstones[row.itemID] = Tombstone(deleted: Register(value: deletion, rev: rev), item: fields)
            } else {
                document.items[row.itemID] = fields
            }
        }
        guard issues.isEmpty else { throw MigrationFailure(issues: issues) }
        context.summary.items = document.items.count
        context.summary.tombstones = document.tombstones.count
        context.summary.dirtyItems = Int(dirtyCount)
        return document
    }

    struct ConversionProblem: Error {
        var text: String
        var zone: Bool
    }

    /// The wall-clock time of an instant in a zone; whether it is the second of two equal readings.
    static func localTime(instant: Int64, zone: String, zones: ZoneRules) -> Result<(LocalDateTime, Bool), ConversionProblem> {
        guard let timeZone = zones.timeZone(zone) else {
            return .failure(ConversionProblem(text: "zone \"\(zone)\" is unknown to this machine's time zone database, so its local time cannot be computed; expected a zone this build knows", zone: true))
        }
        guard instant % 60_000 == 0 else {
            return .failure(ConversionProblem(text: "startInstant \(instant) is not a whole minute, and schema 2 keeps local times to the minute; expected a whole-minute instant", zone: false))
        }
        let seconds = instant / 1000
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        let wall = seconds + offset
        let days = Int(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
        let rest = Int(wall - Int64(days) * 86_400)
        guard let date = LocalDate(daysSinceEpoch: days), let local = LocalDateTime(date: date, hour: rest / 3600, minute: rest / 60 % 60) else {
            return .failure(ConversionProblem(text: "startInstant \(instant) is outside years 1–9999", zone: false))
        }
        let back = zones.resolve(local, zone: zone)?.secondsSinceEpoch
        return .success((local, back != seconds))
    }
}
