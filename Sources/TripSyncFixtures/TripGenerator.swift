import TripSync
import TripSyncCore

/// A small, fast, seedable random number generator (SplitMix64) for repeatable tests and benchmarks.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed; the same seed gives the same sequence.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds realistic trip documents of any size for tests and benchmarks.
package struct TripGenerator {
    /// Zones the generated items use.
    package static let zones = [
        "Europe/Lisbon", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kathmandu",
        "Pacific/Kiritimati", "Europe/Berlin", "America/Sao_Paulo",
    ]
    static let titles = [
        "Breakfast at the hotel", "Walking tour of the old town", "Lunch at Time Out Market", "Museum visit",
        "Train to Sintra", "Dinner with friends", "Coffee at A Brasileira", "Flight TP 201",
        "Check in at the apartment", "Boat trip on the river", "Fado night", "Day at the beach",
        "Tram 28 ride", "Visit the castle", "Shopping in Chiado", "Concert in the park",
    ]
    static let places = [
        "Mercado da Ribeira", "Rua Augusta 12, Lisboa", "Castelo de São Jorge", "Belém Tower",
        "Central Park, New York", "MoMA, 11 W 53rd St", "Shinjuku Station", "Praça do Comércio",
    ]
    static let notes = [
        "Book a table for six.\nAsk for the terrace.", "Tickets are in the shared folder.",
        "Bring sunscreen and water", "Meet at the lobby 15 minutes before", "Cash only — €20 each",
        "Sam has the reservation number", "Check opening hours on Monday", "Rain plan: the aquarium",
    ]

    /// The devices writing the trip.
    package var devices: [DeviceID]
    /// The trip id.
    package var tripID: TripID
    private var random: SeededGenerator
    /// The next counter to stamp (hybrid logical clock milliseconds around 2027).
    package var counter: UInt64 = 1_764_000_000_000

    /// Creates a generator for a trip written by `deviceCount` devices.
    package init(seed: UInt64, deviceCount: Int = 2) {
        random = SeededGenerator(seed: seed)
        var ids: [DeviceID] = []
        for _ in 0..<max(deviceCount, 1) { ids.append(Identifier.random(using: &random)) }
        devices = ids
        tripID = Identifier.random(using: &random)
    }

    /// A fresh random identifier from the seeded sequence.
    package mutating func identifier() -> Identifier { Identifier.random(using: &random) }

    /// A random element.
    package mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }

    /// A random integer in `range`.
    package mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }

    /// The next rev for `device`, advancing the shared counter.
    package mutating func stamp(_ device: DeviceID) -> Rev {
        counter += UInt64(int(1..<50))
        return Rev(counter: counter, device: device)
    }

    /// A realistic item written by `device`: about one in ten unscheduled, one in ten a whole
    /// day, one in five with an end.
    package mutating func item(index: Int, by device: DeviceID) -> ItemFields {
        let zone = pick(TripGenerator.zones)
        let june = LocalDate(year: 2027, month: 6, day: 1) ?? LocalDate.epoch
        let day = LocalDate(daysSinceEpoch: june.daysSinceEpoch + index % 30) ?? june
        let kind = int(0..<10)
        var start: TripTime?
        var end: TripTime?
        if kind == 0 {
            start = nil
        } else if kind == 1 {
            start = .date(day)
        } else {
            let hour = int(6..<22)
            if let local = LocalDateTime(date: day, hour: hour, minute: int(0..<4) * 15) { start = .local(local, zone: zone) }
            if kind >= 8, let local = LocalDateTime(date: day, hour: min(hour + 2, 23), minute: 30) {
                end = .local(local, zone: zone)
            }
        }
        let sortKey = String(index, radix: 36).uppercased() + "V"
        return ItemFields(
            title: Register(value: pick(TripGenerator.titles) + " #\(index)", rev: stamp(device)),
            sortKey: Register(value: sortKey, rev: stamp(device)),
            start: Register(value: start, rev: stamp(device)),
            end: Register(value: end, rev: stamp(device)),
            place: Register(value: int(0..<4) == 0 ? nil : pick(TripGenerator.places), rev: stamp(device)),
            note: Register(value: int(0..<3) == 0 ? nil : pick(TripGenerator.notes), rev: stamp(device)))
    }

    /// A document of `itemCount` items written by the generator's devices, with a consistent clock.
    package mutating func document(itemCount: Int, name: String = "Lisbon & New York 2027") -> TripDocument {
        let first = devices[0]
        var document = TripDocument(
            tripID: tripID, deviceID: first, clock: VersionVector(),
            trip: TripInfo(name: Register(value: name, rev: stamp(first))))
        for (index, device) in devices.enumerated() {
            document.devices[device] = DeviceInfo(name: Register(value: "Laptop \(index + 1)", rev: stamp(device)))
        }
        document.items.reserveCapacity(itemCount)
        for index in 0..<itemCount {
            let device = devices[index % devices.count]
            document.items[identifier()] = item(index: index, by: device)
        }
        document.clock = TripGenerator.clockCovering(document)
        for device in devices { document.acks[device] = document.clock }
        return document
    }

    /// The smallest clock that accounts for every dot of the document.
    package static func clockCovering(_ document: TripDocument) -> VersionVector {
        var clock = document.clock
        clock.include(document.trip.name.rev)
        for register in document.trip.name.conflicts { clock.include(register.rev) }
        for info in document.devices.values { for version in info.name.versions { clock.include(version.rev) } }
        for item in document.items.values { for dot in item.dots { clock.include(dot.rev) } }
        for tombstone in document.tombstones.values {
            for version in tombstone.deleted.versions { clock.include(version.rev) }
            for dot in tombstone.item.dots { clock.include(dot.rev) }
        }
        return clock
    }
}
