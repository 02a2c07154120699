import Foundation
import TripSyncPlatform

/// Which zone ids a person may type: real IANA ids of this machine's tz database. Foundation
/// also accepts abbreviations and offsets (`PST`, `IST`, `GMT+1`) that are not zones (and
/// readers take them as known), so a typed id must also be a TZif file of the database
/// (`TZDIR`, else `/usr/share/zoneinfo` and the usual places), named exactly so.
package enum ZoneDatabase {
    /// Folders of the database that are not zones (`posix/`, `right/` copies, links).
    static let notZones: Set<String> = ["posix", "right", "localtime", "posixrules", "Factory"]

    /// Whether `id` is a zone a person may type: of IANA shape, known to this machine
    /// (`ZoneRules.isKnown`, what readers check) and a TZif file of the tz database under
    /// exactly that name. On a machine with no tz database folder, an id of the shape
    /// `Area/Location` (or `UTC`) that Foundation knows is accepted.
    package static func isTypeable(_ id: String) -> Bool {
        guard ZoneID.isWellFormed(id), ZoneRules.shared.isKnown(id) else { return false }
        let components = id.split(separator: "/").map(String.init)
        guard let first = components.first, !notZones.contains(first) else { return false }
        let folders = TZifAbbreviations.folders().filter { folder in
            var info = stat()
            return stat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
        guard !folders.isEmpty else { return id.contains("/") || id == "UTC" }
        return cache.answer(id) { folders.contains { isZoneFile(id, components: components, in: $0) } }
    }

    /// The folders a typed zone is looked up in, for messages.
    package static var folders: [String] { TZifAbbreviations.folders() }

    /// Whether `folder/id` is a TZif file whose every path component is spelled exactly so (a
    /// case-insensitive file system would otherwise take `europe/lisbon`).
    static func isZoneFile(_ id: String, components: [String], in folder: String) -> Bool {
        // A folder or file that cannot be read is not a zone this machine can vouch for: the
        // answer is "no", and the person is told the id is unknown here.
        var path = folder
        do {
            for component in components {
                guard try FileIO.folderHolds(path, name: component, what: "the time zone folder") else { return false }
                path += "/" + component
            }
            return TZifAbbreviations.parse(try FileIO.readFile(path, maxBytes: TZifAbbreviations.maxFileBytes)) != nil
        } catch {
            return false
        }
    }

    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var answers: [String: Bool] = [:]

        func answer(_ id: String, _ compute: () -> Bool) -> Bool {
            lock.lock()
            if let known = answers[id] {
                lock.unlock()
                return known
            }
            lock.unlock()
            let value = compute()
            lock.lock()
            if answers.count < 1_000 { answers[id] = value }
            lock.unlock()
            return value
        }
    }

    private static let cache = Cache()
}

extension ZoneRules {
    /// Rules shared by the editing API (their cache lives for the process).
    static let shared = ZoneRules()
}
