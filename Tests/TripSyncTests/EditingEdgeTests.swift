import Foundation
import Testing
import TripSync
import TripSyncFixtures
import TripSyncCore
import TripSyncHome

/// The editing API refuses values a reader only warns about (so no app can write them), edits
/// of several fields are checked as a whole and name the conflicts they replace, the conflict
/// count has one definition, and a home lists its trips around a broken file.
@Suite struct EditingEdgeTests {
    let now: UInt64 = 1_800_000_000_000

    static func local(_ day: Int, _ hour: Int, _ minute: Int = 0, _ zone: String) -> TripTime? {
        guard let date = LocalDate(year: 2027, month: 6, day: day), let time = LocalDateTime(date: date, hour: hour, minute: minute) else { return nil }
        return .local(time, zone: zone)
    }

    /// A document with one live item starting 2027-06-10 10:00 in Lisbon and ending 12:00.
    func documentWithTimedItem() throws -> (TripDocument, ItemID, HybridLogicalClock) {
        var document = smallDocument(items: 0)
        var clock = HybridLogicalClock(highWater: document.clock.maxCounter)
        let id = Identifier.random()
        try document.addItem(
            id, NewItem(title: "Castelo", sortKey: "V", start: Self.local(10, 10, 0, "Europe/Lisbon"), end: Self.local(10, 12, 0, "Europe/Lisbon")),
            hlc: &clock, now: now)
        return (document, id, clock)
    }

    // MARK: values a reader warns about are refused when written

    @Test(arguments: ["PST", "GMT+1", "IST", "CEST", "Europe/Lisbonn", "localtime", "posixrules", "Mars/Olympus_Mons"])
    func zonesOutsideTheTzDatabaseAreRefused(zone: String) throws {
        var (document, id, clock) = try documentWithTimedItem()
        let before = document
        #expect(!ZoneDatabase.isTypeable(zone))
        #expect(throws: EditError.self) { try document.set(.start, of: id, to: .time(Self.local(10, 9, 0, zone)), hlc: &clock, now: now) }
        #expect(throws: EditError.self) { try document.set(.end, of: id, to: .time(Self.local(10, 23, 0, zone)), hlc: &clock, now: now) }
        #expect(throws: EditError.self) {
            try document.addItem(Identifier.random(), NewItem(title: "X", sortKey: "W", start: Self.local(11, 9, 0, zone)), hlc: &clock, now: now)
        }
        #expect(document == before)
    }

    @Test(arguments: ["Europe/Lisbon", "UTC", "Asia/Kolkata", "America/New_York", "Etc/GMT+1", "Asia/Kathmandu"])
    func realZonesAreWritten(zone: String) throws {
        var (document, id, clock) = try documentWithTimedItem()
        #expect(ZoneDatabase.isTypeable(zone))
        #expect(try document.set(.end, of: id, to: .time(Self.local(11, 23, 0, zone)), hlc: &clock, now: now))
    }

    @Test func foundationAloneWouldTakeAbbreviations() {
        // What the fix is about: readers (and Foundation) take PST as a zone; typing it is refused.
        #expect(ZoneRules().isKnown("PST"))
        #expect(!ZoneDatabase.isTypeable("PST"))
    }

    @Test(arguments: [" ", "   ", "\t", "\u{00A0}", "\u{200B}", " \u{3000} ", "\u{2028}", "\u{FEFF}\u{200D}"])
    func blankTitlesAreRefused(title: String) throws {
        var (document, id, clock) = try documentWithTimedItem()
        let before = document
        #expect(VisibleText.isBlank(title))
        // A title with a control character is the reader's refusal; a blank one is the editing layer's.
        #expect(throws: EditError.self) { try document.set(.title, of: id, to: .text(title), hlc: &clock, now: now) }
        #expect(throws: EditError.self) { try document.addItem(Identifier.random(), NewItem(title: title, sortKey: "W"), hlc: &clock, now: now) }
        #expect(document == before)
        #expect(try document.set(.title, of: id, to: .text(" Fado "), hlc: &clock, now: now))
    }

    @Test(arguments: [
        // (end, refused): Lisbon 10:00 is 09:00Z.
        (local(10, 9, 59, "Europe/Lisbon"), true),
        (local(10, 10, 0, "Europe/Lisbon"), false),
        (local(10, 4, 30, "America/New_York"), true),  // 08:30Z: earlier, though a later zone
        (local(10, 6, 0, "America/New_York"), false),  // 10:00Z: later, though an earlier local time
        (local(10, 14, 0, "Asia/Kolkata"), true),  // 08:30Z: earlier, though a later local time
        (local(10, 14, 30, "Asia/Kolkata"), false),  // 09:00Z: the same instant
        (TripTime.date(LocalDate(year: 2027, month: 6, day: 9) ?? .epoch), true),
        (TripTime.date(LocalDate(year: 2027, month: 6, day: 10) ?? .epoch), false),
    ] as [(TripTime?, Bool)])
    func anEndBeforeItsStartIsRefusedAsTheReaderComparesIt(end: TripTime?, refused: Bool) throws {
        var (document, id, clock) = try documentWithTimedItem()
        let start = try #require(Self.local(10, 10, 0, "Europe/Lisbon"))
        let end = try #require(end)
        // The reader's own comparison decides (its "end-before-start" warning).
        let readerWarns = ZoneRules().isBefore(end, start)
        #expect(readerWarns == refused)
        let before = document
        if readerWarns {
            #expect(throws: EditError.self) { try document.set(.end, of: id, to: .time(end), hlc: &clock, now: now) }
            #expect(throws: EditError.self) {
                try document.addItem(Identifier.random(), NewItem(title: "X", sortKey: "W", start: start, end: end), hlc: &clock, now: now)
            }
            #expect(document == before)
        } else {
            _ = try document.set(.end, of: id, to: .time(end), hlc: &clock, now: now)
            #expect(document.items[id]?.end?.value == end)
        }
    }

    @Test func aStartMovedPastTheEndIsRefusedAndBothMovedTogetherAreWritten() throws {
        var (document, id, clock) = try documentWithTimedItem()
        let before = document
        let later = Self.local(11, 10, 0, "Europe/Lisbon")
        #expect(throws: EditError.self) { try document.set(.start, of: id, to: .time(later), hlc: &clock, now: now) }
        #expect(document == before)
        // One edit of both fields is checked as a whole.
        let outcome = try document.set(
            [FieldWrite(.start, .time(later)), FieldWrite(.end, .time(Self.local(11, 12, 0, "Europe/Lisbon")))], of: id, hlc: &clock, now: now)
        #expect(outcome.changed == [.start, .end])
        #expect(outcome.replaced.isEmpty)
        #expect(try readTrip(document.canonicalJSON()).get().warnings.isEmpty)
    }

    @Test func aRefusedFieldInAnEditWritesNoneOfTheOthers() throws {
        var (document, id, clock) = try documentWithTimedItem()
        let before = document
        let beforeClock = clock
        #expect(throws: EditError.self) {
            try document.set([FieldWrite(.note, .text("Tickets")), FieldWrite(.end, .time(Self.local(10, 9, 0, "Europe/Lisbon")))], of: id, hlc: &clock, now: now)
        }
        #expect(document == before)
        #expect(clock.highWater == beforeClock.highWater)
    }

    // MARK: conflicts an edit replaces; resolving keeps a value already held

    /// Two replicas that wrote different titles (and a start in a zone only one machine knows).
    func conflictingWorld() throws -> MergeRuleTests.World {
        var world = try MergeRuleTests.World()
        try world.set(0, .title, .text("Lunch at Time Out"))
        try world.set(1, .title, .text("Lunch at Ramiro"))
        try world.send(1, to: 0)
        return world
    }

    @Test func anEditOfAConflictingFieldNamesTheValuesItReplaces() throws {
        var world = try conflictingWorld()
        let time = world.tick()
        let outcome = try world.replicas[0].set([FieldWrite(.title, .text("Lunch at home")), FieldWrite(.note, .text("Bring bread"))],
            of: world.itemID, hlc: &world.clocks[0], now: time)
        #expect(outcome.changed == [.title, .note])
        let replaced = try #require(outcome.replaced.first)
        #expect(outcome.replaced.count == 1)
        #expect(replaced.field == .title)
        #expect(Set(replaced.distinctVersions.map(\.text)) == ["Lunch at Time Out", "Lunch at Ramiro"])
        #expect(Set(replaced.distinctVersions.map(\.device)) == Set(world.devices))
        #expect(world.replicas[0].items[world.itemID]?.title?.conflicts.isEmpty == true)
    }

    @Test func resolvingKeepsAValueTheRegisterHoldsEvenWhenItWouldNotBeTypedHere() throws {
        var world = try MergeRuleTests.World()
        // Another machine's tz database knew a zone this one does not: the value is in the file.
        let date = try #require(LocalDate(year: 2027, month: 6, day: 10))
        let local = try #require(LocalDateTime(date: date, hour: 10, minute: 0))
        var item = try #require(world.replicas[1].items[world.itemID])
        let time = world.tick()
        world.clocks[1].observe(time)
        let counter = try #require(world.clocks[1].next(nowMilliseconds: time) as UInt64?)
        let rev = Rev(counter: counter, device: world.devices[1])
        item.start = Register(value: .local(local, zone: "Mars/Olympus_Mons"), rev: rev)
        world.replicas[1].items[world.itemID] = item
        world.replicas[1].clock.include(rev)
        try world.set(0, .start, .time(.local(local, zone: "Europe/Lisbon")))
        try world.send(1, to: 0)
        // Typing the unknown zone is refused; keeping the value already held is not.
        #expect(throws: EditError.self) { try world.set(0, .end, .time(.local(local, zone: "Mars/Olympus_Mons"))) }
        let time2 = world.tick()
        #expect(try world.replicas[0].set(.start, of: world.itemID, to: .time(.local(local, zone: "Mars/Olympus_Mons")), force: true, hlc: &world.clocks[0], now: time2))
    }

    // MARK: one conflict count

    /// One field conflict (the title) and one tombstone edited while deleted.
    func twoKindsOfConflict() throws -> (TripDocument, ItemID, ItemID) {
        var world = try conflictingWorld()
        // A second item, deleted by 1 while 0 edits its note.
        let museum = Identifier.random()
        let time = world.tick()
        try world.replicas[0].addItem(museum, NewItem(title: "Museum", sortKey: "W"), hlc: &world.clocks[0], now: time)
        try world.send(0, to: 1)
        let deleteTime = world.tick()
        try world.replicas[1].deleteItem(museum, at: UTCTimestamp(secondsSinceEpoch: Int64(deleteTime / 1000)), hlc: &world.clocks[1], now: deleteTime)
        try world.set(0, .note, .text("Closed Tuesdays"), item: museum)
        try world.send(1, to: 0)
        return (world.replicas[0], world.itemID, museum)
    }

    @Test func theConflictSummaryCountsWhatTheConflictListLists() throws {
        let (document, lunch, museum) = try twoKindsOfConflict()
        let list = ConflictList(document)
        #expect(list.fields.map(\.item) == [lunch])
        #expect(list.deletedWhileEdited.map(\.item) == [museum])
        let summary = ConflictSummary(document)
        #expect(summary == ConflictSummary(fields: 1, editedWhileDeleted: 1))
        #expect(summary.total == 2)
        #expect(summary.description == "2 conflicts (1 field, 1 item edited while deleted)")
        #expect(list.summary == summary)
        let status = DeliveryStatus(document, me: document.deviceID, now: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)))
        #expect(status.conflicts == 2)
        #expect(status.conflictSummary == summary)
        // The count that told only fields (kept for the merge report) says 1.
        #expect(document.visibleConflictCount == 1)
    }

    @Test(arguments: [(0, 0, "0 conflicts"), (1, 0, "1 conflict (1 field)"), (0, 2, "2 conflicts (2 items edited while deleted)"), (3, 1, "4 conflicts (3 fields, 1 item edited while deleted)")])
    func theSummaryReadsAsAPersonSaysIt(fields: Int, edited: Int, text: String) {
        #expect(ConflictSummary(fields: fields, editedWhileDeleted: edited).description == text)
    }

    // MARK: unpublished changes a replace would discard

    @Test func unpublishedChangesAreThoseOfThisDeviceNoPublishedFileHolds() throws {
        var world = try MergeRuleTests.World()
        let me = world.devices[0]
        try world.set(0, .note, .text("Published note"))
        world.replicas[0].acknowledgeOwnState()
        let snapshot = world.replicas[0]
        try world.set(0, .place, .text("Unpublished place"))
        let status = DeliveryStatus(world.replicas[0], me: me, now: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)))
        let unpublished = status.unpublishedChanges()
        #expect(unpublished.map(\.field) == ["place"])
        #expect(unpublished.first?.title == "Lunch")
        #expect(status.unpublished == unpublished.count)
        // Replacing by the snapshot discards the place; replacing by a copy that holds it discards nothing.
        #expect(status.unpublishedChanges(notSeenBy: snapshot).map(\.field) == ["place"])
        #expect(status.unpublishedChanges(notSeenBy: world.replicas[0]).isEmpty)
    }

    // MARK: the home listing

    @Test func aBrokenTripFileIsListedApartAndTheOthersRead() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = Home(path: folder)
        try FileManager.default.createDirectory(atPath: home.tripsPath, withIntermediateDirectories: true)
        let good = smallDocument(seed: 1, items: 2)
        try good.write(to: home.replicaPath(for: good.tripID))
        let brokenID = Identifier.random()
        try Data("not gzip".utf8).write(to: URL(fileURLWithPath: home.replicaPath(for: brokenID)))
        // A backup kept by an import and a file named for another trip.
        let backup = try home.keepBackup(of: good, nowMilliseconds: now)
        #expect(backup.hasPrefix(home.backupsPath + "/\(good.tripID)-"))
        #expect(backup.hasSuffix(".trip.json.gz"))
        #expect(try TripFileReader().read(path: backup).document == good)
        let second = try home.keepBackup(of: good, nowMilliseconds: now)
        #expect(second != backup)
        let stranger = smallDocument(seed: 2, items: 1)
        try stranger.write(to: home.tripsPath + "/\(Identifier.random()).trip.json.gz")

        let listing = try home.listTrips()
        #expect(listing.trips.map(\.document.tripID) == [good.tripID])
        #expect(listing.unreadable.count == 2)
        let broken = try #require(listing.unreadable(brokenID))
        #expect(broken.path == home.replicaPath(for: brokenID))
        #expect(broken.lines.first?.hasPrefix(broken.path + ": ") == true)
        #expect(listing.unreadable.contains { $0.description.contains("holds trip \(stranger.tripID)") })
        #expect(listing.trip(good.tripID) != nil)
        // The old entry point still refuses as a whole.
        #expect(throws: (any Error).self) { try home.trips() }
    }

    @Test func aHomeWithoutTripsListsNothing() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listing = try Home(path: folder + "/never-made").listTrips()
        #expect(listing.trips.isEmpty && listing.unreadable.isEmpty)
    }

    @Test(arguments: ["{", "[]", #"{"defaultZone": 3}"#, #"{"defaultZone": "+01:00"}"#])
    func aBrokenSettingsFileIsToldNotTakenForNoSetting(broken: String) throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = Home(path: folder)
        let trip = Identifier.random()
        #expect(try home.defaultZone(for: trip) == nil)
        try home.setDefaultZone("Europe/Lisbon", for: trip)
        #expect(try home.defaultZone(for: trip) == "Europe/Lisbon")
        try Data(broken.utf8).write(to: URL(fileURLWithPath: home.settingsPath(for: trip)))
        #expect(throws: TripFileError.self) { try home.defaultZone(for: trip) }
    }
}
