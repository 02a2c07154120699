import FuzzSupport
import FuzzZlib
@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// libFuzzer entry point: the whole public read path on arbitrary bytes.
///
/// bytes → `TripFileReader().read(bytes:file:)` (gzip by magic, strict JSON, validation,
/// schema 1 migration). A refusal is the expected outcome for almost every input and ends the
/// run; crashes, hangs and memory blow-ups are what libFuzzer looks for. When the reader
/// accepts the input, `ReadTarget.check` holds the accepted document to every property.
///
/// An input starting with byte 0x00 (never JSON, never gzip) is *wrapped*: the rest is gzipped
/// first (see `ReadTarget.wrap`), so mutations of the JSON reach the reader through valid gzip,
/// in one or several members, sometimes truncated or followed by stray bytes.
///
/// An input starting with byte 0x01 (never JSON, never gzip) tests the library's own gzip
/// encoder instead (`ReadTarget.encoderRoundTrip`): the rest, compressed by it, must inflate
/// with zlib to exactly itself.
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

    /// How the reader got the input.
    enum Form {
        /// The fuzz bytes as they are.
        case asIs
        /// Gzipped by the harness: the reader must see exactly `json`.
        case wrapped(json: [UInt8])
        /// Gzipped by the harness, then cut short or followed by a stray byte: must be refused.
        case damaged

        var isAsIs: Bool {
            if case .asIs = self { return true }
            return false
        }
    }

    static func run(_ bytes: [UInt8]) {
        if bytes.starts(with: "TZif".utf8) { return zoneFile(bytes) }
        if bytes.first == 0x01 { return encoderRoundTrip(bytes) }
        let (input, form) = bytes.first == 0x00 ? wrap(bytes) : (bytes, .asIs)
        sameAnswerBothWays(input)
        let loaded: LoadedTrip
        do {
            loaded = try TripFileReader().read(bytes: input, file: "fuzz")
        } catch {
            return
        }
        // Strictness is a feature: whatever JSON text the reader accepts, an independent
        // RFC 8259 checker accepts too.
        switch form {
        case .asIs:
            if !loaded.wasGzip, let problem = StrictJSON.problem(in: bytes) {
                violated("the reader accepted bytes that are not strict JSON: \(problem)")
            }
        case .wrapped(let json):
            if let problem = StrictJSON.problem(in: json) {
                violated("the reader accepted gzipped JSON that is not strict JSON: \(problem)")
            }
            if !loaded.wasGzip || loaded.jsonByteCount != json.count {
                violated("a gzip file was read as \(loaded.wasGzip ? "gzip" : "plain") of \(loaded.jsonByteCount) JSON bytes, expected gzip of \(json.count)")
            }
        case .damaged:
            violated("a gzip file missing its last byte or followed by a stray byte was accepted")
        }
        check(loaded)
        checkSignatures(loaded, plain: form.isAsIs && !loaded.wasGzip ? bytes : nil)
    }

    /// The harness's own device key (a fixed seed, so runs repeat).
    static let harnessKey = SigningKey(seed: Array(repeating: 0x5A, count: 32))!

    /// Schema 3: a signed input loses its signature with any changed byte; any accepted
    /// document, signed by the harness key (plain and gzip), reads back as itself signed by
    /// that key, and not once a byte is changed; one sync's acceptance (`Membership.accept`)
    /// of the document and its edited copies gives a valid document (grants within the clock,
    /// acks within the clock) that round-trips.
    static func checkSignatures(_ loaded: LoadedTrip, plain: [UInt8]?) {
        let document = loaded.document
        if loaded.signedBy != nil, let plain, !plain.isEmpty {
            var changed = plain
            let position = (plain.count &* 7919) % plain.count
            changed[position] ^= 0x01
            if (try? TripFileReader().read(bytes: changed, file: "fuzz-changed")) != nil {
                violated("a signed file with byte \(position) changed was accepted")
            }
        }
        let signed = document.signedCanonicalJSON(signingKey: harnessKey)
        do {
            let again = try TripFileReader().read(bytes: signed, file: "fuzz-signed")
            if again.signedBy != harnessKey.publicKey { violated("a file the harness signed reads back signed by \(String(describing: again.signedBy))") }
            if again.document.canonicalJSON() != document.canonicalJSON() { violated("a file the harness signed reads back as another document") }
        } catch {
            violated("a valid document signed by the harness is refused: \(error)")
        }
        if signed.count <= 256 << 10 {
            do {
                let again = try TripFileReader().read(bytes: try document.signedGzipData(signingKey: harnessKey), file: "fuzz-signed.gz")
                if again.signedBy != harnessKey.publicKey || again.document.canonicalJSON() != document.canonicalJSON() {
                    violated("the signed gzip form reads back differently")
                }
            } catch {
                violated("the signed gzip form of a valid document is refused: \(error)")
            }
            var changed = signed
            let position = (signed.count &* 104_729) % signed.count
            changed[position] ^= 0x20
            if (try? TripFileReader().read(bytes: changed, file: "fuzz-signed-changed")) != nil {
                violated("a file the harness signed was accepted with byte \(position) changed")
            }
        }
        let b = derive(document, device: deviceB, variant: 0)
        let c = derive(document, device: deviceC, variant: 1)
        for (inputs, local, what) in [
            ([(b, Optional<PublicKey>.none), (document, loaded.signedBy)], c, "document and B into C"),
            ([(document, loaded.signedBy), (c, harnessKey.publicKey)], b, "document and C into B"),
        ] {
            let accepted: TripDocument
            do {
                accepted = try Membership.accept(inputs, into: local).document
            } catch {
                violated("accepting \(what) failed: \(error)")
            }
            Properties.requireValid(accepted, "the acceptance of \(what)")
            for (device, ack) in accepted.acks where !accepted.clock.covers(ack) {
                violated("the acceptance of \(what) holds acks of \(device) above its clock")
            }
            Properties.requireRoundTrip(accepted, "the acceptance of \(what)")
        }
    }

    /// Readers that take the two-step path (items delimited, then decoded on every core, their
    /// canonical bytes kept) for every input, and never.
    static let deferredReader: TripFileReader = {
        var reader = TripFileReader()
        reader.deferredDecodingMinimumBytes = 0
        reader.keepsItemBytes = true
        return reader
    }()
    static let strictReader: TripFileReader = {
        var reader = TripFileReader()
        reader.deferredDecodingMinimumBytes = .max
        return reader
    }()

    /// The two-step read gives exactly the one-pass answer: the same document and warnings, or
    /// the same refusal (message and pointer).
    static func sameAnswerBothWays(_ input: [UInt8]) {
        let strict = Result { () throws(TripFileError) -> LoadedTrip in try strictReader.read(bytes: input, file: "fuzz") }
        let deferred = Result { () throws(TripFileError) -> LoadedTrip in try deferredReader.read(bytes: input, file: "fuzz") }
        switch (strict, deferred) {
        case (.failure(let one), .failure(let two)):
            if one != two { violated("the two-step read refused with \(two), one pass with \(one)") }
        case (.success(let one), .success(let two)):
            if one.document != two.document || one.warnings != two.warnings || one.jsonByteCount != two.jsonByteCount
                || one.sourceSchemaVersion != two.sourceSchemaVersion || one.wasGzip != two.wasGzip
            {
                violated("the two-step read accepted a different document or warnings than one pass")
            } else if one.document.canonicalJSON() != two.document.canonicalJSON() {
                violated("writing what the two-step read kept gave other bytes than writing the one-pass document")
            }
        case (.success, .failure(let error)):
            violated("the two-step read refused what one pass accepts: \(error)")
        case (.failure(let error), .success):
            violated("the two-step read accepted what one pass refuses: \(error)")
        }
    }

    /// A zone file (the abbreviations' source): parsed as untrusted bytes; whatever parses gives,
    /// for any instant, nil or a name of letters only.
    static func zoneFile(_ bytes: [UInt8]) {
        guard let table = TZifAbbreviations.parse(bytes) else { return }
        for instant: Int64 in [Int64.min, -2_000_000_000, 0, 1_812_000_000, 4_000_000_000, Int64.max] {
            for offset in [-36_000, 0, 3_600, 20_700] {
                for daylight in [false, true] {
                    if let name = table.abbreviation(atSecondsSinceEpoch: instant, utcOffset: offset, isDaylight: daylight),
                        name.count < 2 || !name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) })
                    {
                        violated("a zone file gave the abbreviation \(name.debugDescription)")
                    }
                }
            }
        }
    }

    /// `[0x01, control, data…]`: `data` repeated `1 << (control & 7)` times (each copy with
    /// one byte changed, so long and near matches at many distances come up, and inputs past
    /// the encoder's block limits), gzipped by `GzipCompression.fast`, must inflate with zlib
    /// to exactly that. zlib inflates 100 bytes per call, keeping only its 32 KiB window, so a
    /// match reaching further back is refused rather than followed.
    static func encoderRoundTrip(_ bytes: [UInt8]) {
        let control = bytes.count > 1 ? Int(bytes[1]) : 0
        let data = bytes.count > 2 ? Array(bytes[2...]) : []
        var input: [UInt8] = []
        for copy in 0..<(1 << (control & 7)) {
            var piece = data
            if !piece.isEmpty { piece[(copy * 7919) % piece.count] ^= UInt8(truncatingIfNeeded: copy | 1) }
            input += piece
        }
        let gzip: [UInt8]
        do {
            gzip = try GzipCompression.fast.gzip(input)
        } catch {
            violated("the gzip encoder failed on \(input.count) bytes: \(error)")
        }
        var stream = z_stream()
        guard fuzz_inflateInit2(&stream) == Z_OK else { violated("zlib inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var room = [UInt8](repeating: 0, count: 100)
        gzip.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let status = room.withUnsafeMutableBufferPointer { target -> Int32 in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += room[0..<(room.count - Int(stream.avail_out))]
                if status == Z_STREAM_END { break }
                if status != Z_OK { violated("zlib refused the encoder's output of \(input.count) bytes (status \(status))") }
            }
            if stream.avail_in != 0 { violated("the encoder's gzip member has \(stream.avail_in) bytes after its end") }
        }
        if output != input { violated("the encoder's output of \(input.count) bytes inflates to other bytes") }
    }

    /// `[0x00, control, json…]` → the gzip form of `json`. `control`: bits 0–1 the number of
    /// members minus one (the text cut evenly), bits 2–3 the zlib level (1, 6, 9, 0 = stored),
    /// bit 7 the last byte dropped, bit 6 a stray byte appended.
    static func wrap(_ bytes: [UInt8]) -> ([UInt8], Form) {
        let control = bytes.count > 1 ? Int(bytes[1]) : 0
        let json = bytes.count > 2 ? Array(bytes[2...]) : []
        let members = 1 + control & 3
        let level: Int32 = [1, 6, 9, 0][control >> 2 & 3]
        var gzip: [UInt8] = []
        let step = max(1, (json.count + members - 1) / members)
        var start = 0
        repeat {
            let end = min(json.count, start + step)
            gzip += deflateMember(json[start..<end], level: level)
            start = end
        } while start < json.count
        var damaged = false
        if control & 0x80 != 0 {
            gzip.removeLast()
            damaged = true
        }
        if control & 0x40 != 0 {
            gzip.append(0x0A)  // never the ISIZE byte just dropped (0 below 16 MiB)
            damaged = true
        }
        return (gzip, damaged ? .damaged : .wrapped(json: json))
    }

    /// One gzip member of `input` (zlib, windowBits 31).
    static func deflateMember(_ input: ArraySlice<UInt8>, level: Int32) -> [UInt8] {
        var stream = z_stream()
        guard fuzz_deflateInit2(&stream, level) == Z_OK else { violated("zlib deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        let produced: Int = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { violated("zlib deflate failed") }
                return target.count - Int(stream.avail_out)
            }
        }
        output.removeLast(output.count - produced)
        return output
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
        // A mutated copy of the sample is often *inconsistent* with it: both clocks cover a
        // dot that one file holds and the other does not (say the same value under rev 3 in
        // one file and rev 4 in the other). Each file is valid alone and the merge keeps every
        // value (commutative, idempotent, valid), but absorption and associativity do not hold
        // for such pairs (Fuzz/regressions/README.md), so they are checked only for B and C.
        if let sample = Sample.document, sample.tripID == document.tripID {
            Properties.requireMergeLaws(document, sample, writer: document.deviceID, absorption: false, "document · sample")
            Properties.requireMergeLaws(b, sample, writer: sample.deviceID, absorption: false, "B · sample")
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
