import Foundation
import TripSyncCore
import TripSyncPlatform

/// A zone a person reads times in beside each time's own ("your time" in `show --in`, "yours" on
/// the itinerary page's switch), while each item stays under its own date: the page's switch
/// offers the zones the trip's times use, and UTC.
package struct ViewerZone: Sendable {
    /// The IANA id, as typed (Foundation would call UTC "GMT").
    package var id: String
    /// What the switch says: the place of the id ("New York" for America/New_York), or "UTC".
    package var label: String
    /// The zone's rules.
    package var zone: TimeZone

    /// A time shown in this zone: its wall clock, the zone's abbreviation then, its local date.
    package struct Reading: Hashable, Sendable {
        /// `HH:MM`.
        package var clock: String
        /// `EDT`, `UTC+5:45`, `UTC` (never "GMT" or "+00" for UTC itself).
        package var abbreviation: String
        /// The local date of the instant in this zone.
        package var date: LocalDate
        /// The local date-time of the instant in this zone.
        package var local: LocalDateTime
    }

    /// Ids that name UTC itself: labelled "UTC".
    static var utcIDs: Set<String> { LocalTimeFormat.utcIDs }

    init(id: String, label: String, zone: TimeZone) {
        self.id = id
        self.label = label
        self.zone = zone
    }

    /// The zone `id` names in `rules` (nil when this machine does not know it).
    package init?(_ id: String, rules: ZoneRules = ZoneRules()) {
        guard let zone = rules.timeZone(id) else { return nil }
        self.init(id: id, label: ViewerZone.label(id), zone: zone)
    }

    /// The most zones a switch offers besides UTC (a hostile file may name hundreds).
    static let maxZones = 12

    /// This machine's zone: `TZ` when it names a zone known here (`:Europe/Lisbon` too), else
    /// Foundation's current zone; nil when neither is known (a time is then shown in UTC).
    package static func machine(environment: ProcessEnvironment = .process, rules: ZoneRules = ZoneRules()) -> ViewerZone? {
        if var id = environment["TZ"], !id.isEmpty {
            if id.hasPrefix(":") { id.removeFirst() }
            if let zone = ViewerZone(id, rules: rules) { return zone }
        }
        return ViewerZone(TimeZone.current.identifier, rules: rules)
    }

    /// `2026-05-29 14:07 WEST`: an instant as a wall clock in this zone, with its abbreviation
    /// (when a person wrote something, in `show ITEM`).
    package func moment(_ time: UTCTimestamp) -> String {
        guard let reading = read(time.secondsSinceEpoch) else { return time.description }
        return "\(reading.date) \(reading.clock) \(reading.abbreviation)"
    }

    /// The instant (seconds since 1970) read in this zone; nil outside years 1–9999.
    package func read(_ seconds: Int64) -> Reading? {
        guard let (local, offset) = LocalTimeFormat.local(seconds, in: zone) else { return nil }
        // Foundation names UTC "GMT" (and its file may say "UTC", "UCT" or "Zulu"): UTC it is (`utcIDs`).
        let name =
            LocalTimeFormat.abbreviation(zone, Date(timeIntervalSince1970: TimeInterval(seconds)), offset: offset, id: id)
        return Reading(clock: pad(local.hour, 2) + ":" + pad(local.minute, 2), abbreviation: name, date: local.date, local: local)
    }

    /// The place a zone id names, for people: its last part with spaces (`Buenos Aires`).
    static func label(_ id: String) -> String {
        if utcIDs.contains(id) { return "UTC" }
        let last = id.split(separator: "/").last.map(String.init) ?? id
        return last.replacingOccurrences(of: "_", with: " ")
    }

    /// The zones of the switch: every zone known here that a shown time uses, in the order the
    /// itinerary first uses them (at most `maxZones`), then UTC unless the trip already uses it.
    static func zones(for times: [ShownTime], rules: ZoneRules) -> [ViewerZone] {
        var result: [ViewerZone] = []
        var seen: Set<String> = []
        for shown in times {
            guard result.count < maxZones, shown.instant != nil, let id = shown.time.zone, !seen.contains(id),
                let zone = rules.timeZone(id)
            else { continue }
            seen.insert(id)
            result.append(ViewerZone(id: id, label: label(id), zone: zone))
        }
        if seen.isDisjoint(with: utcIDs), let utc = rules.timeZone("UTC") {
            result.append(ViewerZone(id: "UTC", label: "UTC", zone: utc))
        }
        return result
    }
}
