import FuzzSupport
import TripSync

/// libFuzzer entry point: the whole public read path on arbitrary bytes.
///
/// bytes → `TripFileReader().read(bytes:file:)` (gzip by magic, strict JSON, validation,
/// schema 1 migration). A refusal is the expected outcome for almost every input and ends the
/// run; crashes, hangs and memory blow-ups are what libFuzzer looks for. When the reader
/// accepts the input, `ReadTarget.check` holds the accepted document to every property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReadTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    ReadTarget.run(bytes)
    return 0
}

enum ReadTarget {
    /// The replicas that edit copies of an accepted document (fixed ids, so runs repeat).
    static let deviceB = Identifier("f0220000-0000-4000-8000-00000000000b")!
    static let deviceC = Identifier("f0220000-0000-4000-8000-00000000000c")!
    /// The id of the item the derived copies add.
    static let newItem = Identifier("f0220000-0000-4000-8000-0000000000a1")!

    static func run(_ bytes: [UInt8]) {
        let loaded: LoadedTrip
        do {
            loaded = try TripFileReader().read(bytes: bytes, file: "fuzz")
        } catch {
            return
        }
        check(loaded)
    }

    /// Every property of an accepted document.
    static func check(_ loaded: LoadedTrip) {
        let document = loaded.document
        // The reader promises a valid document that writes and reads back unchanged.
        Properties.requireValid(document, "the document read")
        let bytes = Properties.requireRoundTrip(document, "the document read")
        if bytes.count <= 256 << 10 { requireGzipRoundTrip(document, bytes) }
        Properties.requireIdempotent(document, "the document read")

        // Copies edited through the public API by two other replicas.
        let b = derive(document, device: deviceB, variant: 0)
        let c = derive(document, device: deviceC, variant: 1)
        Properties.requireValid(b, "an edited copy (B)")
        Properties.requireValid(c, "an edited copy (C)")
        Properties.requireRoundTrip(b, "an edited copy (B)")
        Properties.requireMergeLaws(document, b, writer: document.deviceID, "document · B")
        Properties.requireMergeLaws(b, c, writer: deviceB, "B · C")
        Properties.requireAssociative(document, b, c, writer: document.deviceID, "document, B, C")

        // The bundled sample, when the input is of the same trip (seeds derived from it are).
        if let sample = Sample.document, sample.tripID == document.tripID {
            Properties.requireMergeLaws(document, sample, writer: document.deviceID, absorption: false, "document · sample")
            Properties.requireMergeLaws(b, sample, writer: sample.deviceID, absorption: false, "B · sample")
            Properties.requireAssociative(document, sample, c, writer: deviceC, "document, sample, C")
        }
    }

    /// The gzip form reads back as the same canonical bytes.
    static func requireGzipRoundTrip(_ document: TripDocument, _ canonical: [UInt8]) {
        let gzip: [UInt8]
        do {
            gzip = try document.gzipData()
        } catch {
            violated("gzipData() failed on a valid document: \(error)")
        }
        do {
            let again = try TripFileReader().read(bytes: gzip, file: "roundtrip.gz")
            if !again.wasGzip || again.document.canonicalJSON() != canonical {
                violated("the gzip form of the document reads back differently")
            }
        } catch {
            violated("the gzip form of the document is refused: \(error)")
        }
    }

    /// A copy of `document` as replica `device` holds it after a few local edits through the
    /// public API (each edit that does not apply, such as editing a missing item, is skipped).
    static func derive(_ document: TripDocument, device: DeviceID, variant: Int) -> TripDocument {
        var copy = document
        copy.deviceID = device
        var hlc = HybridLogicalClock()
        // A wall clock at or after every counter, so the clock guard lets the edits through.
        var now = max(document.clock.maxCounter, 1_800_000_000_000)
        func tick() -> UInt64 {
            now += 7
            return now
        }
        let live = copy.items.keys.sorted()
        let dead = copy.tombstones.keys.sorted()
        func at(_ list: [ItemID], _ index: Int) -> ItemID? { index < list.count ? list[index] : nil }
        let day = LocalDate(year: 2027, month: 6, day: 10).map { TripTime.date($0) }
        let lisbon = LocalDate(year: 2027, month: 3, day: 28)
            .flatMap { LocalDateTime(date: $0, hour: 1, minute: 30) }
            .map { TripTime.local($0, zone: "Europe/Lisbon") }

        if variant == 0 {
            if let id = at(live, 0) { _ = try? copy.set(.title, of: id, to: .text("Edited by B"), hlc: &hlc, now: tick()) }
            if let id = at(live, 1) { _ = try? copy.set(.note, of: id, to: .text(nil), hlc: &hlc, now: tick()) }
            if let id = at(live, 2) { _ = try? copy.set(.start, of: id, to: .time(day), hlc: &hlc, now: tick()) }
            if let id = at(live, 3) {
                try? copy.deleteItem(id, at: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), hlc: &hlc, now: tick())
            }
            if let id = at(dead, 0) { try? copy.restoreItem(id, hlc: &hlc, now: tick()) }
            try? copy.addItem(newItem, NewItem(title: "Added by B", sortKey: "V", start: lisbon, place: "Cais do Sodré"), hlc: &hlc, now: tick())
            copy.acknowledgeOwnState()
        } else {
            if let id = at(live, 0) { _ = try? copy.set(.title, of: id, to: .text("Edited by C"), hlc: &hlc, now: tick()) }
            if let id = at(live, 1) { _ = try? copy.set(.place, of: id, to: .text("Somewhere else"), hlc: &hlc, now: tick()) }
            if let id = at(live, 0) {
                // Resolve whatever conflict the title has by keeping the current value.
                _ = try? copy.set(.title, of: id, to: .text("Edited by C"), force: true, hlc: &hlc, now: tick())
            }
            if let id = at(live, 2) {
                try? copy.deleteItem(id, at: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), hlc: &hlc, now: tick())
            }
            if let id = at(dead, 1) { try? copy.restoreItem(id, hlc: &hlc, now: tick()) }
            try? copy.addItem(newItem, NewItem(title: "Added by C", sortKey: "W", end: day, note: "Bring\ttickets\n"), hlc: &hlc, now: tick())
            copy.acknowledgeOwnState()
            // Far past any retention: drops every body all devices acknowledged.
            copy.compact(now: UTCTimestamp(secondsSinceEpoch: 253_402_300_799))
        }
        return copy
    }
}

/// `samples/lisbon-new-york.trip.json`, read once (nil when the file is not there).
enum Sample {
    static let path: String = {
        // Fuzz/Sources/FuzzRead/FuzzRead.swift → the repository root.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/") + "/samples/lisbon-new-york.trip.json"
    }()

    static let document: TripDocument? = {
        do throws(TripFileError) {
            return try TripFileReader().read(path: path).document
        } catch {
            if error.kind == .unreadable { return nil }
            violated("the bundled sample \(path) is refused: \(error)")
        }
    }()
}
