import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncCore
@testable import TripSyncHome

/// The record of counters a device issued: the evidence that survives later writes when
/// another copy of the home wrote under the same id (docs/DESIGN.md, "Forks").
@Suite struct IssuedCountersTests {
    @Test func rangesJoinAndAnswerMembershipAgainstASet() {
        var random = SeededGenerator(seed: 14)
        for _ in 0..<50 {
            var counters = IssuedCounters()
            var reference = Set<UInt64>()
            for _ in 0..<200 {
                let counter = UInt64.random(in: 1...400, using: &random)
                counters.insert(counter)
                reference.insert(counter)
            }
            for counter in UInt64(0)...401 { #expect(counters.contains(counter) == reference.contains(counter)) }
            #expect(zip(counters.ranges, counters.ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound }, "disjoint, not touching")
        }
    }

    @Test func aHomeWithoutARecordCountsEverythingUpToItsHighWaterAsIssued() throws {
        let legacy = try DeviceIdentity(
            json: ["deviceId": "a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d", "name": "Alex", "highWater": 500, "format": 1], file: "device.json")
        #expect(legacy.issuedHere(1) && legacy.issuedHere(500))
        #expect(!legacy.issuedHere(501), "above the high-water mark nothing was issued")
        var recorded = legacy
        recorded.issued = IssuedCounters([10...20])
        let read = try DeviceIdentity(json: recorded.json, file: "device.json")
        #expect(read.issuedHere(15) && !read.issuedHere(21) && !read.issuedHere(9))
    }

    @Test func theClockRecordsWhatItIssues() throws {
        var clock = HybridLogicalClock(highWater: 100)
        let issuedFirst = clock.next(nowMilliseconds: 50)
        let issuedSecond = clock.next(nowMilliseconds: 1_000)
        let first = try #require(issuedFirst)
        let second = try #require(issuedSecond)
        #expect(clock.issued.contains(first) && clock.issued.contains(second))
        #expect(!clock.issued.contains(100), "observed, not issued")
    }

    @Test func tooManyRangesMergeTheOldestNeverLosingOne() {
        var counters = IssuedCounters()
        for index in 0..<UInt64(IssuedCounters.maximumRanges + 10) { counters.insert(index * 3 + 1) }
        #expect(counters.ranges.count == IssuedCounters.maximumRanges)
        #expect(counters.contains(1) && counters.contains(UInt64(IssuedCounters.maximumRanges + 9) * 3 + 1))
    }
}
