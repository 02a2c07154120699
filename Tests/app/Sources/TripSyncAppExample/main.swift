// The jobs an app developer does, each in a line or two, through `import TripSync` alone.
// Usage: TripSyncAppExample SAMPLE.trip.json BROKEN.trip.json WORKDIR
import Foundation
import TripSync

final class Rounds: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
}

struct Failed: Error, CustomStringConvertible {
    var description: String
}

func check(_ condition: Bool, _ what: String) throws {
    guard condition else { throw Failed(description: "FAILED: \(what)") }
    print("ok: \(what)")
}

// The doc examples of the two handles, verbatim (Tests/TripSyncTests/DocExampleTests.swift checks
// that each ```swift block of TripHome.swift and TripStore.swift is here), compiled and run.
func tripHomeExample(path: String, shared: String) throws -> SyncReport {
    let home = try TripHome(path: path)
    let store = try home.create(name: "Lisbon", zone: "Europe/Lisbon")
    try store.edit { trip in try trip.addItem(NewItem(title: "Castelo"), at: .last) }
    let report = try home.sync(with: shared)   // the shared folder, e.g. "/Volumes/Shared/trips"
    return report
}

func tripStoreExample(path: String) throws -> (ItemID, ConflictList) {
    let store = try TripHome(path: path).open("Lisbon")
    let id = try store.edit { trip in try trip.addItem(NewItem(title: "Castelo"), at: .last) }
    let conflicts = store.conflicts
    return (id, conflicts)
}

func run() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 4 else { throw Failed(description: "usage: TripSyncAppExample SAMPLE BROKEN WORKDIR") }
    let (sample, broken, work) = (arguments[1], arguments[2], arguments[3])

    // Read any file into a validated current-schema document, or get every problem with its pointer.
    let loaded = try TripFile.read(sample)
    try check(loaded.document.items.count > 0, "read \(sample): \(loaded.document.items.count) items, schema \(loaded.sourceSchemaVersion)")
    let refusal: TripFileError?
    do throws(TripFileError) {
        _ = try TripFile.read(broken)
        refusal = nil
    } catch {
        refusal = error
    }
    guard let refusal else { throw Failed(description: "FAILED: \(broken) was read") }
    try check(refusal.kind == .invalid && !refusal.errors.isEmpty && refusal.errors.allSatisfy { $0.pointer.hasPrefix("/") },
              "\(broken) refused: \(refusal.errors.count) problems, first at \(refusal.errors.first?.pointer ?? "?")")
    try check(!TripFile.validate(broken).isValid, "validate says \(broken) is not valid")

    // Merge documents and get the result with what the other brought.
    let (merged, brought) = try loaded.document.merged(with: loaded.document)
    try check(merged.items.count == loaded.document.items.count && brought.isEmpty, "merging a file with itself brings nothing")

    // Open a home, create a trip, edit it (durable on return).
    let shared = work + "/shared"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    let ana = try TripHome(path: work + "/ana")
    let lisbon = try ana.create(name: "Lisbon", zone: "Europe/Lisbon", owned: false)
    let castle = try lisbon.edit { trip in try trip.addItem(NewItem(title: "Castelo"), at: .last) }
    try check(lisbon.document.items[castle]?.title?.value == "Castelo", "Ana added Castelo")
    let first = try ana.sync(with: shared)
    try check(first.trips.contains { $0.published != nil }, "Ana published the trip")
    // Reports are Encodable values: the JSON `tripsync sync --json` prints, for an app's log.
    let json = String(decoding: try JSONEncoder().encode(first), as: UTF8.self)
    try check(json.contains("\"published\"") && json.contains("\"trips\""), "the sync report encodes as JSON")

    // A second laptop syncs, and both change the same field: one value kept, the other a conflict.
    let ben = try TripHome(path: work + "/ben")
    _ = try ben.sync(with: shared)
    let bensTrip = try ben.open("Lisbon")
    try check(bensTrip.document.items[castle] != nil, "Ben's laptop has Castelo after a sync")
    try bensTrip.edit { trip in _ = try trip.set(.title, of: castle, to: .text("Castelo de S. Jorge")) }
    try lisbon.edit { trip in _ = try trip.set(.title, of: castle, to: .text("Castle")) }
    _ = try ben.sync()
    _ = try ana.sync()
    _ = try ben.sync()
    let conflicts = lisbon.conflicts
    try check(conflicts.fields.count == 1, "one conflict on Ana's laptop after the syncs")

    // Resolve it, keeping Ana's own value.
    let kept = try lisbon.edit { trip in try trip.resolve(.title, of: castle, keeping: .mine) }
    try check(kept.text == "Castle" && lisbon.conflicts.fields.isEmpty, "Ana kept hers: \(kept.text)")

    // Delete beats a concurrent edit, and the edit stays restorable.
    try lisbon.edit { trip in try trip.delete(castle) }
    try check(lisbon.document.items[castle] == nil && lisbon.document.tombstones[castle] != nil, "deleted")
    try lisbon.edit { trip in try trip.restore(castle) }
    try check(lisbon.document.items[castle] != nil, "restored")

    // Keep Ana's home in sync while it runs: Ben's next change reaches her open store by itself.
    let rounds = Rounds()
    let watch = try ana.watch { event in if case .synced = event { rounds.add() } }
    let before = rounds.count
    let tram = try bensTrip.edit { trip in try trip.addItem(NewItem(title: "Tram 28"), at: .last) }
    _ = try ben.sync()
    let deadline = Date().addingTimeInterval(30)
    while lisbon.document.items[tram] == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    watch.stop()
    try check(lisbon.document.items[tram]?.title?.value == "Tram 28" && rounds.count > before, "the watch brought Ben's Tram 28 to Ana's open trip (\(rounds.count) rounds)")

    // The home's trips, and the status report.
    let trips = try ana.trips()
    try check(trips.trips.map(\.name) == ["Lisbon"] && trips.unreadable.isEmpty, "Ana's home lists Lisbon")
    let status = try ana.status(of: "Lisbon")
    try check(status.status.ours > 0, "status: \(status.status.ours) changes of Ana's, \(status.status.unpublished) unpublished")

    // Import a backup into a home: see what it would do, then merge it.
    let carol = try TripHome(path: work + "/carol")
    let prepared = try carol.prepareImport(file: sample)
    try check(prepared.existing == nil && prepared.refusal(for: .merge) == nil, "Carol's home can take \(sample)")
    let imported = try carol.apply(prepared, .merge)
    try check(imported.document.items.count == loaded.document.items.count, "imported \(imported.document.items.count) items")
    try check(try carol.open(loaded.document.tripID.description).document.items.count == loaded.document.items.count, "Carol opens the imported trip")

    // The handles' doc examples.
    let examples = work + "/examples"
    try FileManager.default.createDirectory(atPath: examples + "/shared", withIntermediateDirectories: true)
    let exampleReport = try tripHomeExample(path: examples + "/home", shared: examples + "/shared")
    try check(exampleReport.failed.isEmpty, "TripHome's doc example runs")
    let (exampleItem, exampleConflicts) = try tripStoreExample(path: examples + "/home")
    try check(exampleConflicts.fields.isEmpty && !exampleItem.description.isEmpty, "TripStore's doc example runs")

    // Errors are typed values to switch on, with a message a person can act on.
    do {
        _ = try ana.open("Porto")
        throw Failed(description: "FAILED: opened a trip that does not exist")
    } catch let error as TripStoreError {
        try check(error.errorKind == .notFound, "no trip Porto: \(error)")
    }
    do {
        try lisbon.edit { trip in _ = try trip.set(.title, of: castle, to: .text("   ")) }
        throw Failed(description: "FAILED: a blank title was saved")
    } catch let error as EditError {
        try check(error.kind == .invalidValue, "a blank title refused: \(error)")
    }
    print("all app jobs passed")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
