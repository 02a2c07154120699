import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncCore

/// Seeded random histories of an owned trip (issue 16): two owner laptops sharing the owner
/// key, editors, viewers, an outsider with no grant (admitted later, sometimes), a device that
/// claims the trip for another owner key; role changes and removals written with
/// `grant(...)`; viewers, removed devices and outsiders editing their own replicas; tampered,
/// forged, unsigned and impersonating files in the folder. Each replica publishes its signed
/// canonical JSON and syncs by reading the others' bytes (refused files skipped) and calling
/// `Membership.accept`, the pure core of `FolderSync`.
///
/// The reference: every local write is logged with what its writer had seen and what its own
/// replica said about its role at the time. Checked after every sync: the verdicts against an
/// independent reading of the rules; the result is valid; (b) every register version of a
/// file taken whole is in the result or replaced by a logged write that had seen it; grants
/// are the owner-signed winners; acks stay within the clock; provenance: a write of device W
/// is held by another replica only after some replica took a file of W whole ("escape"), and an
/// escape of a write W made while its own replica held no editing grant (viewer, removed, no
/// grant, other owner) needs an owner-signed editing grant newer than that (c); a file of a
/// removed device is never taken by a replica that holds the removal, and removed content
/// above the removal's `seen` arriving inside another member's file is reported (d). At the end,
/// after everyone read everyone three times: owners and editors converge (a), every other
/// replica of the trip holds at least their state, and no write of theirs is lost.
///
/// Restored homes (issue 25): a member's home is copied to a new laptop and the old one is
/// gone; the copy takes a new id and key and hands the old id's seat to it with a succession
/// signed by the old key. The reference resolves roles through successions on its own
/// (`referenceGrant`): a device's own grant decides, else the chain's old role; the restored
/// laptop's writes count as an editor's only when its seat allows, and none may vanish.
@Suite struct MembershipSimulationTests {
    /// One register: an item's field, or the trip name (item nil).
    typealias Key = RegisterSlot

    struct Dot: Hashable {
        var key: Key
        var rev: Rev
    }

    /// One local write in the reference log.
    struct Write {
        var key: Key
        var writer: Int
        /// The writer's clock before the write (the write replaces what this vector has seen).
        var seen: VersionVector
        /// The writer's own grant when it wrote (what its replica said).
        var writerGrant: MemberGrant?
        /// The owner key of the writer's replica.
        var writerOwner: PublicKey?
        /// Whether the writer's own replica allowed it to edit.
        var mayEdit: Bool
    }

    /// The register versions of a document.
    static func registers(_ document: TripDocument) -> [Key: Set<Rev>] {
        document.registerVersions()
    }

    struct Replica {
        var id: DeviceID
        var key: SigningKey
        var document: TripDocument
        var hlc = HybridLogicalClock()
        var wall: UInt64
    }

    /// Where a file given to a sync came from.
    enum Origin {
        /// A device's latest file, or an older one of it (a stale copy).
        case honest(Int)
        /// A file the reader must refuse; the pointer it must name ("" when any).
        case refused(String, what: String)
        /// A file the reader accepts and every replica must skip.
        case skipped(what: String)
    }

    struct Simulation {
        let seed: UInt64
        var random: SeededGenerator
        var replicas: [Replica] = []
        var index: [DeviceID: Int] = [:]
        var ownerKey: SigningKey
        var rogueKey: SigningKey
        var tripID: TripID
        /// Indices: 0 and 1 owner laptops, 2..<outsider members, then the outsider and the rogue.
        var outsider = 0
        var rogue = 0
        /// Which owner laptop changes each device's role (one per device, so no two grants of a
        /// device are concurrent and a removal stays final).
        var manager: [Int: Int] = [:]
        var removals: [Int: MemberGrant] = [:]
        /// The id each removal was written for (a restored home's new id inherits it).
        var removedIDs: [Int: DeviceID] = [:]
        /// Every device id's key, earlier ids of restored homes included.
        var keys: [DeviceID: PublicKey] = [:]
        var folder: [Int: [UInt8]] = [:]
        var history: [(device: Int, bytes: [UInt8])] = []
        var junk: [(bytes: [UInt8], origin: Origin)] = []
        var log: [Rev: Write] = [:]
        /// Writes taken out of their writer's replica by some replica taking its file whole.
        var escaped: Set<Rev> = []
        /// Per replica, every register version of every file it took whole.
        var accepted: [Int: Set<Dot>] = [:]
        /// Per replica, the devices whose files it took whole.
        var wholeFrom: [Int: Set<Int>] = [:]
        var valueCounter = 0
        var operations: [String: Int] = [:]
        var failures: [String] = []
        var stepCount = 0

        mutating func fail(_ message: String) {
            if failures.count < 4 { failures.append("seed \(seed) step \(stepCount): \(message.prefix(700))") }
        }

        mutating func newKey() -> SigningKey {
            SigningKey(seed: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })!
        }

        init(seed: UInt64) throws {
            self.seed = seed
            random = SeededGenerator(seed: seed)
            var generator = random
            func key() -> SigningKey { SigningKey(seed: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })! }
            ownerKey = key()
            rogueKey = key()
            random = generator
            // A trip claimed later (a random id): its owner is protected by stickiness alone, so the
            // rogue's claim for another key is a valid file in itself. For an id derived from the
            // owner key, the rogue's files are invalid (`/owner/key`) and never reach a merge.
            tripID = Identifier.random(using: &random)
            let count = Int.random(in: 6...8, using: &random)
            outsider = count - 2
            rogue = count - 1
            let start = UInt64(1_764_000_000_000)
            var keys_: [SigningKey] = []
            var ids: [DeviceID] = []
            for _ in 0..<count {
                keys_.append(newKey())
                ids.append(Identifier.random(using: &random))
            }
            for (position, id) in ids.enumerated() {
                index[id] = position
                keys[id] = keys_[position].publicKey
            }
            var hlc = HybridLogicalClock()
            hlc.observe(start)
            var first = TripDocument(
                tripID: tripID, deviceID: ids[0], clock: VersionVector(),
                trip: TripInfo(name: Register(value: "Trip", rev: Rev(counter: start, device: ids[0]))))
            first.clock.include(first.trip.name.rev)
            log[first.trip.name.rev] = Write(
                key: Key(item: nil, field: "name"), writer: 0, seen: VersionVector(), writerGrant: nil, writerOwner: nil, mayEdit: true)
            try first.claim(ownerKey: ownerKey, deviceKey: keys_[0].publicKey, hlc: &hlc, now: start + 1)
            try first.grant(ids[1], key: keys_[1].publicKey, role: .owner, ownerKey: ownerKey, hlc: &hlc, now: start + 2)
            for member in 2..<outsider {
                let role: MemberRole = Int.random(in: 0..<5, using: &random) < 3 ? .editor : .viewer
                try first.grant(ids[member], key: keys_[member].publicKey, role: role, ownerKey: ownerKey, hlc: &hlc, now: start + 3)
            }
            for device in 2...outsider { manager[device] = Int.random(in: 0...1, using: &random) }
            for device in 0..<count {
                var copy = first
                copy.deviceID = ids[device]
                replicas.append(Replica(id: ids[device], key: keys_[device], document: copy, wall: start + 10 + UInt64.random(in: 0...5_000, using: &random)))
            }
            replicas[0].hlc = hlc
            for _ in 0..<Int.random(in: 2...4, using: &random) { try add(0) }
            // Everyone starts from the owner's first file.
            for device in 1..<count {
                var copy = replicas[0].document
                copy.deviceID = ids[device]
                replicas[device].document = copy
            }
            for (_, revs) in MembershipSimulationTests.registers(replicas[0].document) { escaped.formUnion(revs) }
            // The rogue claims the same trip id for another owner key (a valid file in itself).
            let now = tick(rogue)
            var replica = replicas[rogue]
            try replica.document.claim(ownerKey: rogueKey, deviceKey: keys_[rogue].publicKey, hlc: &replica.hlc, now: now)
            replicas[rogue] = replica
            for device in 0..<count { publish(device) }
        }

        mutating func tick(_ device: Int) -> UInt64 {
            replicas[device].wall += UInt64.random(in: 1...2_000, using: &random)
            return replicas[device].wall
        }

        mutating func nextValue(_ prefix: String) -> String {
            valueCounter += 1
            if Int.random(in: 0..<8, using: &random) == 0 { return prefix + " same" }
            return "\(prefix) \(valueCounter)"
        }

        func mayEdit(_ document: TripDocument) -> Bool {
            document.owner?.key == ownerKey.publicKey && (referenceGrant(document.deviceID, local: document, all: [])?.role.mayEdit ?? false)
        }

        /// Logs every version the local write added (above the old clock).
        mutating func record(_ device: Int, before: TripDocument) {
            let after = replicas[device].document
            let grant = referenceGrant(before.deviceID, local: before, all: [])
            let may = mayEdit(before)
            for (key, revs) in MembershipSimulationTests.registers(after) {
                for rev in revs where !before.clock.sees(rev) {
                    if rev.device != after.deviceID { fail("a local write made a version of another device: \(rev)") }
                    log[rev] = Write(key: key, writer: device, seen: before.clock, writerGrant: grant, writerOwner: before.owner?.key, mayEdit: may)
                }
            }
            operations[may ? "edit by an editor" : "edit without the right", default: 0] += 1
        }

        mutating func add(_ device: Int) throws {
            let before = replicas[device].document
            let now = tick(device)
            var replica = replicas[device]
            try replica.document.addItem(
                Identifier.random(using: &random), NewItem(title: nextValue("title"), sortKey: "V", place: nextValue("place")),
                hlc: &replica.hlc, now: now)
            replicas[device] = replica
            record(device, before: before)
        }

        // MARK: Steps

        mutating func step() throws {
            stepCount += 1
            let device = Int.random(in: 0..<replicas.count, using: &random)
            let roll = Int.random(in: 0..<100, using: &random)
            let live = replicas[device].document.items.keys.sorted()
            let before = replicas[device].document
            switch roll {
            case 0..<22 where !live.isEmpty:
                let id = live[Int.random(in: 0..<live.count, using: &random)]
                let field = [ItemField.title, .place, .note][Int.random(in: 0..<3, using: &random)]
                let now = tick(device)
                var replica = replicas[device]
            try replica.document.set(field, of: id, to: .text(nextValue(field.rawValue)), hlc: &replica.hlc, now: now)
            replicas[device] = replica
                record(device, before: before)
            case 22..<28:
                try add(device)
            case 28..<31 where !live.isEmpty:
                let id = live[Int.random(in: 0..<live.count, using: &random)]
                let now = tick(device)
                var replica = replicas[device]
            try replica.document.deleteItem(
                    id, at: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), hlc: &replica.hlc, now: now)
            replicas[device] = replica
                record(device, before: before)
            case 31..<35:
                guard let (id, item) = replicas[device].document.items.first(where: { $0.value.title?.conflicts.isEmpty == false }),
                    let title = item.title
                else { return }
                let keep = title.versions[Int.random(in: 0..<title.versions.count, using: &random)].value
                let now = tick(device)
                var replica = replicas[device]
            try replica.document.set(.title, of: id, to: .text(keep), force: true, hlc: &replica.hlc, now: now)
            replicas[device] = replica
                record(device, before: before)
                operations["resolve", default: 0] += 1
            case 35..<45:
                try changeRole()
            case 55..<59:
                restoreHome()
            case 45..<55:
                makeJunk()
            default:
                try sync(device)
            }
        }

        /// An owner laptop changes a role it manages: editor, viewer, removed (final), or
        /// admits the outsider.
        mutating func changeRole() throws {
            let laptop = Int.random(in: 0...1, using: &random)
            let candidates = manager.filter { $0.value == laptop && removals[$0.key] == nil }.map(\.key).sorted()
            guard !candidates.isEmpty else { return }
            let target = candidates[Int.random(in: 0..<candidates.count, using: &random)]
            let current = replicas[laptop].document.members[replicas[target].id]?.role
            let roll = Int.random(in: 0..<100, using: &random)
            let role: MemberRole = current == nil ? (roll < 50 ? .editor : .viewer) : (roll < 45 ? .editor : roll < 85 ? .viewer : .removed)
            let now = tick(laptop)
            let clockBefore = replicas[laptop].document.clock
            var replica = replicas[laptop]
            try replica.document.grant(
                replicas[target].id, key: replicas[target].key.publicKey, role: role, ownerKey: ownerKey, hlc: &replica.hlc, now: now)
            replicas[laptop] = replica
            let grant = replicas[laptop].document.members[replicas[target].id]!
            if role == .removed {
                removals[target] = grant
                removedIDs[target] = replicas[target].id
            }
            if grant.seen != (role.mayEdit ? nil : clockBefore) || grant.role != role {
                fail("a \(role) grant's seen is not the owner's clock before the grant")
            }
            operations[current == nil ? "admit" : "role \(role.rawValue)", default: 0] += 1
            if Int.random(in: 0..<2, using: &random) == 0 { publish(laptop) }
        }

        /// A file nobody may take: tampered bytes, a forged grant, an unsigned member file, a
        /// file of a member signed by another device's key.
        mutating func makeJunk() {
            let sources = folder.keys.sorted()
            guard !sources.isEmpty else { return }
            let source = sources[Int.random(in: 0..<sources.count, using: &random)]
            let bytes = folder[source]!
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                var tampered = bytes
                let position = Int.random(in: 0..<tampered.count, using: &random)
                tampered[position] ^= UInt8.random(in: 1...255, using: &random)
                junk.append((tampered, .refused("", what: "byte \(position) of device \(source)'s file changed")))
                operations["tampered byte", default: 0] += 1
            case 1:
                // A letter of a value changed: still valid JSON and a valid document, only the
                // signature can tell.
                let values = replicas[source].document.items.values.compactMap { $0.title?.value }.sorted()
                guard let value = values.first, let range = Self.range(of: Array("\"\(value)\"".utf8), in: bytes) else { return }
                var tampered = bytes
                tampered[range.lowerBound + 1] ^= 0x20
                junk.append((tampered, .refused("/signature", what: "a title of device \(source)'s file changed")))
                operations["tampered title", default: 0] += 1
            case 2:
                // The writer grants a role with its own key (an editor admitting a device, a
                // viewer promoting itself, a removed device restoring itself).
                var forged = replicas[source].document
                guard forged.owner?.key == ownerKey.publicKey else { return }
                var hlc = replicas[source].hlc
                let target = Int.random(in: 0..<replicas.count, using: &random)
                guard let rev = try? forged.stamp(&hlc, now: replicas[source].wall + 1) else { return }
                forged.members[replicas[target].id] = MemberGrant(
                    device: replicas[target].id, key: replicas[target].key.publicKey, role: .editor, rev: rev, seen: nil, trip: tripID,
                    ownerKey: replicas[source].key)
                junk.append(
                    (forged.signedCanonicalJSON(signingKey: replicas[source].key), .refused("/members/\(replicas[target].id)/sig", what: "a grant forged by device \(source)")))
                operations["forged grant", default: 0] += 1
            case 3:
                guard replicas[source].document.owner != nil else { return }
                junk.append((replicas[source].document.canonicalJSON(), .skipped(what: "device \(source)'s file unsigned")))
                operations["unsigned", default: 0] += 1
            default:
                // The outsider writes a file under a member's device id, signed with its own key.
                var impersonation = replicas[outsider].document
                let target = Int.random(in: 0..<outsider, using: &random)
                impersonation.deviceID = replicas[target].id
                junk.append((impersonation.signedCanonicalJSON(signingKey: replicas[outsider].key), .skipped(what: "the outsider's file as device \(target)")))
                operations["impersonation", default: 0] += 1
            }
        }

        /// A member's home is copied to a new laptop (the old one is gone): the copy takes a new
        /// id and key and hands the old id's seat to it, signed by the old key.
        mutating func restoreHome() {
            let device = Int.random(in: 1..<outsider, using: &random)
            let old = replicas[device]
            let id = Identifier.random(using: &random)
            let key = newKey()
            var document = old.document
            document.deviceID = id
            let from = document.keepSeat(of: id, key: key.publicKey, former: [old.id], keys: [old.id: old.key])
            if from != nil, document.successions[id]?.isSigned(by: old.key.publicKey, trip: tripID, to: id) != true {
                fail("the succession to device \(device)'s new id is not signed by its old key")
            }
            replicas[device] = Replica(id: id, key: key, document: document, hlc: old.hlc, wall: old.wall)
            index[id] = device
            keys[id] = key.publicKey
            operations[from == nil ? "restored home without a seat" : "restored home", default: 0] += 1
            publish(device)
        }

        /// A device's grant by the rules, read from docs/DESIGN.md ("Succession"), not from the
        /// code: its own winning grant; else the succession to it (the greatest signature among
        /// the owner's documents) whose signature verifies with the key of the device it hands
        /// over from, that device's role inherited with the new key; chains of at most 16.
        func referenceGrant(_ device: DeviceID, local: TripDocument, all: [TripDocument], depth: Int = 0) -> MemberGrant? {
            if let own = winningGrant(device, local: local, all: all) { return own }
            guard depth < 16 else { return nil }
            var best: Succession?
            for document in [local] + all where document.owner?.key == local.owner?.key {
                if let succession = document.successions[device], best.map({ $0.signature.lexicographicallyPrecedes(succession.signature) }) ?? true {
                    best = succession
                }
            }
            guard let succession = best, succession.from != device,
                let old = referenceGrant(succession.from, local: local, all: all, depth: depth + 1),
                succession.isSigned(by: old.key, trip: tripID, to: device)
            else { return nil }
            return MemberGrant(key: succession.key, role: old.role, rev: old.rev, seen: old.seen, signature: old.signature)
        }

        static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
            guard needle.count <= haystack.count else { return nil }
            for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
                if Array(haystack[start..<(start + needle.count)]) == needle { return start..<(start + needle.count) }
            }
            return nil
        }

        /// The device publishes: its own acks entry, then its signed canonical JSON, which must
        /// read back as its document signed by its key.
        mutating func publish(_ device: Int) {
            replicas[device].document.acknowledgeOwnState()
            let bytes = replicas[device].document.signedCanonicalJSON(signingKey: replicas[device].key)
            switch readTrip(bytes) {
            case .success(let loaded):
                if loaded.signedBy != replicas[device].key.publicKey { fail("device \(device)'s file reads back signed by \(String(describing: loaded.signedBy))") }
                if loaded.document.canonicalJSON() != replicas[device].document.canonicalJSON() { fail("device \(device)'s file reads back as another document") }
            case .failure(let error):
                fail("device \(device)'s own signed file is refused: \(error)")
            }
            folder[device] = bytes
            history.append((device, bytes))
            operations["publish", default: 0] += 1
        }

        // MARK: Sync and its checks

        /// What the rules say a replica holding `local` takes from `input` in a sync of `all`:
        /// "whole", "acks" or "skip". Written from docs/FORMAT.md and DESIGN.md, not from the code.
        func expectedVerdict(local: TripDocument, all: [TripDocument], input: TripDocument, signer: PublicKey?) -> String {
            guard let owner = local.owner?.key else { return input.owner == nil ? "whole" : "skip" }
            guard input.owner?.key == owner else { return "skip" }
            guard let grant = referenceGrant(input.deviceID, local: local, all: all), let signer, signer == grant.key else { return "skip" }
            switch grant.role {
            case .removed: return "skip"
            case .viewer: return "acks"
            case .owner, .editor: return "whole"
            }
        }

        /// The grant of `device` with the greatest rev among the documents of the local owner.
        func winningGrant(_ device: DeviceID, local: TripDocument, all: [TripDocument]) -> MemberGrant? {
            var best: MemberGrant?
            for document in [local] + all where document.owner?.key == local.owner?.key {
                if let grant = document.members[device], best.map({ grant.rev > $0.rev }) ?? true { best = grant }
            }
            return best
        }

        mutating func sync(_ device: Int, everything: Bool = false) throws {
            var files: [(bytes: [UInt8], origin: Origin)] = []
            for source in folder.keys.sorted() where source != device {
                if everything || Int.random(in: 0..<2, using: &random) == 0 { files.append((folder[source]!, .honest(source))) }
            }
            if !everything {
                if !history.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
                    let stale = history[Int.random(in: 0..<history.count, using: &random)]
                    if stale.device != device { files.append((stale.bytes, .honest(stale.device))) }
                }
                if !junk.isEmpty, Int.random(in: 0..<2, using: &random) == 0 {
                    files.append(junk[Int.random(in: 0..<junk.count, using: &random)])
                }
                files.shuffle(using: &random)
            }
            var inputs: [(document: TripDocument, signer: PublicKey?, origin: Origin)] = []
            for file in files {
                let result = readTrip(file.bytes)
                switch (file.origin, result) {
                case (.honest(let source), .success(let loaded)):
                    if loaded.signedBy != keys[loaded.document.deviceID] || index[loaded.document.deviceID] != source {
                        fail("device \(source)'s file is not seen as signed by its key")
                    }
                    inputs.append((loaded.document, loaded.signedBy, file.origin))
                case (.honest(let source), .failure(let error)):
                    fail("an honest file of device \(source) is refused: \(error)")
                case (.refused(let pointer, let what), .failure(let error)):
                    if !pointer.isEmpty, !error.errors.contains(where: { $0.pointer == pointer }) {
                        fail("\(what): refused at \(error.errors.map(\.pointer)), expected \(pointer)")
                    }
                    operations["refused by the reader", default: 0] += 1
                case (.refused(_, let what), .success):
                    fail("\(what): the reader accepted it")
                case (.skipped(let what), .failure(let error)):
                    fail("\(what): the reader refused it (\(error)), expected a valid file that sync skips")
                case (.skipped, .success(let loaded)):
                    inputs.append((loaded.document, loaded.signedBy, file.origin))
                }
            }
            let before = replicas[device].document
            let documents = inputs.map(\.document)
            let (result, verdicts) = try Membership.accept(inputs.map { ($0.document, $0.signer) }, into: before)
            let membership = Membership(local: before, trusted: nil, inputs: documents)
            let resultRegisters = MembershipSimulationTests.registers(result)
            let beforeRegisters = MembershipSimulationTests.registers(before)

            // The verdicts are the rules'.
            for (input, verdict) in zip(inputs, verdicts) {
                let expected = expectedVerdict(local: before, all: documents, input: input.document, signer: input.signer)
                let actual: String
                switch verdict {
                case .whole: actual = "whole"
                case .acksOnly: actual = "acks"
                case .skipped: actual = "skip"
                }
                if actual != expected { fail("device \(device) took \(actual) of \(input.origin), the rules say \(expected)") }
                if case .skipped(let what) = input.origin, actual != "skip" { fail("\(what): taken (\(actual))") }
                operations["verdict \(actual)", default: 0] += 1
            }

            // The result is a valid document that publishes (checked in publish).
            let errors = DocumentValidator().issues(in: result).filter { $0.severity == .error }
            if !errors.isEmpty { fail("device \(device)'s document after the sync is invalid: \(errors.prefix(3))") }

            for (input, verdict) in zip(inputs, verdicts) {
                let writer = index[input.document.deviceID]!
                switch verdict {
                case .whole:
                    wholeFrom[device, default: []].insert(writer)
                    // (b) Nothing of a file taken whole is lost.
                    for (key, revs) in MembershipSimulationTests.registers(input.document) {
                        let held = resultRegisters[key] ?? []
                        for rev in revs {
                            accepted[device, default: []].insert(Dot(key: key, rev: rev))
                            if held.contains(rev) { continue }
                            if !held.contains(where: { log[$0]?.seen.sees(rev) == true }) {
                                fail("device \(device) lost \(rev) at \(key) of device \(writer)'s file (holds \(held))")
                            }
                        }
                        // Escapes: the writer's own versions leave its replica here.
                        // (A restored home's file also carries its earlier ids' writes.)
                        for rev in revs where index[rev.device] == writer && !escaped.contains(rev) {
                            guard let write = log[rev] else {
                                fail("a version \(rev) nobody logged")
                                continue
                            }
                            if !write.mayEdit {
                                let grant = referenceGrant(input.document.deviceID, local: before, all: documents)
                                let newer = write.writerGrant.map { old in (grant?.rev ?? old.rev) > old.rev } ?? true
                                if write.writerOwner != ownerKey.publicKey || grant?.role.mayEdit != true || !newer {
                                    fail("device \(device) took \(rev), written by device \(writer) without the right to edit (\(write.writerGrant?.role.rawValue ?? "no grant")), now \(grant?.role.rawValue ?? "no grant")")
                                }
                                operations["edit taken after a promotion", default: 0] += 1
                            }
                            escaped.insert(rev)
                        }
                    }
                case .acksOnly:
                    // The viewer's own acks, within the clock.
                    let ack = input.document.acks[input.document.deviceID] ?? VersionVector()
                    let taken = result.acks[input.document.deviceID] ?? VersionVector()
                    for (entry, counter) in ack.entries where taken[entry] < min(counter, result.clock[entry]) {
                        fail("device \(device) did not take viewer \(writer)'s ack \(entry): \(counter)")
                    }
                case .skipped: break
                }
            }
            // Acks never claim more than the document holds.
            for (who, ack) in result.acks where !result.clock.covers(ack) {
                fail("device \(device)'s acks of \(who) exceed its clock")
            }
            // Provenance, and so (c): another device's version is here only once it escaped.
            for (key, revs) in resultRegisters {
                // (A restored home's earlier ids are its own.)
                for rev in revs where index[rev.device] != device && !escaped.contains(rev) {
                    fail("device \(device) holds \(rev) at \(key), never taken from its writer's file (\(log[rev].map { "written \($0.mayEdit ? "with" : "without") the right" } ?? "unlogged"))")
                }
            }
            // Grants: the owner-signed winner of every input of the local owner, among those the
            // result's clock accounts for (a grant newer than what was merged is not stored).
            if before.owner != nil {
                let covered = documents.map { document in
                    var copy = document
                    copy.members = document.members.filter { result.clock.sees($0.value.rev) && ($0.value.seen.map(result.clock.covers) ?? true) }
                    return copy
                }
                for id in Set(documents.flatMap { $0.members.keys }).union(before.members.keys) {
                    let expected = winningGrant(id, local: before, all: covered)
                    if result.members[id]?.rev != expected?.rev { fail("device \(device) holds grant \(String(describing: result.members[id]?.rev)) for \(id), expected \(String(describing: expected?.rev))") }
                }
            }
            // (d) Removals.
            for (removed, removal) in removals where removed != device {
                guard let id = removedIDs[removed] else { continue }
                let holdsBefore = before.members[id].map { $0.rev >= removal.rev } ?? false
                let holds = holdsBefore || documents.contains { $0.owner?.key == ownerKey.publicKey && ($0.members[id]?.rev ?? Rev(counter: 0, device: id)) >= removal.rev }
                guard holds, before.owner?.key == ownerKey.publicKey else { continue }
                let seen = removal.seen?[id] ?? 0
                var allowed = Set((beforeRegisters.values.flatMap { $0 }).filter { $0.device == id })
                for (input, verdict) in zip(inputs, verdicts) {
                    if input.document.deviceID == id {
                        if !Self.isSkipped(verdict) { fail("device \(device) holds the removal of \(removed) yet took its file") }
                        operations["removed device's file skipped", default: 0] += 1
                        continue
                    }
                    guard verdict == .whole else { continue }
                    let carried = MembershipSimulationTests.registers(input.document).values.flatMap { $0 }.filter { $0.device == id }
                    allowed.formUnion(carried)
                    if carried.contains(where: { $0.counter > seen }) {
                        operations["removed content in another file", default: 0] += 1
                        if !membership.removedContent(in: input.document).contains(where: { $0.device == id }) {
                            fail("device \(device) took removed device \(removed)'s content above the removal inside device \(index[input.document.deviceID]!)'s file without reporting it")
                        }
                    }
                }
                if holdsBefore {
                    for rev in resultRegisters.values.flatMap({ $0 }) where rev.device == id && !allowed.contains(rev) {
                        fail("device \(device) holds the removal of \(removed) and gained its \(rev) from its own file")
                    }
                }
            }
            replicas[device].document = result
            publish(device)
        }

        static func isSkipped(_ verdict: Membership.Verdict) -> Bool {
            if case .skipped = verdict { return true }
            return false
        }

        // MARK: The end

        mutating func exchangeEverything() throws {
            for _ in 0..<3 {
                for device in replicas.indices { try sync(device, everything: true) }
            }
        }

        mutating func checkTheEnd() throws {
            let members = replicas[0].document.members
            let seats = replicas[0].document
            let editors = Set(replicas.indices.filter { seats.role(of: replicas[$0].id)?.mayEdit == true })
            let trip = replicas.indices.filter { $0 != rogue }
            // Every replica of the trip holds the same grants.
            for device in trip where replicas[device].document.members != members || replicas[device].document.successions != seats.successions {
                fail("device \(device)'s grants or successions differ from the owner laptop's after exchanging everything")
            }
            // (a) Owners and editors converge.
            let fingerprints = Set(editors.map { replicas[$0].document.fingerprint })
            if fingerprints.count != 1 { fail("owners and editors \(editors.sorted()) diverged: \(fingerprints.count) states") }
            let reference = replicas[0].document
            let held = MembershipSimulationTests.registers(reference)
            // Viewers, removed devices and the outsider hold at least that state; what they
            // hold beyond it was written by devices that may not edit now.
            for device in trip where !editors.contains(device) {
                let document = replicas[device].document
                let merged = try DocumentMerger.merge(document, reference, writer: document.deviceID)
                if merged.fingerprint != document.fingerprint { fail("device \(device) (\(seats.role(of: replicas[device].id)?.rawValue ?? "no grant")) lacks part of the editors' state") }
                for (key, revs) in MembershipSimulationTests.registers(document) {
                    for rev in revs where !(held[key]?.contains(rev) ?? false) && editors.contains(index[rev.device]!) {
                        fail("device \(device) holds \(rev) of editor \(index[rev.device]!) that the editors do not")
                    }
                }
                if !document.items.isEmpty, document.fingerprint != reference.fingerprint { operations["replica kept its own edits", default: 0] += 1 }
            }
            // (b) No write of an owner or editor, and nothing an editor took whole, is lost.
            var dots: [Dot] = editors.flatMap { accepted[$0] ?? [] }
            dots += log.filter { editors.contains($0.value.writer) }.map { Dot(key: $0.value.key, rev: $0.key) }
            for dot in Set(dots) where !(held[dot.key]?.contains(dot.rev) ?? false) {
                if !(held[dot.key] ?? []).contains(where: { log[$0]?.seen.sees(dot.rev) == true }) {
                    fail("\(dot.rev) at \(dot.key) is lost")
                }
            }
            // The rogue's writes reach no replica of the trip.
            for device in trip {
                let foreign = MembershipSimulationTests.registers(replicas[device].document).values.flatMap { $0 }.filter { $0.device == replicas[rogue].id }
                if !foreign.isEmpty { fail("device \(device) holds writes of the device that claimed another owner") }
            }
        }
    }

    static let histories = ProcessInfo.processInfo.environment["TRIPSYNC_MEMBER_SIM_HISTORIES"].flatMap(Int.init) ?? 4

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomHistoriesWithMembersConvergeAndLoseNothing(seed: UInt64) throws {
        var totals: [String: Int] = [:]
        for history in 0..<UInt64(Self.histories) {
            var simulation = try Simulation(seed: seed &* 1_000 &+ history)
            let steps = Int.random(in: 40...110, using: &simulation.random)
            for _ in 0..<steps { try simulation.step() }
            try simulation.exchangeEverything()
            try simulation.checkTheEnd()
            #expect(simulation.failures.isEmpty, "\(simulation.failures.joined(separator: "\n"))")
            if !simulation.failures.isEmpty { return }
            for (name, count) in simulation.operations { totals[name, default: 0] += count }
        }
        // The histories exercised every kind of event.
        for name in [
            "edit by an editor", "edit without the right", "admit", "role editor", "role viewer", "tampered byte", "tampered title",
            "forged grant", "unsigned", "impersonation", "refused by the reader", "verdict whole", "verdict acks", "verdict skip",
            "restored home",
        ] {
            #expect(totals[name, default: 0] > 0, "seed \(seed): no \(name) in \(Self.histories) histories (\(totals))")
        }
    }
}
