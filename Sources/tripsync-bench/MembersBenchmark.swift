import Foundation
import TripSync
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// `tripsync-bench members [--files N] [--successions N] [--requests N] [--repeat R]`: issue 41's
/// cost findings. An owned trip on an owner's home with a viewer; each case puts hostile files
/// into the trip folder and times the owner's syncs, next to the same syncs with one plain
/// viewer file of the hostile files' total size:
/// - `chain`: the viewer's file with N successions chained 16 deep (each link signed by the key
///   before it);
/// - `strangers`: N files signed by random non-member keys;
/// - `requests`: N join requests answering one invite.
/// "Later" is a sync after an editor's file changed, once the first sync's grants are settled
/// (what made every later sync re-verify every chain, or re-read every skipped file, before).
/// Prints the medians, the ratio to the plain case, and how many notice lines the owner saw.
enum MembersBenchmark {
    static let usage = "usage: tripsync-bench members [--files N] [--successions N] [--requests N] [--repeat R]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var files = 10_000
        var successions = 10_000
        var requests = 10_000
        var repeats = 3
        while let option = parser.nextOption() {
            switch option {
            case "--files": files = try parser.positiveInt(for: option)
            case "--successions": successions = try parser.positiveInt(for: option)
            case "--requests": requests = try parser.positiveInt(for: option)
            case "--repeat": repeats = try parser.positiveInt(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        print("case          first sync ms   plain ms   ratio   later sync ms   plain ms   ratio   notices (first, later)")
        for kind in Case.allCases {
            var first: [Double] = []
            var later: [Double] = []
            var plainFirst: [Double] = []
            var plainLater: [Double] = []
            var notices = (0, 0)
            for _ in 0..<repeats {
                let hostile = try Setup(kind: kind, count: kind == .chain ? successions : kind == .strangers ? files : requests, plain: false)
                let (f, l, n) = try hostile.measure()
                first.append(f)
                later.append(l)
                notices = n
                let plain = try Setup(kind: kind, count: 0, plain: true, bytes: hostile.hostileBytes)
                let (pf, pl, _) = try plain.measure()
                plainFirst.append(pf)
                plainLater.append(pl)
                hostile.remove()
                plain.remove()
            }
            let (fm, lm, pfm, plm) = (Stats.median(first), Stats.median(later), Stats.median(plainFirst), Stats.median(plainLater))
            print(
                kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + Stats.format(fm * 1000).padded(16) + Stats.format(pfm * 1000).padded(11)
                    + Stats.format(fm / max(pfm, 1e-9), decimals: 2).padded(8) + Stats.format(lm * 1000).padded(16) + Stats.format(plm * 1000).padded(11)
                    + Stats.format(lm / max(plm, 1e-9), decimals: 2).padded(8) + "   \(notices.0), \(notices.1)")
        }
        print("medians of \(repeats) runs; \(successions) successions, \(files) stranger files, \(requests) join requests")
    }

    enum Case: String, CaseIterable {
        case chain, strangers, requests
    }

    /// An owner's home, a viewer, an editor and a trip folder holding one case's files.
    struct Setup {
        let root: String
        let home: Home
        let folder: String
        let tripFolder: String
        let editorPath: String
        let editorKey: SigningKey
        var editorDocument: TripDocument
        var hostileBytes = 0

        init(kind: Case, count: Int, plain: Bool, bytes: Int = 0) throws {
            let root = NSTemporaryDirectory() + "tripsync-members-bench-\(UInt32.random(in: 0...UInt32.max))"
            self.root = root
            let home = Home(path: root + "/owner")
            self.home = home
            folder = root + "/shared"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = try home.identity(defaultName: "Owner")
            // Each store is released (with the home's lock) before the next step.
            let (invite, tripID): (InviteCode, TripID) = try {
                let store = try TripStore.create(name: "Bench", in: home)
                try store.edit { trip in _ = try trip.addItem(NewItem(title: "Fado", sortKey: ""), at: .last) }
                return (try store.invite(role: .viewer), store.tripID)
            }()
            let ownerKey = try TripAccess.load(home, tripID).ownerKey.orThrow("no owner key")
            var document = try { try TripStore.open(trip: tripID, in: home).document }()
            var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
            let now = max(FileMerger.wallClockMilliseconds(), document.clock.maxCounter + 1)
            let viewer = (id: Identifier.random(), key: SigningKey.generate())
            let editor = (id: Identifier.random(), key: SigningKey.generate())
            try document.grant(viewer.id, key: viewer.key.publicKey, role: .viewer, ownerKey: ownerKey, hlc: &hlc, now: now)
            try document.grant(editor.id, key: editor.key.publicKey, role: .editor, ownerKey: ownerKey, hlc: &hlc, now: now + 1)
            tripFolder = folder + "/\(tripID)"
            try FileManager.default.createDirectory(atPath: tripFolder, withIntermediateDirectories: true)
            // The owner's file carries the grants; the editor's file is the one that changes.
            var owner = document
            owner.deviceID = try home.identity(defaultName: "Owner").deviceID
            try Self.put(try owner.signedGzipData(signingKey: try home.signingKey(for: owner.deviceID)), to: tripFolder + "/\(owner.deviceID).trip.json.gz")
            editorDocument = document
            editorDocument.deviceID = editor.id
            editorKey = editor.key
            editorPath = tripFolder + "/\(editor.id).trip.json.gz"
            try Self.put(try editorDocument.signedGzipData(signingKey: editor.key), to: editorPath)
            var viewerFile = document
            viewerFile.deviceID = viewer.id
            if plain {
                // A plain viewer file of the hostile files' size: items.
                var items = HybridLogicalClock(highWater: viewerFile.clock.maxCounter)
                var index = 0
                var writer = viewerFile
                writer.deviceID = editor.id
                // Items until the JSON is about `bytes` long (measured once, on the first 500).
                let empty = writer.canonicalJSON().count
                var target = 500
                while index < target {
                    try writer.addItem(Identifier.random(), NewItem(title: "Plain item \(index)", sortKey: "V\(index)V"), hlc: &items, now: now + 10 + UInt64(index))
                    index += 1
                    if index == 500 {
                        let perItem = max(1, (writer.canonicalJSON().count - empty) / 500)
                        target = min(100_000, max(500, (bytes - empty) / perItem))
                    }
                }
                viewerFile = writer
                viewerFile.deviceID = viewer.id
                try Self.put(try viewerFile.signedGzipData(signingKey: viewer.key), to: tripFolder + "/\(viewer.id).trip.json.gz")
                return
            }
            switch kind {
            case .chain:
                // Chains of 16 links from the viewer's seat, each signed by the key before it.
                var made = 0
                while made < count {
                    var from = (id: viewer.id, key: viewer.key)
                    for _ in 0..<16 where made < count {
                        let next = (id: Identifier.random(), key: SigningKey.generate())
                        viewerFile.successions[next.id] = Succession(from: from.id, to: next.id, key: next.key.publicKey, trip: tripID, signingKey: from.key)
                        from = next
                        made += 1
                    }
                }
                let bytes = try viewerFile.signedGzipData(signingKey: viewer.key)
                hostileBytes = viewerFile.canonicalJSON().count
                try Self.put(bytes, to: tripFolder + "/\(viewer.id).trip.json.gz")
            case .strangers:
                var stranger = document
                for index in 0..<count {
                    stranger.deviceID = Identifier.random()
                    let key = SigningKey.generate()
                    let bytes = try stranger.signedGzipData(signingKey: key)
                    if index == 0 { hostileBytes = stranger.canonicalJSON().count * count }
                    try Self.put(bytes, to: tripFolder + "/\(stranger.deviceID).trip.json.gz")
                }
            case .requests:
                for index in 0..<count {
                    let device = Identifier.random()
                    let request = JoinRequest(code: invite, device: device, name: "Stranger \(index)", deviceKey: SigningKey.generate(), at: .now)
                    if index == 0 { hostileBytes = request.fileBytes.count * count }
                    try Self.put(request.fileBytes, to: tripFolder + "/\(JoinRequest.fileName(for: device))")
                }
            }
        }

        /// The owner's first sync, then (after the editor's file changed) a later one: seconds,
        /// and the notice and skip lines each printed.
        func measure() throws -> (Double, Double, (Int, Int)) {
            var report: SyncReport?
            let first = Stats.seconds(try ContinuousClock().measure { report = try FolderSync(home: home, folder: folder).run() })
            let firstNotices = (report?.trips.flatMap(\.notices).count ?? 0) + (report?.skipped.count ?? 0)
            // The grants the first sync adopted change the replica's membership, so skips decided
            // before are decided once more: one untimed sync settles that, as a second sync would.
            _ = try FolderSync(home: home, folder: folder).run()
            var changed = editorDocument
            var hlc = HybridLogicalClock(highWater: changed.clock.maxCounter)
            try changed.addItem(Identifier.random(), NewItem(title: "Changed", sortKey: "Z"), hlc: &hlc, now: max(FileMerger.wallClockMilliseconds(), changed.clock.maxCounter + 1))
            try Self.put(try changed.signedGzipData(signingKey: editorKey), to: editorPath)
            let later = Stats.seconds(try ContinuousClock().measure { report = try FolderSync(home: home, folder: folder).run() })
            let laterNotices = (report?.trips.flatMap(\.notices).count ?? 0) + (report?.skipped.count ?? 0)
            return (first, later, (firstNotices, laterNotices))
        }

        /// Writes a file of the case (plain writes: thousands of fsyncs would time the disk).
        static func put(_ bytes: [UInt8], to path: String) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        func remove() { if ProcessInfo.processInfo.environment["KEEP_BENCH"] == nil { try? FileManager.default.removeItem(atPath: root) } }
    }
}

extension Optional {
    /// The value, or a `UsageError` saying `what` is missing.
    fileprivate func orThrow(_ what: String) throws -> Wrapped {
        guard let value = self else { throw UsageError(message: what, usage: MembersBenchmark.usage) }
        return value
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
