import Foundation
import TripSyncPlatform

/// Zone abbreviations ("WEST", "EDT", "IST") from the system's time zone files (TZif,
/// RFC 8536). Foundation on Linux answers "GMT+1" for every zone, so the itinerary and the
/// iCalendar export read the abbreviation the zone's own rules give. The files are read as
/// untrusted: sizes checked, every index bounds-checked, anything odd gives nil.
package struct TZifAbbreviations: Sendable {
    /// One local time type: offset, daylight saving, abbreviation.
    struct LocalTimeType: Sendable {
        var utcOffset: Int
        var isDaylight: Bool
        var abbreviation: String
    }

    /// Transition instants (seconds since 1970), ascending.
    let transitions: [Int64]
    /// The type in force from each transition on.
    let typeIndices: [Int]
    /// The types; type 0 is in force before the first transition.
    let types: [LocalTimeType]

    /// The folders searched for a zone's file: `TZDIR` first when set, then the usual places.
    static func folders(environment: ProcessEnvironment = .process) -> [String] {
        var result: [String] = []
        if let custom = environment["TZDIR"], !custom.isEmpty { result.append(custom) }
        result += ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo", "/usr/lib/zoneinfo"]
        return result
    }

    /// The largest zone file read (real ones are a few kilobytes).
    static let maxFileBytes = 1 << 20

    /// Loads the rules of a zone id of IANA shape from the first folder that has it; nil when
    /// none does or the file is not a valid TZif file.
    package static func load(zone id: String) -> TZifAbbreviations? {
        guard ZoneID.isWellFormed(id) else { return nil }  // no "..", no absolute paths
        for folder in folders() {
            if let bytes = try? FileIO.readFile(folder + "/" + id, maxBytes: maxFileBytes) {
                return TZifAbbreviations(bytes)
            }
        }
        return nil
    }

    /// `load`, remembered per zone id for the life of the process (zone files do not change
    /// under a running command).
    package static func cached(zone id: String) -> TZifAbbreviations? {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let known = cache.tables[id] { return known }
        let table = cache.tables.count < 1_000 ? load(zone: id) : nil
        cache.tables[id] = table
        return table
    }

    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var tables: [String: TZifAbbreviations?] = [:]
    }

    private static let cache = Cache()

    /// Parses TZif bytes (version 1, or the 64-bit block of versions 2 and later); nil when they
    /// are not a valid TZif file.
    package static func parse(_ bytes: [UInt8]) -> TZifAbbreviations? { TZifAbbreviations(bytes) }

    init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var block = header
        var timeSize = 4
        if header.version >= 2 {
            // Skip the 32-bit block; the 64-bit one follows with its own header.
            guard reader.skip(header.v1BlockSize), let second = reader.header(), second.version >= 2 else { return nil }
            block = second
            timeSize = 8
        }
        guard block.typeCount >= 1, block.typeCount <= 256, block.charCount >= 1, block.timeCount <= 100_000 else { return nil }
        var transitions: [Int64] = []
        transitions.reserveCapacity(block.timeCount)
        for _ in 0..<block.timeCount {
            guard let time = timeSize == 8 ? reader.int64() : reader.int32().map(Int64.init) else { return nil }
            if let last = transitions.last, time <= last { return nil }
            transitions.append(time)
        }
        var typeIndices: [Int] = []
        typeIndices.reserveCapacity(block.timeCount)
        for _ in 0..<block.timeCount {
            guard let index = reader.byte(), Int(index) < block.typeCount else { return nil }
            typeIndices.append(Int(index))
        }
        var raw: [(offset: Int, isDaylight: Bool, designation: Int)] = []
        for _ in 0..<block.typeCount {
            guard let offset = reader.int32(), let daylight = reader.byte(), daylight <= 1, let designation = reader.byte(),
                Int(designation) < block.charCount, offset > -90_000, offset < 90_000
            else { return nil }
            raw.append((Int(offset), daylight == 1, Int(designation)))
        }
        guard let slice = reader.take(block.charCount) else { return nil }
        let characters = Array(slice)  // indexed from 0
        var types: [LocalTimeType] = []
        for entry in raw {
            let tail = characters[entry.designation...]
            let name = tail.prefix { $0 != 0 }
            guard name.count < tail.count, name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            types.append(LocalTimeType(utcOffset: entry.offset, isDaylight: entry.isDaylight, abbreviation: String(decoding: name, as: UTF8.self)))
        }
        self.transitions = transitions
        self.typeIndices = typeIndices
        self.types = types
    }

    /// The abbreviation at an instant whose offset and daylight flag are known (from the zone
    /// rules): the type in force when the instant lies within the file's transitions; past the
    /// last one (files may stop listing them), the latest type with that offset and flag.
    /// Nil when none fits, or when the zone has only a numeric name ("+04", "-03").
    package func abbreviation(atSecondsSinceEpoch instant: Int64, utcOffset: Int, isDaylight: Bool) -> String? {
        var found: LocalTimeType?
        if let last = transitions.last, instant < last {
            // The last transition at or before the instant (type 0 before the first).
            var low = 0
            var high = transitions.count
            while low < high {
                let middle = (low + high) / 2
                if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
            }
            let type = low == 0 ? types[0] : types[typeIndices[low - 1]]
            if type.utcOffset == utcOffset { found = type }
        }
        if found == nil {
            for index in typeIndices.indices.reversed() {
                let type = types[typeIndices[index]]
                if type.utcOffset == utcOffset && type.isDaylight == isDaylight {
                    found = type
                    break
                }
            }
        }
        if found == nil, transitions.isEmpty, types[0].utcOffset == utcOffset { found = types[0] }
        guard let name = found?.abbreviation, name.count >= 2,
            name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) })
        else { return nil }
        return name
    }

    /// Big-endian reads that never run past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        struct Header {
            var version: Int
            var isUTCCount: Int
            var isStandardCount: Int
            var leapCount: Int
            var timeCount: Int
            var typeCount: Int
            var charCount: Int

            /// The size of the version 1 data block after this header.
            var v1BlockSize: Int {
                timeCount * 5 + typeCount * 6 + charCount + leapCount * 8 + isStandardCount + isUTCCount
            }
        }

        mutating func header() -> Header? {
            guard let magic = take(4), magic.elementsEqual("TZif".utf8), let versionByte = byte(), skip(15) else { return nil }
            let version: Int
            switch versionByte {
            case 0: version = 1
            case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
            default: return nil
            }
            var counts: [Int] = []
            for _ in 0..<6 {
                guard let count = int32(), count >= 0, count <= 1_000_000 else { return nil }
                counts.append(Int(count))
            }
            return Header(
                version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func skip(_ count: Int) -> Bool { take(count) != nil }

        mutating func byte() -> UInt8? { take(1)?.first }

        mutating func int32() -> Int32? {
            guard let slice = take(4) else { return nil }
            return Int32(bitPattern: slice.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }

        mutating func int64() -> Int64? {
            guard let slice = take(8) else { return nil }
            return Int64(bitPattern: slice.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
    }
}
