import Testing
import TripSync
import TripSyncFixtures
import TripSyncCore

/// `ZoneRules.isBefore` orders two times of one zone on one date by the wall clock when no
/// transition is near, and by instant otherwise: both must give the instant order.
@Suite struct ZoneRulesTests {
    let rules = ZoneRules()

    func time(_ zone: String, _ date: LocalDate, _ hour: Int, _ minute: Int) throws -> TripTime {
        .local(try #require(LocalDateTime(date: date, hour: hour, minute: minute)), zone: zone)
    }

    /// The order of the instants the two local times resolve to (the definition).
    func instantOrder(_ a: TripTime, _ b: TripTime) throws -> Bool {
        guard case .local(let la, let za) = a, case .local(let lb, let zb) = b else { return false }
        let ia = try #require(rules.resolve(la, zone: za))
        let ib = try #require(rules.resolve(lb, zone: zb))
        return ia.secondsSinceEpoch < ib.secondsSinceEpoch
    }

    @Test(arguments: [
        ("Europe/Lisbon", 2027, 3, 28), ("Europe/Lisbon", 2027, 10, 31), ("America/New_York", 2027, 3, 14),
        ("America/New_York", 2027, 11, 7), ("Australia/Lord_Howe", 2027, 4, 4), ("Europe/Moscow", 2014, 10, 26),
        ("Pacific/Apia", 2011, 12, 29), ("Pacific/Apia", 2011, 12, 31), ("Asia/Kolkata", 2027, 6, 1),
        ("America/Caracas", 2016, 5, 1), ("Pacific/Kiritimati", 2027, 1, 1), ("Pacific/Pago_Pago", 2027, 7, 15),
    ] as [(String, Int, Int, Int)])
    func sameDateOrderIsTheInstantOrder(zone: String, year: Int, month: Int, day: Int) throws {
        // Every day from a week before to a week after the date (a transition lies in most
        // windows): random pairs of times on each day.
        var random = SeededGenerator(seed: UInt64(year * 10_000 + month * 100 + day))
        let center = try #require(LocalDate(year: year, month: month, day: day)).daysSinceEpoch
        let centerDate = try #require(LocalDate(daysSinceEpoch: center))
        // On the date itself, every pair of a 20-minute grid (a gap or overlap hour holds three).
        for first in stride(from: 0, to: 24 * 60, by: 20) {
            for second in stride(from: 0, to: 24 * 60, by: 20) {
                let a = try time(zone, centerDate, first / 60, first % 60)
                let b = try time(zone, centerDate, second / 60, second % 60)
                #expect(rules.isBefore(a, b) == (try instantOrder(a, b)), "\(a) before \(b) in \(zone)")
            }
        }
        for offset in -7...7 {
            let date = try #require(LocalDate(daysSinceEpoch: center + offset))
            for _ in 0..<60 {
                let a = try time(zone, date, Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random))
                let b = try time(zone, date, Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random))
                #expect(rules.isBefore(a, b) == (try instantOrder(a, b)), "\(a) before \(b) in \(zone)")
            }
        }
    }

    @Test func insideASpringGapTheLaterWallTimeCanComeFirst() throws {
        // Lisbon skips 01:00–02:00 on 2027-03-28: 01:30 is read as 02:30 WEST (01:30Z),
        // after 02:10 WEST (01:10Z), though its wall time is earlier.
        let date = try #require(LocalDate(year: 2027, month: 3, day: 28))
        let inGap = try time("Europe/Lisbon", date, 1, 30)
        let after = try time("Europe/Lisbon", date, 2, 10)
        #expect(rules.isBefore(after, inGap))
        #expect(!rules.isBefore(inGap, after))
    }
}
