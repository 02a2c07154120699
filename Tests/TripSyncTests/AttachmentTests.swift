import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncHome

/// Schema 4 attachments in the document: the file form, the merge rules (docs/DESIGN.md,
/// "Attachments") and what is shown.
@Suite struct AttachmentTests {
    static let now: UInt64 = 1_780_000_000_000
    static let photo = BlobReference(sha256: String(repeating: "ab", count: 32), size: 1234, type: "image/jpeg")
    static let ticket = BlobReference(sha256: String(repeating: "cd", count: 32), size: 99, type: "application/pdf")

    /// A trip with one item on device A, and a copy on device B.
    static func pair() throws -> (a: TripDocument, b: TripDocument, item: ItemID, hlc: HybridLogicalClock) {
        var document = smallDocument(items: 2)
        var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
        let item = Identifier.random()
        try document.addItem(item, NewItem(title: "Museum", sortKey: "V"), hlc: &hlc, now: now)
        var copy = document
        copy.deviceID = Identifier.random()
        return (document, copy, item, hlc)
    }

    /// `pair()`'s A with one photo attached ("a.jpg", captioned "old"), and B a copy of it.
    static func attachedPair() throws -> (a: TripDocument, b: TripDocument, id: AttachmentID, hlc: HybridLogicalClock) {
        var (a, _, item, hlc) = try pair()
        let id = Identifier.random()
        try a.attach(id, item: item, blob: photo, name: "a.jpg", caption: "old", hlc: &hlc, now: now + 10)
        var b = a
        b.deviceID = Identifier.random()
        return (a, b, id, hlc)
    }

    @Test func anAttachmentRoundTripsThroughTheFile() throws {
        var (a, _, item, hlc) = try Self.pair()
        let id = Identifier.random()
        try a.attach(id, item: item, blob: Self.photo, name: "IMG_0042.jpg", caption: "front door\nleft", hlc: &hlc, now: Self.now + 1)
        let detached = Identifier.random()
        try a.attach(detached, item: item, blob: Self.ticket, name: "ticket.pdf", caption: nil, hlc: &hlc, now: Self.now + 2)
        try a.detach(detached, at: UTCTimestamp(secondsSinceEpoch: 1_780_000_000), hlc: &hlc, now: Self.now + 3)
        let bytes = a.canonicalJSON()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"attachments\":{"))
        #expect(text.contains("\"schemaVersion\":\(TripDocument.currentSchemaVersion)"))
        let loaded = try TripFileReader().read(bytes: bytes, file: "a.trip.json")
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.document.attachments == a.attachments)
        #expect(loaded.document.canonicalJSON() == bytes)
        #expect(loaded.document.attachments[detached]?.isDetached == true)
        #expect(loaded.document.isShown(id) && !loaded.document.isShown(detached))
    }

    @Test func readerRulesForAttachments() throws {
        var (a, _, item, hlc) = try Self.pair()
        let id = Identifier.random()
        try a.attach(id, item: item, blob: Self.photo, name: "IMG.jpg", caption: nil, hlc: &hlc, now: Self.now + 1)
        let good = String(decoding: a.canonicalJSON(), as: UTF8.self)
        func refusal(_ text: String) -> [String] {
            guard case .failure(let error) = readTrip(bytes(text)) else { return [] }
            return error.errors.map { "\($0.pointer): \($0.message)" }
        }
        let cases: [(String, String, String)] = [
            ("upper-case digest", good.replacingOccurrences(of: Self.photo.sha256, with: Self.photo.sha256.uppercased()), "/attachments/\(id)/blob/value/sha256"),
            ("short digest", good.replacingOccurrences(of: Self.photo.sha256, with: String(Self.photo.sha256.dropLast())), "/attachments/\(id)/blob/value/sha256"),
            ("negative size", good.replacingOccurrences(of: "\"size\":1234", with: "\"size\":-1"), "/attachments/\(id)/blob/value/size"),
            ("bad type", good.replacingOccurrences(of: "image/jpeg", with: "JPEG"), "/attachments/\(id)/blob/value/type"),
            ("slash in name", good.replacingOccurrences(of: "\"IMG.jpg\"", with: "\"a/b.jpg\""), "/attachments/\(id)/name/value"),
            ("dot-dot name", good.replacingOccurrences(of: "\"IMG.jpg\"", with: "\"..\""), "/attachments/\(id)/name/value"),
            ("unknown key", good.replacingOccurrences(of: "\"name\":{", with: "\"owner\":1,\"name\":{"), "/attachments/\(id)/owner"),
            ("in a schema 3 file", good.replacingOccurrences(of: "\"schemaVersion\":\(TripDocument.currentSchemaVersion)", with: "\"schemaVersion\":3"), ""),
            ("missing in a schema 4 file", good.replacingOccurrences(of: "\"attachments\":{\"\(id)\"", with: "\"x\":{\"\(id)\"").replacingOccurrences(of: ",\"x\":", with: ",\"y\":"), ""),
        ]
        for (what, text, pointer) in cases {
            let errors = refusal(text)
            #expect(!errors.isEmpty, "\(what): accepted")
            if !pointer.isEmpty { #expect(errors.contains { $0.hasPrefix(pointer + ":") }, "\(what): \(errors)") }
        }
        #expect(refusal(good.replacingOccurrences(of: "\"schemaVersion\":\(TripDocument.currentSchemaVersion)", with: "\"schemaVersion\":3")).contains { $0.contains("a schema 4 key in a schema 3 file") })
    }

    @Test func anAttachmentDotAboveTheClockIsRefused() throws {
        var (a, _, item, hlc) = try Self.pair()
        let id = Identifier.random()
        try a.attach(id, item: item, blob: Self.photo, name: "IMG.jpg", caption: nil, hlc: &hlc, now: Self.now + 1)
        let rev = try #require(a.attachments[id]?.caption?.rev)
        let text = String(decoding: a.canonicalJSON(), as: UTF8.self)
            .replacingOccurrences(of: "\"caption\":{\"rev\":[\(rev.counter),", with: "\"caption\":{\"rev\":[\(rev.counter + 999_999),")
        guard case .failure(let error) = readTrip(bytes(text)) else {
            Issue.record("accepted")
            return
        }
        #expect(error.errors.contains { $0.pointer == "/attachments/\(id)/caption/rev" })
    }

    @Test func twoPeopleAttachingAtOnceNeverConflict() throws {
        var (a, b, item, hlcA) = try Self.pair()
        var hlcB = HybridLogicalClock(highWater: b.clock.maxCounter)
        let x = Identifier.random(), y = Identifier.random()
        try a.attach(x, item: item, blob: Self.photo, name: "a.jpg", caption: "mine", hlc: &hlcA, now: Self.now + 10)
        try b.attach(y, item: item, blob: Self.photo, name: "a.jpg", caption: "theirs", hlc: &hlcB, now: Self.now + 10)
        let ab = try DocumentMerger.merge(a, b, writer: a.deviceID)
        let ba = try DocumentMerger.merge(b, a, writer: a.deviceID)
        #expect(ab.canonicalJSON() == ba.canonicalJSON())
        #expect(ab.attachments.count == 2 && ab.attachments.values.allSatisfy { !$0.hasConflicts })
    }

    @Test func aDetachBeatsAConcurrentCaptionWhichStaysRestorable() throws {
        var (a, b, id, hlcA) = try Self.attachedPair()
        var hlcB = HybridLogicalClock(highWater: b.clock.maxCounter)
        try a.detach(id, at: UTCTimestamp(secondsSinceEpoch: 1_780_000_100), hlc: &hlcA, now: Self.now + 20)
        try b.setCaption(id, to: "typed while it was detached", hlc: &hlcB, now: Self.now + 21)
        var merged = try DocumentMerger.merge(a, b, writer: a.deviceID)
        #expect(merged.attachments[id]?.isDetached == true)
        #expect(merged.attachments[id]?.caption?.value == "typed while it was detached")
        #expect(!merged.isShown(id))
        // A stale copy from before the detach never brings it back.
        let stale = try DocumentMerger.merge(merged, b, writer: a.deviceID)
        #expect(stale.attachments[id]?.isDetached == true)
        try merged.restoreAttachment(id, hlc: &hlcA, now: Self.now + 30)
        #expect(merged.isShown(id) && merged.attachments[id]?.caption?.value == "typed while it was detached")
        // The restore replaces the detach on the other side too.
        let back = try DocumentMerger.merge(b, merged, writer: b.deviceID)
        #expect(back.isShown(id))
    }

    @Test func aDetachedAttachmentIsCompactedOnlyPastTheRetentionOnceEveryDeviceSawIt() throws {
        var (a, b, id, hlcA) = try Self.attachedPair()
        let live = b  // a copy from before the detach
        let detachedAt: Int64 = 1_780_000_100
        try a.detach(id, at: UTCTimestamp(secondsSinceEpoch: detachedAt), hlc: &hlcA, now: Self.now + 20)
        var merged = try DocumentMerger.merge(a, b, writer: a.deviceID)
        let later = UTCTimestamp(secondsSinceEpoch: detachedAt + 91 * 86_400)
        merged.acks = [a.deviceID: merged.clock]
        #expect(merged.compactableAttachments(now: later).isEmpty, "the other laptop has not acknowledged the detach")
        CompactionRuleTests.acknowledgeAll(&merged, reaching: later)
        #expect(merged.compactableAttachments(now: UTCTimestamp(secondsSinceEpoch: detachedAt + 89 * 86_400)).isEmpty, "retention not passed")
        #expect(merged.compactableAttachments(now: later) == [id])
        // status warns in the last two weeks before the attachment may go.
        let soon = UTCTimestamp(secondsSinceEpoch: detachedAt + 80 * 86_400)
        #expect(DeliveryStatus(merged, me: a.deviceID, now: soon).attachmentsNearRetention.map(\.id) == [id])
        #expect(DeliveryStatus(merged, me: a.deviceID, now: soon).attachmentsNearRetention.first?.name == "a.jpg")
        #expect(DeliveryStatus(merged, me: a.deviceID, now: UTCTimestamp(secondsSinceEpoch: detachedAt + 10 * 86_400)).attachmentsNearRetention.isEmpty)
        #expect(merged.compact(now: later) == 1)
        #expect(DeliveryStatus(merged, me: a.deviceID, now: soon).attachmentsNearRetention.isEmpty)  // gone already
        let stub = try #require(merged.attachments[id])
        #expect(stub.isDetached && stub.blob == nil && stub.name == nil && stub.caption == nil && stub.item == nil)
        #expect(merged.compactableAttachments(now: later).isEmpty)  // nothing left to drop
        // The stub reads back, stays detached against the copy from before the detach, and
        // names no bytes any more (gc may remove them).
        let bytes = merged.canonicalJSON()
        let reread = try TripFileReader().read(bytes: bytes, file: "compacted.trip.json").document
        #expect(reread.attachments[id] == stub)
        let again = try DocumentMerger.merge(merged, live, writer: a.deviceID)
        #expect(again.attachments[id] == stub)
        #expect(!again.isShown(id))
        #expect(!String(decoding: again.canonicalJSON(), as: UTF8.self).contains(Self.photo.sha256))
        #expect(throws: EditError.self) { try merged.restoreAttachment(id, hlc: &hlcA, now: Self.now + 40) }
    }

    @Test func attachmentWritesAreChangesStatusForgetAndImportCount() throws {
        var (a, _, id, hlc) = try Self.attachedPair()
        a.acknowledgeOwnState()  // as published
        let now = UTCTimestamp(secondsSinceEpoch: 1_780_000_200)
        #expect(DeliveryStatus(a, me: a.deviceID, now: now).unpublished == 0)
        let changesBefore = TeamMetrics(a, me: a.deviceID, now: now).changes
        try a.setCaption(id, to: "new caption", hlc: &hlc, now: Self.now + 50)
        var status = DeliveryStatus(a, me: a.deviceID, now: now)
        #expect(status.unpublished == 1)
        #expect(status.unpublishedChanges().map(\.field) == ["caption"])
        #expect(status.unpublishedChanges().first?.title == "a.jpg on Museum")
        #expect(TeamMetrics(a, me: a.deviceID, now: now).changes == changesBefore)  // the caption replaced the old one
        try a.detach(id, at: now, hlc: &hlc, now: Self.now + 60)
        status = DeliveryStatus(a, me: a.deviceID, now: now)
        #expect(status.unpublished == 2)
        #expect(Set(status.unpublishedChanges().map(\.field)) == ["caption", "detach"])
        #expect(TeamMetrics(a, me: a.deviceID, now: now).changes == changesBefore + 1)
        #expect(TeamMetrics(a, me: a.deviceID, now: now).oldestUnpublishedChange != nil)
    }

    /// `a` and `b` written as files and merged by `FileMerger` as `a`'s device, as `tripsync
    /// merge` does.
    static func mergedFiles(_ a: TripDocument, _ b: TripDocument) throws -> FileMergeResult {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(a.canonicalJSON()).write(to: URL(fileURLWithPath: folder + "/a.trip.json"))
        try Data(b.canonicalJSON()).write(to: URL(fileURLWithPath: folder + "/b.trip.json"))
        return try FileMerger(writer: a.deviceID).merge(files: [folder + "/a.trip.json", folder + "/b.trip.json"], nowMilliseconds: now + 50)
    }

    @Test func aMergeReportsTheAttachmentsAnInputBrings() throws {
        var (a, b, id, hlcA) = try Self.attachedPair()
        var hlcB = HybridLogicalClock(highWater: b.clock.maxCounter)
        try b.attach(Identifier.random(), item: try #require(a.attachments[id]?.item?.value), blob: Self.ticket, name: "ticket.pdf", caption: nil, hlc: &hlcB, now: Self.now + 40)
        try b.setCaption(id, to: "from B", hlc: &hlcB, now: Self.now + 41)
        try a.setCaption(id, to: "from A", hlc: &hlcA, now: Self.now + 42)
        try b.renameForTest("Lisboa", hlc: &hlcB, now: Self.now + 43)
        try a.renameForTest("Lisbon", hlc: &hlcA, now: Self.now + 44)
        let result = try Self.mergedFiles(a, b)
        let brought = result.inputs[1].brought
        #expect(brought.attachmentsAdded == 1)  // the ticket
        #expect(brought.attachmentsChanged == 1)  // the photo's caption, now B's or in conflict with it
        #expect(brought.conflictsCreated == 2)  // the caption and the trip's name
        #expect(!brought.isEmpty)
        // The in-place merge counts what comparing the documents counts.
        #expect(MergeContribution(before: a, after: result.document) == brought)
    }

    @Test func aMergeCountsTheTripZoneAnInputBringsAsComparingTheDocumentsDoes() throws {
        // The in-place merge counted the trip's name but not its zone (schema 5), so a merge
        // that brought only a zone reported that it changed nothing.
        for concurrent in [false, true] {
            var (a, b, _, hlcA) = try Self.pair()
            var hlcB = HybridLogicalClock(highWater: b.clock.maxCounter)
            try b.setZoneForTest("Europe/Lisbon", hlc: &hlcB, now: Self.now + 5)
            if concurrent { try a.setZoneForTest("Europe/Paris", hlc: &hlcA, now: Self.now + 6) }
            let result = try Self.mergedFiles(a, b)
            let brought = result.inputs[1].brought
            // Concurrent: the two writes' counters are equal, so the device ids decide the winner.
            let winnerChanged = (result.document.trip.zone?.value ?? nil) != (a.trip.zone?.value ?? nil)
            if !concurrent { #expect(winnerChanged, "B's zone is the only write") }
            #expect(brought.fieldsChanged == (winnerChanged ? 1 : 0), "concurrent: \(concurrent)")
            #expect(brought.conflictsCreated == (concurrent ? 1 : 0), "concurrent: \(concurrent)")
            #expect(!brought.isEmpty)
            #expect(MergeContribution(before: a, after: result.document) == brought)
        }
    }

    @Test func deletingAnItemHidesItsAttachmentsAndRestoringBringsThemBack() throws {
        var (a, _, item, hlc) = try Self.pair()
        let id = Identifier.random()
        try a.attach(id, item: item, blob: Self.photo, name: "a.jpg", caption: nil, hlc: &hlc, now: Self.now + 10)
        try a.deleteItem(item, at: UTCTimestamp(secondsSinceEpoch: 1_780_000_100), hlc: &hlc, now: Self.now + 20)
        #expect(!a.isShown(id) && a.attachments[id]?.isDetached == false)
        try a.restoreItem(item, hlc: &hlc, now: Self.now + 30)
        #expect(a.isShown(id))
    }

    @Test func attachingRefusesWhatReadersWouldRefuse() throws {
        var (a, _, item, hlc) = try Self.pair()
        let before = a
        for (name, caption) in [("", nil), ("a/b", nil), ("..", nil), ("ok.jpg", String(repeating: "x", count: 2_001))] as [(String, String?)] {
            #expect(throws: EditError.self) {
                try a.attach(Identifier.random(), item: item, blob: Self.photo, name: name, caption: caption, hlc: &hlc, now: Self.now + 1)
            }
        }
        #expect(throws: EditError.self) {
            try a.attach(Identifier.random(), item: Identifier.random(), blob: Self.photo, name: "a.jpg", caption: nil, hlc: &hlc, now: Self.now + 1)
        }
        #expect(a == before)
    }

    @Test func aViewersAttachmentCountsAsContent() throws {
        var (a, _, item, hlc) = try Self.pair()
        let counter = a.clock[a.deviceID]
        #expect(!a.hasContent(of: a.deviceID, above: counter))
        try a.attach(Identifier.random(), item: item, blob: Self.photo, name: "a.jpg", caption: nil, hlc: &hlc, now: Self.now + 10)
        #expect(a.hasContent(of: a.deviceID, above: counter))
    }

    @Test func aSchema3FileMigratesToNoAttachments() throws {
        let loaded = try TripFileReader().read(path: PackagePaths.samples + "/v3/porto-owned.trip.json")
        #expect(loaded.sourceSchemaVersion == 3)
        #expect(loaded.signedBy != nil)
        #expect(loaded.document.attachments.isEmpty)
        #expect(loaded.migration?.steps.contains { $0.hasPrefix("3→4") } == true)
    }
}

extension TripDocument {
    /// Renames the trip as `TripEditor.rename` does (one register write), for merge tests.
    fileprivate mutating func renameForTest(_ name: String, hlc: inout HybridLogicalClock, now: UInt64) throws {
        let rev = try stamp(&hlc, now: now)
        trip.name.write(name, rev: rev)
    }

    /// Sets the trip's zone (one register write, or the register made), for merge tests.
    fileprivate mutating func setZoneForTest(_ zone: String, hlc: inout HybridLogicalClock, now: UInt64) throws {
        let rev = try stamp(&hlc, now: now)
        if trip.zone == nil { trip.zone = Register(value: zone, rev: rev) } else { trip.zone?.write(zone, rev: rev) }
    }
}
