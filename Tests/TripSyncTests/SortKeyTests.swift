import Testing
import TripSync
import TripSyncFixtures
import TripSyncCore

/// Order keys: always strictly between their neighbours, never ending in 0, short in practice.
@Suite struct SortKeyTests {
    func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    @Test(arguments: [
        (nil, nil), ("V", nil), (nil, "V"), ("1", "2"), ("A", "B"), ("Az", "B"), ("0001", "0002"), ("z", nil),
        ("zzzz", nil), (nil, "01"), (nil, "1"), ("V", "V1"), ("yz", "z"),
    ] as [(String?, String?)])
    func keyIsStrictlyBetween(before: String?, after: String?) throws {
        let key = try #require(SortKey.between(before, after))
        #expect(SortKeyRules.isValid(key))
        if let before { #expect(precedes(before, key), "\(before) < \(key)") }
        if let after { #expect(precedes(key, after), "\(key) < \(after)") }
    }

    @Test func invalidOrUnorderedNeighboursGiveNil() {
        #expect(SortKey.between("B", "A") == nil)
        #expect(SortKey.between("A", "A") == nil)
        #expect(SortKey.between("A0", nil) == nil)
        #expect(SortKey.between("a-b", nil) == nil)
    }

    @Test func randomInsertSequencesStaySortedAndShort() throws {
        for seed in 0..<200 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            var keys: [String] = []
            for _ in 0..<300 {
                let position = Int.random(in: 0...keys.count, using: &random)
                let before = position > 0 ? keys[position - 1] : nil
                let after = position < keys.count ? keys[position] : nil
                let key = try #require(SortKey.between(before, after), "seed \(seed)")
                #expect(SortKeyRules.isValid(key))
                keys.insert(key, at: position)
            }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { precedes($0, $1) }, "seed \(seed): not sorted")
            // Random positions: keys stay short, far below the 128 limit.
            let longest = keys.map(\.count).max() ?? 0
            let average = Double(keys.map(\.count).reduce(0, +)) / Double(keys.count)
            #expect(longest <= 20, "seed \(seed): longest \(longest)")
            #expect(average <= 6, "seed \(seed): average \(average)")
        }
    }

    @Test func appendingAtTheEndGrowsSlowly() throws {
        var key: String? = nil
        var longest = 0
        for _ in 0..<1000 {
            key = try #require(SortKey.between(key, nil))
            longest = max(longest, key?.count ?? 0)
        }
        #expect(longest <= 40)
        var first: String? = nil
        for _ in 0..<200 {
            first = try #require(SortKey.between(nil, first))
        }
        #expect((first?.count ?? 0) <= 128)
    }
}
