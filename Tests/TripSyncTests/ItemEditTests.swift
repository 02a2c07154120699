import Foundation
import Testing
import TripSyncCore

/// The one edit value (issue 39): only the fields changed are written, a value written since the
/// person saw the field is kept beside the new one, and the one rule for editing part of a time.
@Suite struct ItemEditTests {
    let now: UInt64 = 1_800_000_000_000

    static func local(_ day: Int, _ hour: Int, _ minute: Int = 0, _ zone: String) -> TripTime? {
        EditingEdgeTests.local(day, hour, minute, zone)
    }

    func item() throws -> (TripDocument, ItemID, HybridLogicalClock) {
        try EditingEdgeTests().documentWithTimedItem()
    }

    @Test("a field written since the person saw it is kept beside the new value, never reverted")
    func unseenValueIsKept() throws {
        var (document, id, clock) = try item()
        let saw = try #require(document.items[id]?.note).rev
        try document.set(.note, of: id, to: .text("tickets at the door"), hlc: &clock, now: now + 1)
        var edit = ItemEdit(item: id)
        edit.set(.note, to: "tickets bought", seen: .revs([saw]))
        let outcome = try document.apply(edit, suggestedZone: nil, hlc: &clock, now: now + 2)
        #expect(outcome.changed == [.note])
        #expect(outcome.kept == [.note])
        let note = try #require(document.items[id]?.note)
        #expect(note.value == "tickets bought")
        #expect(note.conflicts.map(\.value) == ["tickets at the door"])
    }

    @Test("a field the person saw as it is is written as any edit; a field not in the edit is not written")
    func seenValueIsReplaced() throws {
        var (document, id, clock) = try item()
        let before = try #require(document.items[id])
        var edit = ItemEdit(item: id)
        edit.set(.place, to: "Alfama", seen: .revs([try #require(before.place).rev]))
        let outcome = try document.apply(edit, suggestedZone: nil, hlc: &clock, now: now + 1)
        #expect(outcome.changed == [.place])
        #expect(outcome.kept.isEmpty)
        let after = try #require(document.items[id])
        #expect(after.place?.conflicts.isEmpty == true)
        #expect(after.title == before.title)
        #expect(after.start == before.start)
        #expect(after.note == before.note)
    }

    @Test("someone else typing the same value since is no conflict and no write")
    func sameValueSince() throws {
        var (document, id, clock) = try item()
        let saw = try #require(document.items[id]?.note).rev
        try document.set(.note, of: id, to: .text("same"), hlc: &clock, now: now + 1)
        var edit = ItemEdit(item: id)
        edit.set(.note, to: "same", seen: .revs([saw]))
        #expect(try document.apply(edit, suggestedZone: nil, hlc: &clock, now: now + 2).changed.isEmpty)
    }

    @Test("part of a time: a day alone keeps the time and zone, a time alone keeps the day, a zone alone keeps the wall time")
    func partsOfATime() throws {
        let start = Self.local(10, 10, 0, "Europe/Lisbon")
        let date = try #require(LocalDate(year: 2027, month: 6, day: 12))
        #expect(try ItemEdit.changed(start, to: .parts(day: date, time: nil, zone: nil), fallbackZone: nil, field: .start) == Self.local(12, 10, 0, "Europe/Lisbon"))
        #expect(try ItemEdit.changed(start, to: .parts(day: nil, time: .at(hour: 9, minute: 30), zone: nil), fallbackZone: nil, field: .start) == Self.local(10, 9, 30, "Europe/Lisbon"))
        #expect(try ItemEdit.changed(start, to: .parts(day: nil, time: nil, zone: "Europe/Madrid"), fallbackZone: nil, field: .start) == Self.local(10, 10, 0, "Europe/Madrid"))
        #expect(try ItemEdit.changed(start, to: .parts(day: nil, time: .allDay, zone: nil), fallbackZone: nil, field: .start) == .date(LocalDate(year: 2027, month: 6, day: 10)!))
        #expect(try ItemEdit.changed(.date(date), to: .parts(day: nil, time: .at(hour: 8, minute: 0), zone: nil), fallbackZone: "UTC", field: .start) == Self.local(12, 8, 0, "UTC"))
        #expect(throws: EditError.self) { try ItemEdit.changed(nil, to: .parts(day: nil, time: .at(hour: 8, minute: 0), zone: nil), fallbackZone: "UTC", field: .start) }
        #expect(throws: EditError.self) { try ItemEdit.changed(.date(date), to: .parts(day: nil, time: .at(hour: 8, minute: 0), zone: nil), fallbackZone: nil, field: .start) }
    }

    @Test("a start's new zone takes an end in the same zone along, not an end in another zone")
    func endFollowsTheStartsZone() throws {
        var (document, id, clock) = try item()
        var edit = ItemEdit(item: id)
        edit.set(.start, to: .parts(day: nil, time: nil, zone: "Europe/Madrid"))
        _ = try document.apply(edit, suggestedZone: nil, hlc: &clock, now: now + 1)
        #expect(document.items[id]?.end?.value == Self.local(10, 12, 0, "Europe/Madrid"))
        try document.set(.end, of: id, to: .time(Self.local(10, 23, 0, "Asia/Tokyo")), hlc: &clock, now: now + 2)
        var again = ItemEdit(item: id)
        again.set(.start, to: .parts(day: nil, time: nil, zone: "Europe/Lisbon"))
        _ = try document.apply(again, suggestedZone: nil, hlc: &clock, now: now + 3)
        #expect(document.items[id]?.end?.value == Self.local(10, 23, 0, "Asia/Tokyo"))
    }
}
