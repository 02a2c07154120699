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

    /// Every `add` puts its item last, so a trip's last key is the end of a long run of
    /// appends (and `move --first` makes runs at the other end). The keys used to grow by one
    /// digit per 61 and ran out of the 128 digits after about 7,800 items ("no order key fits
    /// there"); they now grow with the logarithm, at either end.
    @Test(arguments: [true, false]) func aHundredThousandKeysInARowAtOneEndStaySortedAndShort(appending: Bool) throws {
        var keys: [String] = []
        var key: String? = nil
        for _ in 0..<100_000 {
            key = try #require(appending ? SortKey.between(key, nil) : SortKey.between(nil, key), "key \(keys.count + 1)")
            keys.append(key ?? "")
        }
        #expect(keys.allSatisfy(SortKeyRules.isValid))
        #expect(zip(keys, keys.dropFirst()).allSatisfy { appending ? precedes($0, $1) : precedes($1, $0) })
        #expect(keys.map(\.count).max() == 5)
        if appending {
            #expect(keys[0] == "1" && keys[1] == "2" && keys[60] == "z" && keys[61] == "z01")
        } else {
            #expect(keys[0] == "1" && keys[1] == "0zz")
        }
    }

    /// Keys written by the old rule (or by anyone) near the limit still get a neighbour when one
    /// fits in 128 digits, and nil only at the true edge of the key space.
    @Test func longNeighboursAtTheEdgeOfTheKeySpace() throws {
        let z = String(repeating: "z", count: 120) + "1"
        let next = try #require(SortKey.between(z, nil))
        #expect(precedes(z, next) && SortKeyRules.isValid(next))
        #expect(SortKey.between(String(repeating: "z", count: 128), nil) == nil)
        let zeros = String(repeating: "0", count: 126) + "1"
        let below = try #require(SortKey.between(nil, zeros))
        #expect(precedes(below, zeros) && SortKeyRules.isValid(below))
        #expect(SortKey.between(nil, String(repeating: "0", count: 127) + "1") == nil)
        // Between a long run of appends and the next key written by the old rule.
        var key = "zzz"
        for _ in 0..<10_000 { key = try #require(SortKey.between(key, nil)) }
        #expect(key.count <= 7)
    }

    /// Appends and prepends mixed at random with inserts between: every key strictly between
    /// its neighbours, all of them short.
    @Test func openEndsMixedWithInsertsStaySorted() throws {
        for seed in 0..<50 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            var keys: [String] = []
            for _ in 0..<2_000 {
                let roll = Int.random(in: 0..<10, using: &random)
                let position = roll < 4 ? keys.count : roll < 7 ? 0 : Int.random(in: 0...keys.count, using: &random)
                let before = position > 0 ? keys[position - 1] : nil
                let after = position < keys.count ? keys[position] : nil
                let key = try #require(SortKey.between(before, after), "seed \(seed)")
                if let before { #expect(precedes(before, key)) }
                if let after { #expect(precedes(key, after)) }
                keys.insert(key, at: position)
            }
            #expect(keys.allSatisfy(SortKeyRules.isValid))
            #expect((keys.map(\.count).max() ?? 0) <= 24, "seed \(seed)")
        }
    }
}
