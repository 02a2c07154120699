import CSystem
import Foundation
import TripSyncPlatform
import TripSyncCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The local store of one installation (`--home`, `$TRIPSYNC_HOME`, default `~/.tripsync`):
/// `device.json` (identity and clock high-water mark) and `trips/<tripId>.trip.json.gz`.
package struct Home: Sendable {
    /// The folder.
    package var path: String
    /// Told the path of every replica and identity file read through this home (`readReplica`,
    /// `listTrips`, `openIdentity`): what a test counts (each is read once per sync).
    package var onRead: (@Sendable (String) -> Void)?

    /// A home at `path`.
    package init(path: String) {
        self.path = path
    }

    /// The home chosen by `--home`, else `$TRIPSYNC_HOME`, else `~/.tripsync`.
    package static func resolve(option: String?, environment: ProcessEnvironment = .process) -> Home {
        if let option { return Home(path: option) }
        if let env = environment["TRIPSYNC_HOME"], !env.isEmpty { return Home(path: env) }
        let base = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return Home(path: base + "/.tripsync")
    }

    /// `device.json`.
    package var identityPath: String { layout.identity }
    /// The folder of trip replicas.
    package var tripsPath: String { layout.trips }

    /// The identity, made on first use (a new random device id) and persisted durably.
    package func identity(defaultName: String? = nil) throws -> DeviceIdentity {
        try openIdentity(defaultName: defaultName).identity
    }

    /// The identity, made on first use, with a notice when it had to change: a home whose
    /// binding (real path, folder inode, machine id) differs from the one recorded was copied,
    /// moved or restored, so before anything is written it takes a new device id (the old one
    /// stays with the home it came from). A home whose clock ran more than 24 hours ahead of
    /// `now` (wrong, then fixed) takes a new id too. A home recorded before bindings existed is
    /// bound now.
    package func openIdentity(defaultName: String? = nil, now: UInt64 = FileMerger.wallClockMilliseconds()) throws -> (identity: DeviceIdentity, notice: String?) {
        var info = stat()
        guard lstat(identityPath, &info) == 0 else {
            guard errno == ENOENT else { throw FileIO.systemError(identityPath, "cannot look at this installation's identity") }
            let deviceID = DeviceID.random()
            let identity = DeviceIdentity(
                deviceID: deviceID, name: defaultName ?? Home.defaultDeviceName(host: ProcessInfo.processInfo.hostName, deviceID: deviceID),
                binding: try binding(creating: true))
            try save(identity)
            return (identity, nil)
        }
        onRead?(identityPath)
        let bytes = try FileIO.readFile(identityPath, maxBytes: 1 << 20)
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch let error as TripFileError {
            throw TripFileError(.notJSON, file: identityPath, issues: error.issues)
        }
        var identity = try DeviceIdentity(json: json, file: identityPath)
        // The counters issued since device.json was written (docs/DESIGN.md, "The counter ledger").
        try IssuedLedger(path: layout.issuedLedger).apply(to: &identity)
        // A clock that ran ahead (wrong, then fixed): nothing could be written under this id
        // again, so the home takes a new one now (`ForkCheck`, the one place that decides).
        let me = Set([identity.deviceID] + identity.formerIDs)
        let others = { [self] () -> UInt64 in
            // Read only when the high-water mark is far ahead (rare): the greatest counter of any
            // other device in this home's replicas; a replica that cannot be read shows nothing.
            let trips: [LoadedTrip]
            do {
                trips = try self.listTrips().trips
            } catch {
                return 0  // no replica to testify: the high-water mark decides alone, as before
            }
            return trips.flatMap { $0.document.clock.entries.filter { !me.contains($0.key) }.map(\.value) }.max() ?? 0
        }
        if let reason = ForkCheck.clockRanAhead(identity, now: now, others: others) {
            identity = identity.successor(binding: try binding() ?? identity.binding, clockRanAhead: true)
            try save(identity)
            let notice =
                "\(reason), so nothing could be written under that id any more: this laptop now writes as a new device \(identity.deviceID) and keeps its role in each trip (a succession signed by the old device key); what it typed while its clock was wrong is re-stamped at the right time and reaches the others from its next sync"
            return (identity, notice)
        }
        guard let current = try binding() else { return (identity, nil) }
        guard let recorded = identity.binding else {
            identity.binding = current
            try save(identity)
            return (identity, nil)
        }
        guard !current.matches(recorded) else {
            if recorded.born == nil && current.born != nil {
                // Recorded before birth times were: completed now, nothing changed.
                identity.binding = current
                try save(identity)
            }
            return (identity, nil)
        }
        let old = identity.deviceID
        identity = identity.successor(binding: current)
        try save(identity)
        let notice =
            "this home was copied, moved or restored (\(current.differences(from: recorded).joined(separator: ", "))), so it now writes as a new device \(identity.deviceID); device \(old) stays with the home it came from and is never written as here again, and this laptop keeps that device's role in each trip (a succession signed by its key)"
        return (identity, notice)
    }

    /// Whether this home has been made: its folder holds `device.json` (a mistyped `--home`, or
    /// a folder that is not a home, has none).
    package var exists: Bool {
        var info = stat()
        return lstat(identityPath, &info) == 0
    }

    /// Whether the home has been made, telling "not made" (false) from "cannot be looked at"
    /// (throws: the home folder, or one above it, is unreadable or not a folder), so an
    /// unreadable home is never taken for a missing one.
    package func checkExists() throws(FileSystemError) -> Bool {
        var info = stat()
        if lstat(identityPath, &info) == 0 { return true }
        let code = errno
        if code == ENOENT { return false }
        throw FileIO.accessError(path, code, what: "this home")
    }

    /// The name a new device takes when none is given: the host name and the device id's first
    /// four characters (`lisbon-mbp 3f2a`), so two laptops with the same host name differ.
    package static func defaultDeviceName(host: String, deviceID: DeviceID) -> String {
        let short = String(deviceID.description.prefix(4))
        let name = host.split(separator: ".").first.map(String.init) ?? ""
        return (name.isEmpty ? "laptop" : String(name.prefix(190))) + " " + short
    }

    /// Where this home lives now; nil when the home folder does not exist yet (unless
    /// `creating`, which makes it).
    func binding(creating: Bool = false) throws -> HomeBinding? {
        if creating { try FileIO.makeFolder(path) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw FileIO.systemError(path, "cannot look at the home folder")
        }
        guard let real = realpath(path, nil) else { throw FileIO.systemError(path, "cannot resolve the home folder's path") }
        defer { free(real) }
        var seconds: Int64 = 0
        var nanoseconds = 0
        let born = tripsync_birth_time(path, &seconds, &nanoseconds) == 0 && seconds > 0 ? "\(seconds).\(nanoseconds)" : nil
        return HomeBinding(
            path: String(cString: real), device: UInt64(info.st_dev), inode: UInt64(info.st_ino), machine: Home.machineID(), born: born)
    }

    /// `/etc/machine-id` (systemd, D-Bus); nil on a system without one.
    static func machineID() -> String? {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.readFile(path, maxBytes: 256)
            } catch {
                // Missing or unreadable: this system keeps no machine id there.
                continue
            }
            // Trimmed by index: Foundation's trimming bridges through NSString, and a chain of
            // lazy wrappers (reversed, drop(while:)) makes the runtime build their generic types
            // at first use; either is a cost every command paid at start (docs/PERFORMANCE.md,
            // "The replica view").
            func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
            var start = bytes.startIndex
            var end = bytes.endIndex
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            if !text.isEmpty { return text }
        }
        return nil
    }

    /// Writes the identity durably, creating the home when needed, then removes the counter
    /// ledger (its records are in the identity: it was opened with them, `openIdentity`).
    package func save(_ identity: DeviceIdentity) throws {
        try FileIO.makeFolder(tripsPath)
        try FileIO.writeAtomically(Array((identity.json.text + "\n").utf8), to: identityPath, mode: 0o600)
        do {
            try IssuedLedger(path: layout.issuedLedger).remove()
        } catch {
            throw FileSystemError(
                path: error.path, message: "the identity was saved in \(identityPath), but \(error.message) (it holds nothing device.json does not)",
                code: error.code, inPlace: true)
        }
    }

    /// Records durably the counters `identity` issued beyond `durable` (the identity as
    /// `device.json` and the ledger hold it), as the next records of the counter ledger
    /// instead of rewriting `device.json`. Nothing is written when there is nothing new; when
    /// more than counters changed, `device.json` is written whole. Returns whether the ledger
    /// is due to be folded (`IssuedLedger.foldRecords` records: `save` folds it).
    package func recordIssued(_ identity: DeviceIdentity, beyond durable: DeviceIdentity) throws -> Bool {
        guard identity.deviceID == durable.deviceID, identity.name == durable.name, identity.binding == durable.binding,
            identity.formerIDs == durable.formerIDs
        else {
            // More than counters changed: only device.json says that.
            try save(identity)
            return false
        }
        let fresh = identity.issued.ranges.filter { !durable.issued.containsAll($0) }
        guard !fresh.isEmpty || identity.highWater > durable.highWater else { return false }
        let entries = fresh.isEmpty
            ? [IssuedLedger.Entry(device: identity.deviceID, highWater: identity.highWater, range: nil)]
            : fresh.map { IssuedLedger.Entry(device: identity.deviceID, highWater: identity.highWater, range: $0) }
        return try IssuedLedger(path: layout.issuedLedger).append(entries) >= IssuedLedger.foldRecords
    }
}
