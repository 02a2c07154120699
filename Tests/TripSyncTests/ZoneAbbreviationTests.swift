import Foundation
import Testing
import TripSync
import TripSyncPlatform
import TripSyncCore

/// Abbreviations as a traveller reads them ("WEST", "EDT"), from the zone's own rules, and the
/// zone files read as untrusted bytes.
@Suite struct ZoneAbbreviationTests {
    let rules = ZoneRules()

    /// What the itinerary shows for a local time in a zone.
    func shown(_ zone: String, _ year: Int, _ month: Int, _ day: Int, _ hour: Int) throws -> String {
        let date = try #require(LocalDate(year: year, month: month, day: day))
        let local = try #require(LocalDateTime(date: date, hour: hour, minute: 0))
        let instant = try #require(rules.resolve(local, zone: zone))
        let timeZone = try #require(rules.timeZone(zone))
        return LocalTimeFormat.abbreviation(
            timeZone, Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch)), offset: instant.offsetSeconds)
    }

    @Test(arguments: [
        ("Europe/Lisbon", 2027, 6, 10, "WEST"), ("Europe/Lisbon", 2027, 1, 10, "WET"),
        ("America/New_York", 2027, 7, 1, "EDT"), ("America/New_York", 2027, 12, 1, "EST"),
        ("Asia/Kolkata", 2027, 3, 1, "IST"), ("Europe/Berlin", 2027, 8, 1, "CEST"),
        ("Australia/Sydney", 2027, 1, 15, "AEDT"), ("Pacific/Honolulu", 2027, 5, 5, "HST"),
        // Past the transitions a zone file lists: the latest type with the offset and flag.
        ("Europe/Lisbon", 2090, 7, 1, "WEST"), ("America/New_York", 2090, 1, 1, "EST"),
        // Zones whose files have only numeric names keep the offset.
        ("Asia/Dubai", 2027, 6, 1, "UTC+4"), ("Asia/Kathmandu", 2027, 6, 1, "UTC+5:45"),
        ("America/Sao_Paulo", 2027, 6, 1, "UTC-3"),
    ] as [(String, Int, Int, Int, String)])
    func itineraryAbbreviations(zone: String, year: Int, month: Int, day: Int, expected: String) throws {
        #expect(try shown(zone, year, month, day, 12) == expected)
    }

    @Test func aZoneFileTruncatedOrFlippedAnywhereNeverCrashes() throws {
        let bytes = try FileIO.readFile("/usr/share/zoneinfo/Europe/Lisbon", maxBytes: 1 << 20)
        let whole = try #require(TZifAbbreviations.parse(bytes))
        #expect(whole.abbreviation(atSecondsSinceEpoch: 1_812_000_000, utcOffset: 3600, isDaylight: true) == "WEST")
        var parsed = 0
        for length in 0..<bytes.count {
            if TZifAbbreviations.parse(Array(bytes[..<length])) != nil { parsed += 1 }
        }
        // Cut inside the 64-bit block or its footer, the data cannot be trusted whole.
        #expect(parsed < bytes.count / 4)
        for index in stride(from: 0, to: bytes.count, by: 7) {
            var flipped = bytes
            flipped[index] ^= 0xFF
            if let table = TZifAbbreviations.parse(flipped) {
                _ = table.abbreviation(atSecondsSinceEpoch: 1_812_000_000, utcOffset: 3600, isDaylight: true)
            }
        }
        #expect(TZifAbbreviations.parse(Array("TZif2".utf8) + Array(repeating: 0xFF, count: 100)) == nil)
    }

    @Test func zoneIdsThatAreNotIANAShapedAreNeverLookedUp() {
        #expect(TZifAbbreviations.load(zone: "../../etc/passwd") == nil)
        #expect(TZifAbbreviations.load(zone: "/etc/passwd") == nil)
        #expect(TZifAbbreviations.load(zone: "Mars/Olympus_Mons") == nil)
        #expect(TZifAbbreviations.load(zone: "Europe/Lisbon") != nil)
    }
}
