import Foundation
import Testing

@testable import TripSyncCore

/// Issue 41's attacks by a hostile member or the folder's host, at the library's level: each
/// file is crafted here with the library's own signing and given to `Membership.accept`, the
/// pure core of sync (docs/DESIGN.md, "Successions are judged by who may sign them", "Limits
/// hold for the merged state"). Each test failed before the change it guards.
@Suite struct HostileMemberTests {
    let start: UInt64 = 1_764_000_000_000

    struct Device {
        var id: DeviceID
        var key: SigningKey
    }

    /// An owned trip: the owner device first, then one device for each of `roles`
    /// (`SuccessionTests.trip`, the one builder of such trips, at the same start).
    func trip(_ roles: [MemberRole]) throws -> (document: TripDocument, owner: SigningKey, devices: [Device]) {
        let (document, owner, devices) = try SuccessionTests().trip(roles)
        return (document, owner, devices.map { Device(id: $0.id, key: $0.key) })
    }

    /// `document` as `device` publishes it.
    static func file(_ document: TripDocument, as device: Device) -> TripDocument {
        var copy = document
        copy.deviceID = device.id
        return copy
    }

    /// A restored editor: the editor's home took a new id and key, kept its seat with a
    /// succession signed by the old key, and added an item.
    func restored(_ document: TripDocument, from old: Device) throws -> (file: TripDocument, device: Device) {
        let new = Device(id: Identifier.random(), key: SigningKey.generate())
        var file = Self.file(document, as: new)
        #expect(file.keepSeat(of: new.id, key: new.key.publicKey, former: [old.id], keys: [old.id: old.key]) == old.id)
        var hlc = HybridLogicalClock(highWater: file.clock.maxCounter)
        try file.addItem(Identifier.random(), NewItem(title: "From the restored laptop", sortKey: "V"), hlc: &hlc, now: start + 100)
        return (file, new)
    }

    /// A succession to `to` signed by `from`'s key for `key`, ground until its signature bytes
    /// sort above `rival` (what used to win a merge).
    static func ground(from: Device, to: DeviceID, key: PublicKey, trip: TripID, above rival: [UInt8]) -> Succession {
        while true {
            let attacker = SigningKey.generate()
            let succession = Succession(from: from.id, to: to, key: attacker.publicKey, trip: trip, signingKey: from.key)
            if rival.lexicographicallyPrecedes(succession.signature) { return succession }
            _ = key
        }
    }

    /// Finding 2: a viewer or a removed member signs a succession for a restored editor's new id
    /// (ground to sort higher) and publishes it, or an editor's file relays it: the restored
    /// editor stays an editor on every replica and its files are taken whole.
    @Test(arguments: [MemberRole.viewer, .removed])
    func aViewerOrRemovedDeviceCannotDemoteARestoredEditor(_ role: MemberRole) throws {
        let (document, _, devices) = try trip([.editor, role, .editor])
        let (old, hostile, relay) = (devices[1], devices[2], devices[3])
        let (restoredFile, new) = try restored(document, from: old)
        let real = try #require(restoredFile.successions[new.id])
        var hostileFile = Self.file(document, as: hostile)
        hostileFile.successions[new.id] = Self.ground(from: hostile, to: new.id, key: new.key.publicKey, trip: document.tripID, above: real.signature)
        // The hostile file alone, then relayed by an editor that had stored it.
        var relayFile = Self.file(document, as: relay)
        relayFile.successions[new.id] = hostileFile.successions[new.id]
        for inputs in [
            [(hostileFile, hostile.key.publicKey), (restoredFile, new.key.publicKey)],
            [(restoredFile, new.key.publicKey), (hostileFile, hostile.key.publicKey)],
            [(relayFile, relay.key.publicKey), (restoredFile, new.key.publicKey)],
        ] {
            let (merged, verdicts) = try Membership.accept(inputs.map { ($0.0, Optional($0.1)) }, into: document)
            #expect(merged.role(of: new.id) == .editor)
            #expect(merged.successions[new.id] == real)
            #expect(merged.items.values.contains { $0.title?.value == "From the restored laptop" })
            #expect(verdicts[inputs.firstIndex { $0.0.deviceID == new.id } ?? 0] == .whole)
        }
    }

    /// Finding 2: the folder's host, with no key, puts an unsigned file with a fake succession
    /// for the restored device (signature bytes that sort higher): the restored device's files
    /// are still taken.
    @Test func theFolderHostCannotMakeEveryoneSkipARestoredDevice() throws {
        let (document, _, devices) = try trip([.editor])
        let old = devices[1]
        let (restoredFile, new) = try restored(document, from: old)
        var host = Self.file(document, as: Device(id: Identifier.random(), key: SigningKey.generate()))
        let fake = SigningKey.generate().publicKey
        host.successions[new.id] = Succession(from: old.id, key: fake, signature: [UInt8](repeating: 0xFF, count: 64))
        // Relayed by the owner's own replica too (an old replica that had stored it).
        var local = document
        local.successions[new.id] = host.successions[new.id]
        for (into, inputs) in [
            (document, [(host, nil), (restoredFile, Optional(new.key.publicKey))]),
            (local, [(restoredFile, Optional(new.key.publicKey))]),
        ] {
            let (merged, verdicts) = try Membership.accept(inputs, into: into)
            #expect(verdicts.last == .whole)
            #expect(merged.role(of: new.id) == .editor)
            #expect(merged.items.values.contains { $0.title?.value == "From the restored laptop" })
        }
    }

    /// Finding 1: files that each stay within a reader's limits but together would take the
    /// merged state past one (two viewers' 6,000 successions each, two editors' 6,000 clock
    /// entries or successions each): the file that would is refused whole, naming its device,
    /// and the replica stays readable by every reader.
    @Test(arguments: ["viewer successions", "editor successions", "editor clock entries", "editor tombstones"])
    func theMergedStateStaysWithinTheLimits(_ attack: String) throws {
        let role: MemberRole = attack.hasPrefix("viewer") ? .viewer : .editor
        let (document, _, devices) = try trip([role, role])
        var files: [(TripDocument, PublicKey?)] = []
        for device in devices.dropFirst() {
            var file = Self.file(document, as: device)
            if attack.hasSuffix("tombstones") {
                // 55,000 tombstones each: 110,000 together, past the 100,000 a reader takes.
                var hlc = HybridLogicalClock(highWater: file.clock.maxCounter)
                for index in 0..<55_000 {
                    let id = Identifier.random()
                    let at = start + 100 + UInt64(index) * 2
                    try file.addItem(id, NewItem(title: "Gone", sortKey: "V"), hlc: &hlc, now: at)
                    try file.deleteItem(id, at: UTCTimestamp(millisecondsSinceEpoch: at), hlc: &hlc, now: at + 1)
                }
                files.append((file, device.key.publicKey))
                continue
            }
            for _ in 0..<6_000 {
                let id = Identifier.random()
                if attack.hasSuffix("successions") {
                    file.successions[id] = Succession(from: device.id, to: id, key: device.key.publicKey, trip: document.tripID, signingKey: device.key)
                } else {
                    file.clock[id] = 1
                }
            }
            files.append((file, device.key.publicKey))
        }
        let (merged, verdicts) = try Membership.accept(files, into: document)
        #expect(merged.limitProblem == nil)
        let reread = try TripFileReader().read(bytes: merged.canonicalJSON(), file: "replica")
        #expect(reread.document.successions.count == merged.successions.count)
        if role == .editor {
            #expect(verdicts.first == .whole)
            guard case .skipped(let reason, _) = verdicts.last else {
                Issue.record("the second file was taken: \(verdicts)")
                return
            }
            #expect(reason.contains(devices[2].id.description) && reason.contains("refused whole"), "\(reason)")
        }
    }

    /// Finding 4 at the library's level: a removed device's edit, new item and delete above the
    /// removal's `seen`, relayed inside an editor's file, are dropped from that file before the
    /// merge; the value the edit replaced comes back from the replica, the deleted item lives,
    /// the editor's own change is merged, and the result is valid.
    @Test func aRemovedDevicesLateWritesAreDroppedFromARelayingFile() throws {
        var (document, ownerKey, devices) = try trip([.editor, .editor])
        let (removed, relay) = (devices[1], devices[2])
        var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
        let kept = Identifier.random()
        let deleted = Identifier.random()
        try document.addItem(kept, NewItem(title: "Castle", sortKey: "V"), hlc: &hlc, now: start + 10)
        try document.addItem(deleted, NewItem(title: "Tram 28", sortKey: "W"), hlc: &hlc, now: start + 11)
        // What the removed device had written is in the replica when it is removed.
        var theirs = Self.file(document, as: removed)
        try document.grant(removed.id, key: removed.key.publicKey, role: .removed, ownerKey: ownerKey, hlc: &hlc, now: start + 20)
        let seen = try #require(document.members[removed.id]?.seen?[removed.id])
        var late = HybridLogicalClock(highWater: start + 30)
        try theirs.set(.title, of: kept, to: .text("Edited after removal"), hlc: &late, now: start + 30)
        try theirs.addItem(Identifier.random(), NewItem(title: "Added after removal", sortKey: "X"), hlc: &late, now: start + 31)
        try theirs.deleteItem(deleted, at: UTCTimestamp(millisecondsSinceEpoch: start + 32), hlc: &late, now: start + 32)
        // The relaying editor merged it, then wrote its own item.
        var relayed = try DocumentMerger.merge(Self.file(document, as: relay), theirs, writer: relay.id)
        var own = HybridLogicalClock(highWater: relayed.clock.maxCounter)
        try relayed.addItem(Identifier.random(), NewItem(title: "The editor's own", sortKey: "Y"), hlc: &own, now: start + 40)
        let (dropped, keptCount) = relayed.dropLateWrites([removed.id: seen], restoringFrom: document)
        #expect(dropped > 0 && keptCount == 0)
        let merged = try DocumentMerger.merge(document, relayed, writer: document.deviceID)
        let titles = Set(merged.items.values.compactMap { $0.title?.value })
        #expect(titles == ["Castle", "Tram 28", "The editor's own"], "\(titles)")
        #expect(merged.tombstones.isEmpty)
        let errors = DocumentValidator().issues(in: merged).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
        // The relaying editor's own replica, once it holds the removal, converges with it.
        var relayReplica = try DocumentMerger.merge(Self.file(document, as: relay), theirs, writer: relay.id)
        _ = relayReplica.dropLateWrites([removed.id: seen], restoringFrom: merged)
        let converged = try DocumentMerger.merge(relayReplica, merged, writer: relay.id)
        #expect(Set(converged.items.values.compactMap { $0.title?.value }) == titles)
    }
}
