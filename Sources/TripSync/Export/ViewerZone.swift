import Foundation

/// One choice of the itinerary page's viewer-zone switch: a zone the trip's times use (or UTC)
/// in which every time can be shown, while each item stays under its own date.
struct ViewerZone: Sendable {
    /// The IANA id.
    var id: String
    /// What the switch says: the place of the id ("New York" for America/New_York), or "UTC".
    var label: String
    /// The zone's rules.
    var zone: TimeZone

    /// A time shown in this zone: its wall clock, the zone's abbreviation then, its local date.
    struct Reading: Hashable, Sendable {
        /// `HH:MM`.
        var clock: String
        /// `EDT`, `UTC+5:45`.
        var abbreviation: String
        /// The local date of the instant in this zone.
        var date: LocalDate
    }

    /// The most zones a switch offers besides UTC (a hostile file may name hundreds).
    static let maxZones = 12

    /// The instant (seconds since 1970) read in this zone; nil outside years 1–9999.
    func read(_ seconds: Int64) -> Reading? {
        guard let (local, offset) = LocalTimeFormat.local(seconds, in: zone) else { return nil }
        // Foundation names UTC "GMT" (and its file says so): the switch says UTC.
        let name = id == "UTC" ? "UTC" : LocalTimeFormat.abbreviation(zone, Date(timeIntervalSince1970: TimeInterval(seconds)), offset: offset)
        return Reading(clock: pad(local.hour, 2) + ":" + pad(local.minute, 2), abbreviation: name, date: local.date)
    }

    /// The place a zone id names, for people: its last part with spaces (`Buenos Aires`).
    static func label(_ id: String) -> String {
        if id == "UTC" || id == "Etc/UTC" { return "UTC" }
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
        if !seen.contains("UTC"), !seen.contains("Etc/UTC"), let utc = rules.timeZone("UTC") {
            result.append(ViewerZone(id: "UTC", label: "UTC", zone: utc))
        }
        return result
    }
}
