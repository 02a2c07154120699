import Testing
@testable import TripSync
@testable import TripSyncCore

/// Days and times as people type them into the browser's form (`TypedInput`, in the library).
@Suite("Typed input")
struct TypedInputTests {
    static let reference = LocalDate(year: 2027, month: 6, day: 1) ?? .epoch

    @Test("days", arguments: [
        ("2027-06-10", "2027-06-10"), ("10 Jun", "2027-06-10"), ("10 june", "2027-06-10"), ("Jun 10", "2027-06-10"), ("10 Jun 2028", "2028-06-10"),
        ("Jun 10, 2028", "2028-06-10"), ("3 Jan", "2027-01-03"), ("20 Dec", "2026-12-20"), (" 1 Mar ", "2027-03-01"), ("1 Dec", "2027-12-01"),
    ])
    func days(_ text: String, _ expected: String) {
        #expect(TypedInput.day(text, reference: Self.reference)?.description == expected)
    }

    @Test("not days", arguments: ["31 Feb 2027", "10 Jux", "Jun", "10", "2027-13-01", "10 Jun 27", "junk junk", "10 Ju"])
    func notDays(_ text: String) {
        #expect(TypedInput.day(text, reference: Self.reference) == nil)
    }

    @Test("times", arguments: [
        ("9:30", 9, 30), ("09:30", 9, 30), ("21:05", 21, 5), ("9", 9, 0), ("9.30", 9, 30), ("9:30pm", 21, 30), ("12am", 0, 0), ("12:15 PM", 12, 15),
    ])
    func times(_ text: String, _ hour: Int, _ minute: Int) {
        let time = TypedInput.time(text)
        #expect(time?.hour == hour && time?.minute == minute)
    }

    @Test("not times", arguments: ["24:00", "9:60", "9:3", "13pm", "", "nine", "9:30:00", "-1"])
    func notTimes(_ text: String) {
        #expect(TypedInput.time(text) == nil)
    }

    @Test("zones are offered by place")
    func zoneChoices() {
        #expect(TypedInput.zoneChoices.contains { $0.place == "Lisbon" && $0.id == "Europe/Lisbon" })
        #expect(TypedInput.zoneChoices.contains { $0.place == "New York" && $0.id == "America/New_York" })
        #expect(TypedInput.zone("Europe/Lisbon") == "Europe/Lisbon")
        #expect(TypedInput.zone("Mars/Olympus") == nil)
    }
}
