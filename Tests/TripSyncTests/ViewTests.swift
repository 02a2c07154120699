import Foundation
import Testing
import TripSync
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// Trips and items a person can see (issue 18): one item whole, the deleted items, search, days
/// narrowed, times read in a viewer's zone, what a calendar leaves out, trip names unique per
/// home, forgetting a trip, and the last folder a home synced with.
@Suite struct ViewTests {
    static let sample: TripDocument? = try? TripFileReader().read(path: PackagePaths.samples + "/lisbon-new-york.trip.json").document

    func sample() throws -> TripDocument { try #require(Self.sample) }

    func id(_ prefix: String, in document: TripDocument) throws -> ItemID {
        let all = Array(document.items.keys) + Array(document.tombstones.keys)
        return try #require(all.first { $0.description.hasPrefix(prefix) })
    }

    /// A new home and an empty shared folder beside it, removed by `cleanUp`.
    func homeAndFolder() throws -> (Home, shared: String, cleanUp: () -> Void) {
        let (homes, shared, cleanUp) = try temporaryLaptops("view", count: 1)
        return (homes[0], shared, cleanUp)
    }

    // MARK: one item whole

    @Test func anItemWithAConflictShowsEveryValueWithItsWriterAndTime() throws {
        let document = try sample()
        let detail = try #require(ItemDetail(try id("6b4e1446", in: document), in: document))
        #expect(!detail.isDeleted)
        #expect(detail.fields.map(\.field) == [.title, .start, .end, .place, .note, .sortKey])
        let title = try #require(detail.fields.first)
        #expect(title.current.value == .text("Lunch at Time Out Market"))
        #expect(title.current.deviceName == "Sam's laptop")
        // The rev's counter is the writer's wall clock in milliseconds.
        #expect(title.current.writtenAt == UTCTimestamp(millisecondsSinceEpoch: title.current.rev.counter))
        #expect(title.alternatives.map(\.value) == [.text("Lunch at Mercado de Campo de Ourique")])
        #expect(title.alternatives.map(\.deviceName) == ["Alex's laptop"])
        #expect(detail.conflicted == [.title])
        #expect(detail.editsWhileDeleted.isEmpty)
    }

    @Test func aDeletedItemShowsItsDeleteAndTheEditsMadeWhileDeleted() throws {
        let document = try sample()
        let detail = try #require(ItemDetail(try id("de43cdca", in: document), in: document))
        #expect(detail.isDeleted && !detail.isCompacted)
        #expect(detail.deletes.map(\.deviceName) == ["Sam's laptop"])
        #expect(detail.editsWhileDeleted.map(\.field) == [.note])
        #expect(detail.editsWhileDeleted.first?.value.deviceName == "Alex's laptop")
        let note = try #require(detail.fields.first { $0.field == .note })
        #expect(note.current.editedWhileDeleted)
        #expect(detail.fields.filter { $0.field != .note }.allSatisfy { !$0.current.editedWhileDeleted })
        #expect(ItemDetail(Identifier.random(), in: document) == nil)
    }

    @Test func deletedItemsAreListedNewestDeleteFirst() throws {
        let document = try sample()
        let list = DeletedItemList(document)
        #expect(list.entries.map { $0.detail.id.description.prefix(8) } == ["de43cdca", "feb090f2"])
        #expect(list.entries.map(\.title) == ["Fado night in Alfama", "Oceanário de Lisboa"])
        #expect(list.entries[0].deletedAt.secondsSinceEpoch > list.entries[1].deletedAt.secondsSinceEpoch)
        #expect(DeletedItemList(TripDocument(tripID: Identifier.random(), deviceID: Identifier.random(), clock: VersionVector([:]), trip: TripInfo(name: Register(value: "x", rev: Rev(counter: 1, device: Identifier.random()))))).entries.isEmpty)
    }

    // MARK: search and days

    @Test(arguments: [("sintra", 3), ("SINTRA", 3), ("jeronimos", 1), ("ＳＩＮＴＲＡ", 3), ("door code", 1), ("oceanário", 0), ("zzz", 0)])
    func searchIgnoresCaseAccentsAndWidth(_ text: String, _ count: Int) throws {
        let found = Itinerary(try sample()).matching(text)
        let entries = found.days.flatMap(\.entries) + found.unscheduled
        #expect(entries.count == count, "\(text): \(entries.map { $0.fields.title?.value ?? "" })")
        #expect(found.days.allSatisfy { !$0.entries.isEmpty })
        #expect(found.isEmpty == (count == 0))
    }

    @Test func narrowedDaysKeepOnlyThoseDaysAndLeaveOutUnscheduled() throws {
        let itinerary = Itinerary(try sample())
        let june = { (day: Int) in try #require(LocalDate(year: 2027, month: 6, day: day)) }
        #expect(itinerary.narrowed(from: try june(8), to: try june(9)).days.map(\.date) == [try june(8), try june(9)])
        #expect(itinerary.narrowed(from: try june(10), to: nil).days.map(\.date) == [try june(10)])
        #expect(itinerary.narrowed(from: nil, to: try june(7)).days.map(\.date) == [try june(7)])
        #expect(itinerary.narrowed(from: nil, to: try june(7)).unscheduled.isEmpty)
        #expect(itinerary.narrowed(from: nil, to: nil).unscheduled.count == itinerary.unscheduled.count)
        #expect(!itinerary.unscheduled.isEmpty)
    }

    // MARK: the viewer's zone

    /// Instants read in zones far from UTC, across DST changes: each gives the wall clock and the
    /// date there, whatever this process's TZ.
    @Test(arguments: [
        // 2027-06-10 09:00Z (TP 201 leaves Lisbon at 10:00 WEST).
        ("UTC", Int64(1_812_618_000), "2027-06-10T09:00", "UTC"),
        ("Etc/UTC", 1_812_618_000, "2027-06-10T09:00", "UTC"),
        ("Pacific/Kiritimati", 1_812_618_000, "2027-06-10T23:00", "UTC+14"),
        ("Pacific/Pago_Pago", 1_812_618_000, "2027-06-09T22:00", "SST"),
        ("Asia/Kathmandu", 1_812_618_000, "2027-06-10T14:45", "UTC+5:45"),
        // Lisbon's spring gap: 2027-03-28 01:00Z is 02:00 WEST (01:00–02:00 local does not exist).
        ("Europe/Lisbon", 1_806_195_600, "2027-03-28T02:00", "WEST"),
        ("Europe/Lisbon", 1_806_195_599, "2027-03-28T00:59", "WET"),
        // Lisbon's autumn overlap: 01:30 happens twice on 2027-10-31 (00:30Z WEST, 01:30Z WET).
        ("Europe/Lisbon", 1_824_942_600, "2027-10-31T01:30", "WEST"),
        ("Europe/Lisbon", 1_824_946_200, "2027-10-31T01:30", "WET"),
        ("America/New_York", 1_812_618_000, "2027-06-10T05:00", "EDT"),
    ])
    func aViewerZoneReadsAnInstant(_ zone: String, _ seconds: Int64, _ local: String, _ abbreviation: String) throws {
        let viewer = try #require(ViewerZone(zone))
        let reading = try #require(viewer.read(seconds))
        #expect(reading.local.description == local)
        #expect(reading.date == reading.local.date)
        #expect(reading.abbreviation == abbreviation)
    }

    @Test func utcIsLabelledUTCNotGMT() throws {
        let viewer = try #require(ViewerZone("UTC"))
        #expect(viewer.id == "UTC" && viewer.label == "UTC")
        #expect(viewer.moment(UTCTimestamp(secondsSinceEpoch: 1_812_618_000)) == "2027-06-10 09:00 UTC")
        #expect(ViewerZone("Nowhere/Atlantis") == nil)
        #expect(ViewerZone.machine(environment: ["TZ": ":Asia/Kathmandu"])?.id == "Asia/Kathmandu")
        #expect(ViewerZone.machine(environment: ["TZ": "UTC"])?.id == "UTC")
    }

    @Test func theJSONReportCarriesTheViewerZoneAndEachConvertedTime() throws {
        let document = try sample()
        let viewer = try #require(ViewerZone("Pacific/Kiritimati"))
        let json = try ReportEncoding.json(ItineraryReport(document, Itinerary(document), viewer: viewer))
        #expect(json.contains(#""viewerZone":"Pacific/Kiritimati""#))
        // The Via Carota dinner ends 21:30 EDT on 2027-06-10: 15:30 on 2027-06-11 in Kiritimati.
        #expect(json.contains(#""viewer":{"abbreviation":"UTC+14","local":"2027-06-11T15:30","zone":"Pacific/Kiritimati"}"#))
        #expect(!(try ReportEncoding.json(ItineraryReport(document, Itinerary(document)))).contains("viewer"))
    }

    // MARK: the calendar

    @Test func theCalendarSaysWhichItemsItLeftOut() throws {
        let document = try sample()
        let calendar = ICalendarExporter().calendar(document)
        #expect(calendar.leftOut.count == document.items.values.filter { $0.start?.value == nil }.count)
        #expect(calendar.leftOut.count == 2)
        #expect(calendar.events + calendar.leftOut.count == document.items.count)
        #expect(calendar.text == ICalendarExporter().export(document))
        #expect(calendar.text.components(separatedBy: "BEGIN:VEVENT").count - 1 == calendar.events)
    }

    // MARK: names, forgetting, the last folder

    @Test func tripNamesAreUniqueInAHome() throws {
        let (home, cleanUp) = temporaryHome("view")
        defer { cleanUp() }
        do { _ = try TripStore.create(name: "Lisbon", owned: false, in: home) }
        #expect(throws: EditError.self) { _ = try TripStore.create(name: "Lisbon", owned: false, in: home) }
        do {
            let porto = try TripStore.create(name: "Porto", owned: false, in: home)
            #expect(throws: TripError.self) { try porto.rename(to: "Lisbon") }
            #expect(try porto.rename(to: "Porto 2028"))
            #expect(try porto.rename(to: "Porto 2028") == false)
            #expect(try TripFileReader().read(path: porto.path).document.trip.name.value == "Porto 2028")
        }
        #expect(try home.listTrips().trips.map(\.document.trip.name.value).sorted() == ["Lisbon", "Porto 2028"])
    }

    @Test func twoLaptopsRenamingAtOnceGiveAConflict() throws {
        let (homes, shared, cleanUp) = try temporaryLaptops("view")
        defer { cleanUp() }
        let (a, b) = (homes[0], homes[1])
        do { _ = try TripStore.create(name: "Lisbon", owned: false, in: a) }
        _ = try FolderSync(home: a, folder: shared).run()
        _ = try FolderSync(home: b, folder: shared).run()
        do { try TripStore.open(in: a).rename(to: "Lisbon (Alex)") }
        do { try TripStore.open(in: b).rename(to: "Lisbon (Sam)") }
        for home in [a, b, a] { _ = try FolderSync(home: home, folder: shared).run() }
        let name = try #require(try a.listTrips().trips.first).document.trip.name
        #expect(name.hasVisibleConflict)
        #expect(Set(name.versions.map(\.value)) == ["Lisbon (Alex)", "Lisbon (Sam)"])
        // A rename made after seeing both settles it.
        do { try TripStore.open(in: a).rename(to: "Lisbon 2027") }
        #expect(try #require(try a.listTrips().trips.first).document.trip.name.hasVisibleConflict == false)
    }

    @Test func aNameTwoTripsShareAnswersWithTheList() throws {
        let first = try TripFileReader().read(path: PackagePaths.samples + "/lisbon-new-york.trip.json")
        var second = first
        second.document.tripID = Identifier.random()
        let (lisbon, other) = (first.document, second.document)
        let listing = HomeTrips(trips: [first, second], unreadable: [])
        guard case .failure(.sameName(let name, let trips)) = listing.choose(lisbon.trip.name.value, home: "/h") else {
            Issue.record("expected .sameName")
            return
        }
        #expect(name == lisbon.trip.name.value)
        #expect(Set(trips.map(\.id)) == [lisbon.tripID, other.tripID])
        #expect(listing.sharedNames.map(\.name) == [lisbon.trip.name.value])
        #expect(TripStoreError.sameName(name, trips: trips).description.contains(String(other.tripID.description.prefix(8))))
        // By id each is found.
        #expect((try? listing.choose(other.tripID.description, home: "/h").get())?.document.tripID == other.tripID)
    }

    @Test func forgetRemovesTheTripFromThisHomeOnlyAndKeepsABackup() throws {
        let (home, shared, cleanUp) = try homeAndFolder()
        defer { cleanUp() }
        let tripID: TripID
        do {
            let store = try TripStore.create(name: "Lisbon", defaultZone: "Europe/Lisbon", owned: false, in: home)
            tripID = store.tripID
            #expect(store.document.trip.zone?.value == "Europe/Lisbon", "the trip's zone is a register of the trip")
        }
        // A home with a local setting for the trip (the older default zone).
        try home.setDefaultZone("Europe/Lisbon", for: tripID)
        _ = try FolderSync(home: home, folder: shared).run()
        let published = try FileManager.default.contentsOfDirectory(atPath: shared + "/\(tripID)")
        let store = try TripStore.open(in: home)
        try store.edit { trip in _ = try trip.addItem(NewItem(title: "Fado", sortKey: ""), at: .last) }
        let forgotten = try store.forget()
        #expect(forgotten.removed == [home.replicaPath(for: tripID), home.settingsPath(for: tripID)])
        #expect(forgotten.unpublished > 0)
        #expect(try home.listTrips().trips.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.settingsPath(for: tripID)))
        // The backup holds the trip as it was, the unpublished item included.
        let backup = try TripFileReader().read(path: forgotten.backup).document
        #expect(backup.items.values.contains { $0.title?.value == "Fado" })
        // The shared folder is untouched, and the store saves nothing more.
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared + "/\(tripID)") == published)
        #expect(throws: TripError.self) { try store.edit { trip in _ = try trip.addItem(NewItem(title: "X", sortKey: ""), at: .last) } }
        #expect(!FileManager.default.fileExists(atPath: home.replicaPath(for: tripID)))
    }

    @Test func theLastFolderIsRecordedAndTheDefaultZoneKept() throws {
        let (home, shared, cleanUp) = try homeAndFolder()
        defer { cleanUp() }
        let tripID: TripID
        do { tripID = try TripStore.create(name: "Lisbon", defaultZone: "Europe/Lisbon", owned: false, in: home).tripID }
        // The older local default zone of a home (the trip's zone is now the trip.zone register).
        try home.setDefaultZone("Europe/Lisbon", for: tripID)
        #expect(try home.lastFolders().isEmpty)
        let report = try FolderSync(home: home, folder: shared + "/./").run()
        #expect(home.recordLastFolder(shared + "/./", of: report).isEmpty)
        #expect(try home.lastFolder(for: tripID) == shared)
        #expect(try home.defaultZone(for: tripID) == "Europe/Lisbon")
        #expect(try home.lastFolders().map(\.folder) == [shared])
        try home.setDefaultZone("Asia/Kathmandu", for: tripID)
        #expect(try home.lastFolder(for: tripID) == shared)
        // A broken value is told, never taken for "none".
        try Data(#"{"lastFolder": 7}"#.utf8).write(to: URL(fileURLWithPath: home.settingsPath(for: tripID)))
        #expect(throws: TripFileError.self) { try home.lastFolder(for: tripID) }
    }
}
