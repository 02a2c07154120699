/// A document's canonical JSON with the place of each live item and each tombstone in it: what
/// a replica view keeps (docs/DESIGN.md, "The replica view"), so that a document holding only
/// some of the items can be put together from it byte for byte as the writer would write it.
///
/// The JSON is `head` (through `"items":{`), the items (`"<id>":{…}`, in id order, separated
/// by commas), `middle` (`},"members":…,"tombstones":{`), the tombstones likewise, and `end`
/// (`},"trip":…}` and the newline).
package struct CanonicalPieces: Sendable {
    /// The whole canonical JSON (`TripDocument.canonicalJSON()`'s bytes).
    package let json: [UInt8]
    /// Where the first item would start: just after `"items":{`.
    package let headEnd: Int
    /// Each live item's member bytes, in id order.
    package let items: [(id: ItemID, range: Range<Int>)]
    /// `},"members":…,"tombstones":{`.
    package let middle: Range<Int>
    /// Each tombstone's member bytes, in id order.
    package let tombstones: [(id: ItemID, range: Range<Int>)]
    /// `},"trip":…}` and the newline.
    package let end: Range<Int>

    /// The pieces of `document` (unsigned, as a home's replica is written).
    package init(_ document: TripDocument) {
        let sortedItems = document.items.sorted { $0.key < $1.key }
        let sortedTombstones = document.tombstones.sorted { $0.key < $1.key }
        var writer = CanonicalWriter(capacity: 4096 + sortedItems.count * 700 + sortedTombstones.count * 700)
        writer.writeHead(document)
        headEnd = writer.out.count
        var items: [(id: ItemID, range: Range<Int>)] = []
        items.reserveCapacity(sortedItems.count)
        for (index, entry) in sortedItems.enumerated() {
            if index > 0 { writer.out.append(UInt8(ascii: ",")) }
            let start = writer.out.count
            writer.out.append(identifier: entry.key)
            writer.out.append(UInt8(ascii: ":"))
            writer.write(entry.value)
            items.append((entry.key, start..<writer.out.count))
        }
        let middleStart = writer.out.count
        _ = writer.writeMiddle(document, signed: false)
        middle = middleStart..<writer.out.count
        var tombstones: [(id: ItemID, range: Range<Int>)] = []
        tombstones.reserveCapacity(sortedTombstones.count)
        for (index, entry) in sortedTombstones.enumerated() {
            if index > 0 { writer.out.append(UInt8(ascii: ",")) }
            let start = writer.out.count
            writer.write(entry.key, entry.value)
            tombstones.append((entry.key, start..<writer.out.count))
        }
        let endStart = writer.out.count
        writer.writeEnd(document)
        end = endStart..<writer.out.count
        self.items = items
        self.tombstones = tombstones
        json = writer.out.take().toArray()
    }

    /// The canonical JSON of the document made of `head`, `middle` and `end` and only the given
    /// item and tombstone members (each list in id order).
    package static func assemble(
        head: ArraySlice<UInt8>, items: [ArraySlice<UInt8>], middle: ArraySlice<UInt8>, tombstones: [ArraySlice<UInt8>], end: ArraySlice<UInt8>
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(head.count + middle.count + end.count + items.reduce(0) { $0 + $1.count + 1 } + tombstones.reduce(0) { $0 + $1.count + 1 })
        out += head
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += item
        }
        out += middle
        for (index, tombstone) in tombstones.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += tombstone
        }
        out += end
        return out
    }
}
