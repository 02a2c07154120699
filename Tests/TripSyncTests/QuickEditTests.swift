import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// Edits that open the trip from its replica view (docs/DESIGN.md, "The replica view"): each
/// quick edit must leave the trip exactly as the same edit on the whole trip would, and a view
/// that is not of the replica and journal on disk, damaged, or too far behind is never used.
@Suite struct QuickEditTests {
    /// A trip of `count` items in `home`: order keys with ties, items without a day, timed ones,
    /// some deleted, one with a photo attached; its view written.
    private func makeTrip(in home: Home, count: Int, random: inout SeededGenerator, name: String = "Quick") throws -> TripID {
        let store = try TripStore.create(name: name, defaultZone: "Europe/Lisbon", owned: false, in: home)
        try store.edit { trip in
            var previous: String?
            for index in 0..<count {
                let day = LocalDate(year: 2027, month: 6, day: 1 + Int(random.next() % 20))
                let start: TripTime? = index % 3 == 0 ? nil : day.map { .date($0) }
                // Every fifth item shares the previous one's key: ties are ordered by id.
                let key = index % 5 == 4 ? previous : SortKey.between(previous, nil)
                previous = key ?? previous
                try trip.addItem(NewItem(title: "item \(index)", sortKey: key ?? "V", start: start, note: "note \(index)"))
            }
        }
        let ids = store.document.items.keys.sorted()
        try store.edit { trip in
            for id in ids.prefix(count / 10) { try trip.delete(id) }
        }
        let ticket = FileManager.default.temporaryDirectory.appendingPathComponent("quick-\(UUID().uuidString).pdf").path
        try Data("a ticket".utf8).write(to: URL(fileURLWithPath: ticket))
        defer { try? FileManager.default.removeItem(atPath: ticket) }
        // An attachment names its item: a document of some items always holds that one.
        if let attached = ids.last { _ = try store.attach(file: ticket, to: attached, caption: "ticket", stripLocation: false) }
        try store.refreshView()
        return store.tripID
    }

    /// Whether a quick edit of `trip` with `needs` opens (the lock released again).
    static func opens(_ home: Home, _ needs: QuickEdit.Needs, trip: String? = nil) throws -> Bool {
        if case .quick = try QuickEdit.open(home, trip: trip, needs: needs) { return true }
        return false
    }

    /// The trip as a whole open reads it (replica and journal).
    private func whole(_ home: Home, _ trip: TripID) throws -> TripDocument {
        try home.readReplica(trip).document
    }

    /// One edit, quick when the view allows (`Session.edit`'s route), else on the whole trip
    /// (which writes the view anew); answers whether it went quick.
    @discardableResult
    private func edit<T>(_ home: Home, needs: QuickEdit.Needs, _ body: (inout TripEditor) throws -> T) throws -> (T, quick: Bool) {
        let quick: T? = try {
            guard case .quick(let quick) = try QuickEdit.open(home, trip: nil, needs: needs) else { return nil }
            return try quick.edit(body)
        }()
        if let quick { return (quick, true) }
        let store = try TripStore.open(nil, in: home)
        let result = try store.edit(body)
        try store.refreshView()
        return (result, false)
    }

    /// The ids whose items differ between `a` and `b` (present in one only, or changed), but `except`.
    private func changed(_ a: [ItemID: ItemFields], _ b: [ItemID: ItemFields], except: ItemID) -> [ItemID] {
        Set(a.keys).union(b.keys).filter { $0 != except && a[$0] != b[$0] }.sorted()
    }

    /// How a person names a live item: the whole id, or a prefix that names it alone.
    private func typed(_ id: ItemID, among ids: [ItemID], _ random: inout SeededGenerator) -> String {
        let text = id.description
        if random.next() % 3 == 0 { return text.uppercased() }
        for length in 4...text.count {
            let prefix = String(text.prefix(length))
            if ids.filter({ $0.description.hasPrefix(prefix) }).count == 1 { return prefix }
        }
        return text
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func quickEditsLeaveTheTripAsTheWholeTripWould(seed: UInt64) throws {
        let (home, cleanUp) = temporaryHome("quick")
        defer { cleanUp() }
        var random = SeededGenerator(seed: seed)
        let trip = try makeTrip(in: home, count: 80, random: &random)
        var quickCount = 0
        let steps = 120
        for step in 0..<steps {
            let before = try whole(home, trip)
            let live = before.items.keys.sorted()
            let target = live[Int(random.next() % UInt64(live.count))]
            let name = typed(target, among: live, &random)
            let kind = random.next() % 10
            if kind < 3 {
                // Another command (`move`, `delete`) on the whole trip: a journal record the view
                // does not hold, which moves or removes what may be the view's first or last
                // item. Quick edits must read the record's version, not the view's.
                let ordered = live.sorted { (before.items[$0]?.sortKey?.value ?? "", $0) < (before.items[$1]?.sortKey?.value ?? "", $1) }
                let end = random.next() % 2 == 0 ? ordered.first : ordered.last
                let moved = try #require(end)
                let store = try TripStore.open(nil, in: home)
                if kind == 0 && live.count > 20 {
                    try store.edit { trip in try trip.delete(moved) }
                } else if kind == 1, let dead = before.tombstones.keys.sorted().last {
                    try store.edit { trip in try trip.restore(dead) }
                } else {
                    do {
                        try store.edit { trip in _ = try trip.move(moved, to: end == ordered.first ? .last : .first) }
                    } catch let error where TripError.cause(of: error) is EditError {
                        // Where the items' days decide the place, a move is refused (writes nothing).
                    }
                }
                continue
            }
            if kind < 7 {
                let choice = random.next() % 4
                let placement: QuickEdit.Placement = choice == 0 ? .last : choice == 1 ? .first : choice == 2 ? .after(name) : .before(name)
                let position: ItemPosition = choice == 0 ? .last : choice == 1 ? .first : choice == 2 ? .after(target) : .before(target)
                // The key a whole open chooses, read on the whole trip.
                let expected = try position.sortKey(in: before)
                let (id, quick) = try edit(home, needs: QuickEdit.Needs(placement: placement)) { trip -> ItemID in
                    let at: ItemPosition
                    switch placement {
                    case .last: at = .last
                    case .first: at = .first
                    case .after(let text): at = .after(try trip.item(text))
                    case .before(let text): at = .before(try trip.item(text))
                    }
                    return try trip.addItem(NewItem(title: "added \(step)", sortKey: ""), at: at)
                }
                if quick { quickCount += 1 }
                let after = try whole(home, trip)
                #expect(after.items[id]?.sortKey?.value == expected, "step \(step): \(placement) placed the item at \(after.items[id]?.sortKey?.value ?? "nil"), a whole open at \(expected)")
                #expect(changed(after.items, before.items, except: id) == [], "step \(step): only the new item changed")
                #expect(after.tombstones == before.tombstones)
            } else {
                let (outcome, quick) = try edit(home, needs: QuickEdit.Needs(items: [name])) { trip in
                    try trip.set([FieldWrite(.note, .text("edited \(step)")), FieldWrite(.place, .text("place \(step % 7)"))], of: try trip.item(name))
                }
                if quick { quickCount += 1 }
                let after = try whole(home, trip)
                #expect(!outcome.changed.isEmpty)
                #expect(after.items[target]?.note?.value == "edited \(step)", "step \(step): the item named \(name)")
                #expect(changed(after.items, before.items, except: target) == [], "step \(step): only the item edited changed")
            }
        }
        // Most quick edits went quick (one in `lagLimit` records reads the trip whole and writes
        // the view anew).
        #expect(quickCount >= steps / 2, "\(quickCount) of \(steps) steps went quick")
        // The journal's records replay to the same trip as the whole rewrite a sync makes.
        let journaled = try whole(home, trip)
        try home.foldJournal(trip)
        #expect(try whole(home, trip) == journaled)
    }

    @Test func anItemNamedAmbiguouslyOrDeletedIsLeftToAWholeOpen() throws {
        let (home, cleanUp) = temporaryHome("quick")
        defer { cleanUp() }
        var random = SeededGenerator(seed: 11)
        let trip = try makeTrip(in: home, count: 1200, random: &random)
        // 1,200 random ids share a 4-digit prefix somewhere but for a chance of 2 in 100,000.
        let document = try whole(home, trip)
        // A 4-character prefix that several ids share, a deleted item, an id that is no item.
        let prefixes = Dictionary(grouping: document.items.keys, by: { String($0.description.prefix(4)) })
        let shared = try #require(prefixes.first { $0.value.count > 1 }?.key)
        let deleted = try #require(document.tombstones.keys.first)
        for text in [shared, deleted.description, Identifier.random().description, "abc", "not-an-id"] {
            #expect(try !QuickEditTests.opens(home, QuickEdit.Needs(items: [text])), "\(text)")
        }
        // And the whole open words each as before.
        let store = try TripStore.open(nil, in: home)
        #expect(throws: TripError.self) { try store.edit { trip in try trip.set(.note, of: try trip.item(shared), to: .text("x")) } }
        #expect(throws: TripError.self) { try store.edit { trip in try trip.set(.note, of: try trip.item(deleted.description), to: .text("x")) } }
    }

    /// The paged area is checked a page at a time, as it is read: a damaged page is found by the
    /// first lookup that reads it (its answer is zeros, the view is no longer sound, no document
    /// comes from it), while lookups in other pages answer as before.
    @Test func aDamagedPageIsFoundByTheLookupThatReadsIt() throws {
        let (home, cleanUp) = temporaryHome("quick")
        defer { cleanUp() }
        var random = SeededGenerator(seed: 11)
        let trip = try makeTrip(in: home, count: 300, random: &random)
        let viewPath = home.layout.view(trip)
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: viewPath)))
        let sound = try #require(ReplicaView.load(viewPath))
        // Entry 150's id lies in the second page (150 * 40 bytes past the area's start).
        #expect(sound.itemCount > 150 && 150 * ReplicaView.entrySize / ReplicaView.pageSize == 1)
        let ids = [0: sound.id(0), 101: sound.id(101), 150: sound.id(150)]
        #expect(sound.isSound)
        let metaLength = Int(ReplicaView.word32(good, 12))
        let paged = ReplicaView.headerSize + metaLength
        var damaged = good
        damaged[paged + 150 * ReplicaView.entrySize + 3] ^= 0x10
        try Data(damaged).write(to: URL(fileURLWithPath: viewPath))
        // The metadata read at once is intact, so the view loads; the first page reads as before.
        let view = try #require(ReplicaView.load(viewPath))
        #expect(view.id(0) == ids[0] && view.id(101) == ids[101])
        #expect(view.isSound)
        #expect(view.document(items: [0], tombstones: []) != nil)
        // The damaged page: zeros, and the view is unsound from then on.
        #expect(view.id(150) != ids[150])
        #expect(!view.isSound)
        #expect(view.document(items: [0], tombstones: []) == nil)
        // An edit that needs the item goes to the whole trip, which writes the view anew.
        let name = try #require(ids[150]).description
        #expect(try !Self.opens(home, QuickEdit.Needs(items: [name])))
        try Data(good).write(to: URL(fileURLWithPath: viewPath))
        #expect(try Self.opens(home, QuickEdit.Needs(items: [name])))
    }

    @Test func aViewOfAnotherReplicaOrJournalOrDamagedIsNotUsed() throws {
        let (home, cleanUp) = temporaryHome("quick")
        defer { cleanUp() }
        var random = SeededGenerator(seed: 5)
        let trip = try makeTrip(in: home, count: 40, random: &random)
        let viewPath = home.layout.view(trip)
        let needs = QuickEdit.Needs(placement: .last)
        func opens() throws -> Bool {
            if case .quick = try QuickEdit.open(home, trip: nil, needs: needs) { return true }
            return false
        }
        #expect(try opens())
        let good = try Data(contentsOf: URL(fileURLWithPath: viewPath))

        // One byte changed anywhere in the metadata or the JSON outside the items: not used.
        for offset in [9, 14, 30, 200, good.count - 3] {
            var damaged = good
            damaged[offset] ^= 0x20
            try damaged.write(to: URL(fileURLWithPath: viewPath))
            #expect(try !opens(), "a byte changed at \(offset)")
        }
        // Cut short, or empty.
        for length in [0, 10, good.count / 2, good.count - 1] {
            try good.prefix(length).write(to: URL(fileURLWithPath: viewPath))
            #expect(try !opens(), "cut to \(length) bytes")
        }
        // A damaged item: the edit that needs it does not use the view; the others still can.
        try good.write(to: URL(fileURLWithPath: viewPath))
        let view = try #require(ReplicaView.load(viewPath))
        let last = view.ordered(view.orderedCount - 1)
        var damaged = good
        // The item's member in the JSON: `"<id>":{…`; a byte of its title changed.
        let range = try #require(good.range(of: Data("\"\(view.id(last))\":{".utf8)))
        let title = try #require(good.range(of: Data("\"title\"".utf8), in: range.upperBound..<good.count))
        damaged[title.upperBound + 30] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: viewPath))
        #expect(try !opens())
        try good.write(to: URL(fileURLWithPath: viewPath))
        #expect(try opens())

        // The replica rewritten whole (a fold, a sync, an import): the view is of another replica.
        try TripStore.open(nil, in: home).edit { trip in try trip.rename(to: "Renamed") }
        try withExtendedLifetime(try TripStore.takeLock(home)) { _ = try home.foldJournal(trip) }
        #expect(try !opens())
        // A whole open writes it anew.
        try TripStore.open(nil, in: home).refreshView()
        #expect(try opens())

        // The journal removed, or torn at its end, under a view that holds some of it.
        _ = try edit(home, needs: needs) { trip in try trip.addItem(NewItem(title: "one", sortKey: ""), at: .last) }
        try TripStore.open(nil, in: home).refreshView(force: true)
        let journalPath = home.journalPath(for: trip)
        let journal = try Data(contentsOf: URL(fileURLWithPath: journalPath))
        #expect(try opens())
        try (journal + Data([7, 0, 0, 0, 1, 2])).write(to: URL(fileURLWithPath: journalPath))
        #expect(try !opens(), "a torn tail is the whole open's to warn about and cut")
        try FileManager.default.removeItem(atPath: journalPath)
        #expect(try !opens(), "the view holds records of a journal that is gone")
        // The trip is read whole from its replica (the records the removed journal held are gone
        // with it: the view never brings them back).
        let reread = try whole(home, trip)
        #expect(!reread.items.values.contains { $0.title?.value == "one" })
    }

    @Test func aViewWrittenIsNoReasonForAWatchingSyncToRun() {
        let trip = Identifier.random()
        // The edit that wrote the view changed the journal, which counts.
        #expect(FolderWatcher.isIgnoredInHome(Array("\(trip).view".utf8)))
        #expect(!FolderWatcher.isIgnoredInHome(Array("\(trip).journal".utf8)))
        #expect(!FolderWatcher.isIgnoredInHome(Array("\(trip).trip.json.gz".utf8)))
        #expect(!FolderWatcher.isIgnoredInHome(Array(".view".utf8)))
    }

    @Test func aViewLaggingTheJournalHandsOverToAWholeOpen() throws {
        let (home, cleanUp) = temporaryHome("quick")
        defer { cleanUp() }
        var random = SeededGenerator(seed: 9)
        let trip = try makeTrip(in: home, count: 30, random: &random)
        var kinds: [Bool] = []
        for index in 0..<(QuickEdit.lagLimit + 3) {
            let (_, quick) = try edit(home, needs: QuickEdit.Needs(placement: .last)) { trip in
                try trip.addItem(NewItem(title: "lag \(index)", sortKey: ""), at: .last)
            }
            kinds.append(quick)
        }
        // The view written with the trip lags by one record per quick edit; at `lagLimit` an
        // edit reads the trip whole and writes the view anew.
        #expect(kinds.prefix(QuickEdit.lagLimit - 1).allSatisfy { $0 })
        #expect(kinds.contains(false))
        #expect(kinds.last == true)
        let titles = try whole(home, trip).items.values.compactMap { $0.title?.value }.filter { $0.hasPrefix("lag ") }
        #expect(titles.count == QuickEdit.lagLimit + 3)
    }

    @Test func aHomeOfSeveralTripsChoosesAsTheWholeOpenDoes() throws {
        let (home, cleanUp) = temporaryHome("quick")
        defer { cleanUp() }
        var random = SeededGenerator(seed: 3)
        let lisbon = try makeTrip(in: home, count: 10, random: &random, name: "Lisbon 2027")
        let porto = try makeTrip(in: home, count: 10, random: &random, name: "Porto")
        let listing = try home.listTrips()
        for selector in ["Porto", "lisb", String(lisbon.description.prefix(6)), porto.description, "Lisbon 2027"] {
            let expected = try listing.choose(selector, home: home.path).get().document.tripID
            guard case .quick(let quick) = try QuickEdit.open(home, trip: selector, needs: QuickEdit.Needs(placement: .last)) else {
                Issue.record("\(selector) did not open quick")
                continue
            }
            #expect(quick.state.document.tripID == expected, "\(selector)")
        }
        // Porto's replica rewritten (a sync, say): its view is not current, so no quick edit
        // can choose among the trips. The next whole edit (of Lisbon) writes Porto's view too.
        try TripStore.open("Porto", in: home).edit { trip in try trip.rename(to: "Porto 2027") }
        try withExtendedLifetime(try TripStore.takeLock(home)) { _ = try home.foldJournal(porto) }
        #expect(try !QuickEditTests.opens(home, QuickEdit.Needs(placement: .last), trip: "Lisbon 2027"))
        do {
            let store = try TripStore.open("Lisbon 2027", in: home, keepingOthers: true)
            try store.edit { trip in _ = try trip.addItem(NewItem(title: "whole", sortKey: ""), at: .last) }
            try store.refreshView()
        }
        #expect(try QuickEditTests.opens(home, QuickEdit.Needs(placement: .last), trip: "Lisbon 2027"))
        #expect(try QuickEditTests.opens(home, QuickEdit.Needs(placement: .last), trip: "Porto 2027"))
        // No selector with two trips, a name no trip has: the whole open answers.
        #expect(try !QuickEditTests.opens(home, QuickEdit.Needs(), trip: nil))
        #expect(try !QuickEditTests.opens(home, QuickEdit.Needs(), trip: "Madrid"))
    }
}
