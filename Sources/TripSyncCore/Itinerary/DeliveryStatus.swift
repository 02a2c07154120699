/// What each change of ours has reached: only this device, published, seen by each other device.
public struct DeliveryStatus: Sendable {
    /// One device and what it has seen of ours.
    public struct Device: Hashable, Sendable {
        /// The device.
        public var id: DeviceID
        /// Its name in the trip.
        public var name: String
        /// The newest of our counters its published clock includes (0: none).
        public var seenOursUpTo: UInt64
        /// How many of our changes it has not seen yet (by its last published file).
        public var missingOurs: Int
        /// When it last published, read from the largest counter of its acks (about wall-clock ms).
        public var lastPublished: UTCTimestamp?
    }

    /// One change of ours: which field it wrote, whether it is published, who has seen it.
    public struct Change: Hashable, Sendable {
        /// The item (nil for the trip name or a device name).
        public var item: ItemID?
        /// The item's title (or the trip's name).
        public var title: String
        /// The field written.
        public var field: String
        /// The dot of the write.
        package var rev: Rev
        /// Whether our last published file holds it.
        public var published: Bool
        /// The other devices whose published files hold it.
        public var seenBy: [DeviceID]
    }

    /// Our changes, newest first.
    public var changes: [Change] = []

    /// Our changes (register writes) not in our last published file.
    public var unpublished: Int
    /// Our changes in all.
    public var ours: Int
    /// The other devices known to the trip.
    public var devices: [Device]
    /// Conflicts a person should settle: `conflictSummary.total`.
    public var conflicts: Int { conflictSummary.total }
    /// The conflicts with their parts, counted from `ConflictList` (as `conflicts` lists them).
    package var conflictSummary: ConflictSummary
    /// Deleted items whose body may be compacted within `soonDays`, with the date it may go.
    public var nearRetention: [(id: ItemID, title: String?, from: UTCTimestamp)]
    /// Detached attachments that may be compacted within `soonDays` (no longer restorable then,
    /// and their bytes go at the next `gc`), with their names and the date.
    public var attachmentsNearRetention: [(id: AttachmentID, name: String, from: UTCTimestamp)]

    /// Our changes not in our last published file (newest first): what only this device holds.
    /// With `other`, only those `other` has not seen either: what replacing this replica by
    /// `other` would discard.
    package func unpublishedChanges(notSeenBy other: TripDocument? = nil) -> [Change] {
        changes.filter { !$0.published && !(other?.clock.sees($0.rev) ?? false) }
    }

    /// What a change at `path` is called: its item, the title a person knows it by, the field.
    static func describe(_ path: RegisterPath, in document: TripDocument) -> (item: ItemID?, title: String, field: String) {
        func itemTitle(_ fields: ItemFields?) -> String { fields?.title?.value ?? "(deleted item)" }
        func fieldName(_ field: ItemField) -> String { field == .sortKey ? "order" : field.rawValue }
        switch path {
        case .tripName: return (nil, document.trip.name.value, "trip name")
        case .tripZone: return (nil, document.trip.name.value, "trip zone")
        case .deviceName(let id): return (nil, document.devices[id]?.name.value ?? id.description, "device name")
        case .itemField(let id, let field): return (id, itemTitle(document.items[id]), fieldName(field))
        case .deletion(let id): return (id, itemTitle(document.tombstones[id]?.item), "delete")
        case .deletedItemField(let id, let field): return (id, itemTitle(document.tombstones[id]?.item), fieldName(field))
        case .attachment(let id, let field):
            let attachment = document.attachments[id]
            let item = attachment?.item?.value
            let onItem = item.flatMap { document.items[$0]?.title?.value ?? document.tombstones[$0]?.item.title?.value }
            let title = (attachment?.name?.value ?? "an attachment") + (onItem.map { " on " + $0 } ?? "")
            switch field {
            case .blob: return (item, title, "attachment")
            case .item: return (item, title, "attachment's item")
            case .name: return (item, title, "attachment's name")
            case .caption: return (item, title, "caption")
            case .deleted: return (item, title, "detach")
            }
        }
    }

    /// Computes the status of `document` for `me` at `now`.
    package init(_ document: TripDocument, me: DeviceID, now: UTCTimestamp, policy: RetentionPolicy = .standard, soonDays: Int64 = 14) {
        var counters: [UInt64] = []
        var found: [(item: ItemID?, title: String, field: String, rev: Rev)] = []
        // Every register (`walkRegisters`); attachment writes are changes too: a caption or a
        // detach not yet published is lost with the replica like a field's edit (forget and
        // import --replace warn of them). What a change is called is looked up only for ours.
        document.forEachVersionRev { path, rev in
            guard rev.device == me else { return }
            counters.append(rev.counter)
            let (item, title, field) = DeliveryStatus.describe(path, in: document)
            found.append((item, title, field, rev))
        }
        let published = document.acks[me]?[me] ?? 0
        let others = document.acks.filter { $0.key != me }
        changes = found.sorted { $0.rev > $1.rev }.map { change in
            Change(
                item: change.item, title: change.title, field: change.field, rev: change.rev, published: change.rev.counter <= published,
                seenBy: others.filter { $0.value.sees(change.rev) }.map(\.key).sorted())
        }
        ours = counters.count
        unpublished = counters.filter { $0 > published }.count
        // How many of our counters lie above `seen`, by binary search in the sorted counters:
        // one search per device, not a scan of our changes per device (issue 26).
        let sortedCounters = counters.sorted()
        func countAbove(_ seen: UInt64) -> Int {
            var low = 0
            var high = sortedCounters.count
            while low < high {
                let middle = (low + high) / 2
                if sortedCounters[middle] <= seen { low = middle + 1 } else { high = middle }
            }
            return sortedCounters.count - low
        }
        let known = Set(document.devices.keys).union(document.clock.entries.keys).union(document.acks.keys).subtracting([me])
        devices = known.sorted().map { id in
            let ack = document.acks[id]
            let seen = ack?[me] ?? 0
            let last = ack.map { UTCTimestamp(millisecondsSinceEpoch: $0.maxCounter) }
            return Device(
                id: id, name: document.deviceName(id), seenOursUpTo: seen, missingOurs: countAbove(seen),
                lastPublished: ack == nil ? nil : last)
        }
        conflictSummary = ConflictSummary(document)
        var soon: [(id: ItemID, title: String?, from: UTCTimestamp)] = []
        // A body holding typed work (edited while deleted) is kept until a person decides: never near.
        for (id, tombstone) in document.tombstones where !tombstone.item.isEmpty {
            let typed = !document.editedWhileDeleted(id).isEmpty
            guard let eligible = document.retentionEnd(of: tombstone.deleted, holdsTypedWork: typed, policy: policy) else { continue }
            if eligible.secondsSinceEpoch - now.secondsSinceEpoch <= soonDays * 86_400 {
                soon.append((id, tombstone.item.title?.value, eligible))
            }
        }
        nearRetention = soon.sorted { $0.from < $1.from }
        var detached: [(id: AttachmentID, name: String, from: UTCTimestamp)] = []
        for (id, attachment) in document.attachments where attachment.isDetached && attachment.blob != nil {
            guard let deleted = attachment.deleted,
                let eligible = document.retentionEnd(of: deleted, holdsTypedWork: !document.editedWhileDetached(id).isEmpty, policy: policy)
            else { continue }
            if eligible.secondsSinceEpoch - now.secondsSinceEpoch <= soonDays * 86_400 {
                detached.append((id, attachment.name?.value ?? "an attachment", eligible))
            }
        }
        attachmentsNearRetention = detached.sorted { ($0.from, $0.id) < ($1.from, $1.id) }
    }
}
