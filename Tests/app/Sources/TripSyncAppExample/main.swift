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

// docs/REFERENCE.md's "For app developers" example, verbatim (DocExampleTests checks it is here).
func referenceExample(path: String, shared: String) throws -> (TripDocument, ItemID, SyncReport) {
    let home = try TripHome(path: path)                            // locks nothing until a write
    let store = try home.open("Lisbon 2027")                       // holds the lock while it lives
    let castle = try store.edit { trip in                          // saved durably on return
        try trip.addItem(NewItem(title: "Castelo", place: "Alfama"), at: .last)
    }
    try store.edit { trip in
        try trip.set(.note, of: castle, to: .text("Tickets at the gate"))
    }
    let snapshot = store.document                                  // a value; later edits don't change it
    for conflict in store.conflicts.fields {                       // fields two people changed at once
        try store.edit { trip in try trip.resolve(conflict.field, of: conflict.item, keeping: .mine) }
    }
    let report = try home.sync(with: shared)                       // merge every device's file, publish ours
    return (snapshot, castle, report)
}

func run() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 4 else { throw Failed(description: "usage: TripSyncAppExample SAMPLE BROKEN WORKDIR") }
    let (sample, broken, work) = (arguments[1], arguments[2], arguments[3])

    // Read any file into a validated current-schema document, or get every problem with its pointer.
    let loaded = try TripFile.read(sample)
    try check(loaded.document.itemsInOrder.count > 0, "read \(sample): \(loaded.document.itemsInOrder.count) items, schema \(loaded.sourceSchemaVersion)")
    let refusal: TripError?
    do throws(TripError) {
        _ = try TripFile.read(broken)
        refusal = nil
    } catch {
        refusal = error
    }
    guard let refusal else { throw Failed(description: "FAILED: \(broken) was read") }
    try check(refusal.errorKind == .invalidFile && !refusal.problems.isEmpty && refusal.problems.allSatisfy { $0.facts.pointer?.hasPrefix("/") == true },
              "\(broken) refused: \(refusal.problems.count) problems, first at \(refusal.problems.first?.facts.pointer ?? "?")")
    try check(!TripFile.validate(broken).isValid, "validate says \(broken) is not valid")

    // Merge documents and get the result with what the other brought.
    let (merged, brought) = try loaded.document.merged(with: loaded.document)
    try check(merged.itemsInOrder.count == loaded.document.itemsInOrder.count && brought.isEmpty, "merging a file with itself brings nothing")

    // Open a home, create a trip, edit it (durable on return).
    let shared = work + "/shared"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    let ana = try TripHome(path: work + "/ana")
    let lisbon = try ana.create(name: "Lisbon", zone: "Europe/Lisbon", owned: false)
    let castle = try lisbon.edit { trip in try trip.addItem(NewItem(title: "Castelo"), at: .last) }
    try check(lisbon.document.item(castle)?.title == "Castelo", "Ana added Castelo")
    let first = try ana.sync(with: shared)
    try check(first.trips.contains { $0.published != nil }, "Ana published the trip")
    // Reports are Encodable values: the JSON `tripsync sync --json` prints, for an app's log.
    let json = String(decoding: try JSONEncoder().encode(first), as: UTF8.self)
    try check(json.contains("\"published\"") && json.contains("\"trips\""), "the sync report encodes as JSON")

    // A second laptop syncs, and both change the same field: one value kept, the other a conflict.
    let ben = try TripHome(path: work + "/ben")
    _ = try ben.sync(with: shared)
    let bensTrip = try ben.open("Lisbon")
    try check(bensTrip.document.item(castle) != nil, "Ben's laptop has Castelo after a sync")
    try bensTrip.edit { trip in _ = try trip.set(.title, of: castle, to: .text("Castelo de S. Jorge")) }
    try lisbon.edit { trip in _ = try trip.set(.title, of: castle, to: .text("Castle")) }
    _ = try ben.sync()
    _ = try ana.sync()
    _ = try ben.sync()
    let conflicts = lisbon.conflicts
    try check(conflicts.fields.count == 1, "one conflict on Ana's laptop after the syncs")
    // The item as an app reads it: plain values, and the values written at once beside the one shown.
    let seen = lisbon.document.item(castle)
    let titles = (seen?.conflicts.first { $0.field == .title }).map { [$0.current.text] + $0.alternatives.map(\.text) } ?? []
    try check(seen?.title == titles.first && Set(titles) == ["Castle", "Castelo de S. Jorge"], "the item's title conflict reads as \(titles)")

    // Resolve it, keeping Ana's own value.
    let kept = try lisbon.edit { trip in try trip.resolve(.title, of: castle, keeping: .mine) }
    try check(kept.text == "Castle" && lisbon.conflicts.fields.isEmpty, "Ana kept hers: \(kept.text)")

    // Delete beats a concurrent edit, and the edit stays restorable.
    try lisbon.edit { trip in try trip.delete(castle) }
    try check(lisbon.document.item(castle)?.isDeleted == true && lisbon.document.itemsInOrder.allSatisfy { $0.id != castle }, "deleted")
    try lisbon.edit { trip in try trip.restore(castle) }
    try check(lisbon.document.item(castle)?.isDeleted == false && lisbon.document.deletedItems.isEmpty, "restored")

    // A form's edit: only the fields changed, each with what the person saw; a value another
    // laptop wrote after the form was read stays beside the new one, never silently reverted.
    let form = lisbon.document.item(castle)
    try bensTrip.edit { trip in _ = try trip.set(.note, of: castle, to: .text("Closed on Mondays")) }
    _ = try ben.sync()
    _ = try ana.sync()
    var formEdit = ItemEdit(item: castle)
    formEdit.set(.note, to: "Tickets online", seen: form?.seen(.note) ?? .current)
    try lisbon.edit { trip in _ = try trip.apply(formEdit) }
    let notes = (lisbon.document.item(castle)?.conflicts.first { $0.field == .note }).map { [$0.current.text] + $0.alternatives.map(\.text) } ?? []
    try check(Set(notes) == ["Tickets online", "Closed on Mondays"], "the stale form's note kept Ben's beside it: \(notes)")
    try lisbon.edit { trip in _ = try trip.resolve(.note, of: castle, keeping: .mine) }

    // Keep Ana's home in sync while it runs: Ben's next change reaches her open store by itself.
    let rounds = Rounds()
    let watch = try ana.watch { event in if case .synced = event { rounds.add() } }
    let before = rounds.count
    let tram = try bensTrip.edit { trip in try trip.addItem(NewItem(title: "Tram 28"), at: .last) }
    _ = try ben.sync()
    let deadline = Date().addingTimeInterval(30)
    while lisbon.document.item(tram) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    watch.stop()
    try check(lisbon.document.item(tram)?.title == "Tram 28" && rounds.count > before, "the watch brought Ben's Tram 28 to Ana's open trip (\(rounds.count) rounds)")

    // The home's trips, and the status report.
    let trips = try ana.trips()
    try check(trips.trips.map(\.name) == ["Lisbon"] && trips.unreadable.isEmpty, "Ana's home lists Lisbon")
    let status = try ana.status(of: "Lisbon")
    try check(status.status.ours > 0, "status: \(status.status.ours) changes of Ana's, \(status.status.unpublished) unpublished")

    // Attachments: a file attached to an item, listed, and its bytes read back.
    let ticket = work + "/ticket.pdf"
    try Data("%PDF-1.4 ticket".utf8).write(to: URL(fileURLWithPath: ticket))
    let attached = try lisbon.attach(file: ticket, to: castle, caption: "Entry", stripLocation: false)
    try check(try lisbon.attachments(of: castle).map(\.id) == [attached.entry.id], "Castelo has its ticket attached")
    try check(try lisbon.bytes(of: attached.entry.id) == Array("%PDF-1.4 ticket".utf8), "the ticket's bytes read back")
    try check(attached.entry.type == "application/pdf" && attached.entry.size == 15, "the ticket reads as \(attached.entry.type), \(attached.entry.size) bytes")
    // Two laptops caption it at once: the listing shows both captions, and Ana keeps hers.
    _ = try ana.sync()
    _ = try ben.sync()
    try bensTrip.setCaption(attached.entry.id, to: "Ben's ticket")
    try lisbon.setCaption(attached.entry.id, to: "Ana's ticket")
    _ = try ben.sync()
    _ = try ana.sync()
    let captioned = try lisbon.attachment(attached.entry.id.description)
    let captions = captioned.captionConflict.map { [$0.current.text] + $0.alternatives.map(\.text) } ?? []
    try check(Set(captions) == ["Ana's ticket", "Ben's ticket"] && captioned.caption == captions.first, "the caption's conflict reads as \(captions)")
    try lisbon.edit { trip in _ = try trip.resolveCaption(of: attached.entry.id, keeping: .mine) }
    let settled = try lisbon.attachment(attached.entry.id.description)
    try check(settled.caption == "Ana's ticket" && settled.captionConflict == nil, "Ana kept her caption")

    // Members: an owned trip, an invite, a join through the shared folder; the owner's next sync
    // admits the request that answers the invite, with the invite's role.
    let rome = try ana.create(name: "Rome")
    try check(try rome.members().contains { $0.device == rome.deviceID && $0.role == .owner }, "Ana owns Rome")
    _ = try ana.sync()
    let invite = try rome.invite(role: .editor)
    try ben.join(code: invite.text, folder: shared)
    _ = try ben.sync()
    _ = try ana.sync()
    _ = try ben.sync()
    let bensID = try ben.open("Rome").deviceID
    try check(try rome.members().contains { $0.device == bensID && $0.role == .editor && !$0.pending }, "Ben joined Rome as an editor")

    // Import a backup into a home: see what it would do, then merge it.
    let carol = try TripHome(path: work + "/carol")
    let prepared = try carol.prepareImport(file: sample)
    try check(prepared.existing == nil && prepared.refusal(for: .merge) == nil, "Carol's home can take \(sample)")
    let imported = try carol.apply(prepared, .merge)
    try check(imported.document.itemsInOrder.count == loaded.document.itemsInOrder.count, "imported \(imported.document.itemsInOrder.count) items")
    try check(try carol.open(loaded.document.tripID.description).document.itemsInOrder.count == loaded.document.itemsInOrder.count, "Carol opens the imported trip")

    // The handles' doc examples.
    let examples = work + "/examples"
    try FileManager.default.createDirectory(atPath: examples + "/shared", withIntermediateDirectories: true)
    let exampleReport = try tripHomeExample(path: examples + "/home", shared: examples + "/shared")
    try check(exampleReport.failed.isEmpty, "TripHome's doc example runs")
    let (exampleItem, exampleConflicts) = try tripStoreExample(path: examples + "/home")
    try check(exampleConflicts.fields.isEmpty && !exampleItem.description.isEmpty, "TripStore's doc example runs")
    let reference = examples + "/reference"
    try FileManager.default.createDirectory(atPath: reference + "/shared", withIntermediateDirectories: true)
    _ = try TripHome(path: reference + "/home").create(name: "Lisbon 2027", zone: "Europe/Lisbon")
    let (snapshot, referenceItem, referenceReport) = try referenceExample(path: reference + "/home", shared: reference + "/shared")
    try check(snapshot.item(referenceItem)?.note == "Tickets at the gate" && referenceReport.failed.isEmpty && referenceReport.published.count == 1, "docs/REFERENCE.md's app example runs")

    // Errors are typed values to switch on, with a message a person can act on.
    do {
        _ = try ana.open("Porto")
        throw Failed(description: "FAILED: opened a trip that does not exist")
    } catch let error as TripError {
        try check(error.errorKind == .notFound && error.facts.item == "Porto", "no trip Porto: \(error)")
    }
    do {
        try lisbon.edit { trip in _ = try trip.set(.title, of: castle, to: .text("   ")) }
        throw Failed(description: "FAILED: a blank title was saved")
    } catch let error as TripError {
        try check(error.errorKind == .invalidValue, "a blank title refused: \(error)")
    }
    // Inside an edit, the editor's writes throw the same value, typed.
    try lisbon.edit { trip in
        let refused: TripError?
        do throws(TripError) {
            try trip.restore(castle)
            refused = nil
        } catch {
            refused = error
        }
        try check(refused?.errorKind == .refused && refused?.message.isEmpty == false, "restoring a live item refused: \(refused.map { "\($0)" } ?? "restored")")
    }
    print("all app jobs passed")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
