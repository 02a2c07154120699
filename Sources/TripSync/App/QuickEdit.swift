import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// One edit made without decoding every item of the trip (docs/DESIGN.md, "The replica view"):
/// the trip is put together from its replica view (`ReplicaView`) with only the items the edit
/// reads, the edit journal's records written since the view are replayed over it, the edit runs
/// on that document as on the whole trip, and its effect is appended to the journal as every
/// edit's is. The answer and the record are the same as a whole open would give: the items an
/// edit reads are declared (`Needs`) and loaded, and whenever anything would make the answer
/// depend on more (a view that is missing or not of the replica and journal on disk, a torn
/// journal, an item named ambiguously, a notice or warning to tell, a fold due), `open` answers
/// `.whole` or `edit` answers nil before anything is saved, and the caller opens the trip whole.
package final class QuickEdit {
    /// How many journal records a view may lag behind before an edit opens the trip whole
    /// (which writes a new view): each is decoded and checked again by every quick edit.
    package static let lagLimit = 32

    /// Where an added item goes (`ItemPosition`, with the neighbour as typed).
    package enum Placement: Sendable {
        case first, last
        case after(String)
        case before(String)
    }

    /// What the edit reads beyond the trip's small parts: live items named as a person types
    /// them (`ItemLookup`), and the neighbours a placement needs.
    package struct Needs: Sendable {
        package var items: [String]
        package var placement: Placement?

        package init(items: [String] = [], placement: Placement? = nil) {
            self.items = items
            self.placement = placement
        }
    }

    /// The home's lock, held from `open` until this is released.
    let lock: HomeLock
    var state: ReplicaState
    let view: ReplicaView
    let defaultZone: String?

    private init(lock: HomeLock, state: ReplicaState, view: ReplicaView, defaultZone: String?) {
        self.lock = lock
        self.state = state
        self.view = view
        self.defaultZone = defaultZone
    }

    /// The replica's file (what an error while saving names).
    package var path: String { state.path }

    /// How `open` went.
    package enum Opening {
        /// The trip put together from its view, the home's lock held.
        case quick(QuickEdit)
        /// The trip must be opened whole (the lock released). `notices` were noticed on the way
        /// and are for the person: opening the identity saves a re-keyed one at once, so a whole
        /// open after it would not notice again.
        case whole(notices: [String])
    }

    /// Takes `home`'s lock and puts together the trip `selector` names holding what `needs`
    /// declares, or says it must be opened whole. Throws what opening the trip whole throws
    /// for a busy home or a broken identity.
    package static func open(_ home: Home, trip selector: String?, needs: Needs, timeout: Double = HomeLock.defaultTimeout) throws -> Opening {
        try open(home, trip: selector, needs: needs, holding: TripStore.takeLock(home, timeout: timeout))
    }

    /// `open` under a lock the caller holds already (`TripHome.edit`).
    package static func open(_ home: Home, trip selector: String?, needs: Needs, holding lock: HomeLock) throws -> Opening {
        let (identity, notice) = try home.openIdentity()
        if let notice { return .whole(notices: [notice]) }
        guard let (state, view, zone) = try assemble(home, identity: identity, trip: selector, needs: needs) else { return .whole(notices: []) }
        return .quick(QuickEdit(lock: lock, state: state, view: view, defaultZone: zone))
    }

    /// Runs `body` on the trip and saves what it wrote as one journal record (the identity
    /// first, as every edit); nil when nothing was saved because the edit needs the whole trip
    /// after all (a fold is due, or it removed something a record cannot say): `body` then
    /// runs again on the whole trip. Errors of `body` are rethrown (on the whole trip it throws
    /// them too: what it reads is the same), and so are failures to save. Use once.
    package func edit<T>(_ body: (inout TripEditor) throws -> T) throws -> T? {
        let before = state.document
        var editor = TripEditor(document: before, clock: state.clock, defaultZone: defaultZone, now: FileMerger.wallClockMilliseconds())
        let result = try body(&editor)
        guard editor.wrote else { return result }
        try TripStore.checkMayEdit(before, me: state.identity.deviceID, home: state.home)
        try editor.registerDevice(name: state.identity.name)
        // A new item whose id the view holds (never, with 122 random bits) needs the whole trip.
        for id in editor.document.items.keys where before.items[id] == nil && before.tombstones[id] == nil {
            if view.entry(id, deleted: false) != nil || view.entry(id, deleted: true) != nil { return nil }
        }
        // A page of the view that failed its check answered zeros: the whole trip decides.
        guard view.isSound else { return nil }
        guard let delta = JournalDelta(from: before, to: editor.document) else { return nil }
        // A fold rewrites the replica whole: that needs the whole trip.
        let length = (state.journal?.length ?? EditJournal.headerSize) + EditJournal.recordHeaderSize + delta.payload.count
        if length >= EditJournal.foldBytes || (state.journal?.records ?? 0) + 1 >= EditJournal.foldRecords { return nil }
        var next = state
        next.document = editor.document
        next.clock = editor.clock
        _ = try next.saveEdit(from: before)
        state = next
        return result
    }

    /// The trip put together from its view, nil when it must be opened whole.
    static func assemble(_ home: Home, identity: DeviceIdentity, trip selector: String?, needs: Needs) throws -> (ReplicaState, ReplicaView, String?)? {
        guard let (tripID, view) = choose(selector, in: home) else { return nil }
        let replicaPath = home.replicaPath(for: tripID)
        guard let journal = journalSince(view, path: home.journalPath(for: tripID)) else { return nil }
        var deltas: [JournalDelta] = []
        for payload in journal.payloads {
            guard case .success(let delta) = JournalDelta.decode(payload), delta.document.tripID == tripID else { return nil }
            deltas.append(delta)
        }
        // What the records say each item they hold is now (nil: deleted).
        var overlay: [ItemID: ItemFields?] = [:]
        var named: Set<ItemID> = []
        for delta in deltas {
            for (id, item) in delta.document.items { overlay[id] = .some(item) }
            for id in delta.document.tombstones.keys { overlay[id] = .some(nil) }
            for attachment in delta.document.attachments.values { if let item = attachment.item?.value { named.insert(item) } }
        }
        var wanted: Set<ItemID> = named
        for text in needs.items {
            guard let id = resolve(text, view: view, overlay: overlay) else { return nil }
            wanted.insert(id)
        }
        if let placement = needs.placement {
            guard let neighbours = neighbours(placement, view: view, overlay: overlay) else { return nil }
            wanted.formUnion(neighbours)
        }
        // The view's version of an item a record holds too is replaced when the record is
        // replayed (as over the whole replica), so loading it is harmless.
        var entries = Set(view.namedEntries)
        for id in wanted {
            if let index = view.entry(id, deleted: false) ?? view.entry(id, deleted: true) { entries.insert(index) }
        }
        let items = entries.filter { $0 < view.itemCount }.sorted()
        let tombstones = entries.filter { $0 >= view.itemCount }.sorted()
        guard let json = view.document(items: items, tombstones: tombstones) else { return nil }
        let zones = ZoneRules()
        let loaded: LoadedTrip
        do {
            loaded = try TripFileReader(zones: zones).read(bytes: json, file: view.path)
        } catch {
            // A view that does not read back is rebuilt by the whole open, which reads the replica.
            return nil
        }
        guard loaded.warnings.isEmpty, loaded.document.tripID == tripID else { return nil }
        // Each member read is the one its entry names (a damaged view is never trusted).
        for index in items where loaded.document.items[view.id(index)] == nil { return nil }
        for index in tombstones where loaded.document.tombstones[view.id(index)] == nil { return nil }
        // Every page the lookups read passed its check (a failed one answers zeros).
        guard view.isSound else { return nil }
        var document = loaded.document
        let validator = DocumentValidator(zones: zones)
        for delta in deltas {
            do {
                try delta.check(against: document, validator: validator)
                try delta.apply(to: &document)
            } catch {
                return nil
            }
        }
        // Values from a clock that ran ahead are re-stamped over the whole trip (`ClockRecovery`).
        guard document.clock.maxCounter <= FileMerger.wallClockMilliseconds() + ClockGuard.maxSkewMilliseconds else { return nil }
        var state = ReplicaState(home: home, identity: identity, document: document)
        guard state.notices.isEmpty else { return nil }
        let stamp = EditJournal.stamp(of: replicaPath)
        guard view.holds(replicaStamp: stamp) else { return nil }
        // A view written after the journal began was written durably into the journal's
        // folder (its rename and the folder's fsync), so the journal's name is durable too.
        state.journal = journal.position.map { position in
            EditJournal.Position(
                base: position.base, length: position.length, records: position.records, replica: stamp, nameDurable: view.journalLength > 0)
        }
        let defaultZone: String?
        do {
            defaultZone = try home.defaultZone(for: tripID)
        } catch {
            // A broken settings file: the whole open says so (a notice) and goes on without it.
            return nil
        }
        return (state, view, defaultZone)
    }

    /// The trip `selector` names and its view, when every trip of the home has a view of its
    /// replica as it is on disk (the choice is then `HomeTrips.choose`'s over the same trips).
    static func choose(_ selector: String?, in home: Home) -> (TripID, ReplicaView)? {
        let names: [String]
        do {
            names = try FileIO.folderTextNames(home.tripsPath, what: "this home's trips folder")
        } catch {
            // The whole open lists the folder again and reports what is wrong with it.
            return nil
        }
        let files = names.filter { $0.hasSuffix(EditJournal.replicaSuffix) && !$0.hasPrefix(".") }.sorted()
        var views: [(TripID, ReplicaView)] = []
        for file in files {
            guard let id = Identifier(String(file.dropLast(EditJournal.replicaSuffix.count))),
                let view = ReplicaView.load(home.layout.view(id)), view.holds(replicaStamp: EditJournal.stamp(of: home.replicaPath(for: id)))
            else { return nil }
            views.append((id, view))
        }
        if selector == nil { return views.count == 1 ? views[0] : nil }
        // Names: each trip's small parts (and the items its attachments name, which they need).
        var trips: [LoadedTrip] = []
        for (id, view) in views {
            let named = view.namedEntries
            guard let json = view.document(items: named.filter { $0 < view.itemCount }, tombstones: named.filter { $0 >= view.itemCount }) else { return nil }
            do {
                let loaded = try TripFileReader().read(bytes: json, file: view.path)
                guard loaded.document.tripID == id else { return nil }
                trips.append(loaded)
            } catch {
                // Rebuilt by the whole open, which reads the replica.
                return nil
            }
        }
        guard case .success(let chosen) = HomeTrips(trips: trips, unreadable: []).choose(selector, home: home.path) else { return nil }
        return views.first { $0.0 == chosen.document.tripID }
    }

    /// The journal's records the view does not hold, and where the journal ends; nil when the
    /// view is not of this journal (another base, a different prefix), the journal has a torn
    /// tail to cut (a whole open warns and cuts it), or the view lags `lagLimit` records or more.
    static func journalSince(_ view: ReplicaView, path: String) -> (payloads: [ArraySlice<UInt8>], position: EditJournal.Position?)? {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readFile(path, maxBytes: EditJournal.maxBytes)
        } catch let error as FileSystemError where error.code == ENOENT {
            return view.journalLength == 0 ? ([], nil) : nil
        } catch {
            return nil
        }
        let contents: EditJournal.Contents
        do throws(EditJournal.Failure) {
            contents = try EditJournal.parse(bytes)
        } catch {
            // The whole open refuses the trip with the journal's error.
            return nil
        }
        guard contents.torn == nil, contents.position.records > 0,
            contents.position.base == view.replicaDigest, contents.position.length >= view.journalLength,
            contents.position.records - view.journalRecords < lagLimit, view.holdsPrefix(ofJournal: bytes)
        else { return nil }
        let payloads = contents.payloads.filter { $0.startIndex - EditJournal.recordHeaderSize >= view.journalLength }
        guard payloads.count == contents.position.records - view.journalRecords else { return nil }
        return (payloads, contents.position)
    }

    /// The live item `text` names (`ItemLookup.match`'s rule over every id of the trip), nil
    /// when it names none, several, or only a deleted one (a whole open words that).
    static func resolve(_ text: String, view: ReplicaView, overlay: [ItemID: ItemFields?]) -> ItemID? {
        let lower = text.lowercased()
        func live(_ id: ItemID) -> Bool {
            if let now = overlay[id] { return now != nil }
            return view.entry(id, deleted: false) != nil
        }
        if let id = Identifier(lower) { return live(id) ? id : nil }
        guard text.count >= ItemLookup.minimumPrefix, let (lowest, highest) = bounds(ofPrefix: lower) else { return nil }
        var found: Set<ItemID> = []
        for index in view.entries(from: lowest, through: highest, deleted: false) where overlay[view.id(index)] == nil {
            found.insert(view.id(index))
        }
        for (id, now) in overlay where now != nil && id.description.hasPrefix(lower) { found.insert(id) }
        return found.count == 1 ? found.first : nil
    }

    /// The lowest and highest ids whose text starts with `prefix`; nil when no id can.
    static func bounds(ofPrefix prefix: String) -> (ItemID, ItemID)? {
        let template = Array("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".utf8)
        let typed = Array(prefix.utf8)
        guard typed.count <= template.count else { return nil }
        for (index, byte) in typed.enumerated() {
            let hyphen = template[index] == UInt8(ascii: "-")
            let hex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            guard hyphen ? byte == UInt8(ascii: "-") : hex else { return nil }
        }
        func filled(_ digit: UInt8) -> ItemID? {
            let rest = template[typed.count...].map { $0 == UInt8(ascii: "-") ? $0 : digit }
            return Identifier(String(decoding: typed + rest, as: UTF8.self))
        }
        guard let low = filled(UInt8(ascii: "0")), let high = filled(UInt8(ascii: "f")) else { return nil }
        return (low, high)
    }

    /// The items `ItemPosition.sortKey` reads for `placement` besides those the records hold
    /// (which are loaded anyway): the neighbour named and the nearest item of the order on the
    /// side it looks at. Nil when the neighbour cannot be found as one live item with an order key.
    static func neighbours(_ placement: Placement, view: ReplicaView, overlay: [ItemID: ItemFields?]) -> [ItemID]? {
        func untouched(_ position: Int) -> ItemID? {
            let id = view.id(view.ordered(position))
            return overlay[id] == nil ? id : nil
        }
        func first(in positions: some Sequence<Int>) -> [ItemID] {
            for position in positions { if let id = untouched(position) { return [id] } }
            return []
        }
        switch placement {
        case .last: return first(in: (0..<view.orderedCount).reversed())
        case .first: return first(in: 0..<view.orderedCount)
        case .after(let text), .before(let text):
            guard let id = resolve(text, view: view, overlay: overlay) else { return nil }
            let key: [UInt8]
            if let now = overlay[id] {
                guard let value = now?.sortKey?.value else { return nil }
                key = Array(value.utf8)
            } else {
                // An item without an order key is not in the order (a whole open refuses it).
                guard let index = view.entry(id, deleted: false), view.hasSortKey(index) else { return nil }
                key = Array(view.sortKey(index))
            }
            if case .after = placement {
                let from = view.orderPosition(after: key[...], orEqual: false)
                return [id] + first(in: from..<view.orderedCount)
            }
            let below = view.orderPosition(after: key[...], orEqual: true)
            return [id] + first(in: (0..<below).reversed())
        }
    }
}
