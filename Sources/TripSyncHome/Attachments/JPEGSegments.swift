/// One marker segment of a JPEG that carries a length: where its marker is and its payload.
struct JPEGSegment: Hashable, Sendable {
    /// The marker's second byte (0xE1 for APP1).
    var marker: UInt8
    /// The offset of the marker's 0xFF.
    var offset: Int
    /// The payload: the bytes after the two-byte length.
    var payload: Range<Int>

    /// The whole segment, marker to the end of the payload.
    var range: Range<Int> { offset..<payload.upperBound }
}

/// The walk over a JPEG's markers: every APP1 segment of the image and of any image that
/// follows its end (the multi-picture format puts a second JPEG, with its own Exif, right after
/// the first), the last one possibly cut short. Linear in the input: each step moves forward, and a broken structure ends the walk.
struct JPEGSegments: Sendable {
    /// Whether the bytes start with a JPEG's start-of-image marker.
    var isJPEG: Bool
    /// The APP1 segments met, in file order.
    var app1: [JPEGSegment]

    /// Walks `bytes`; never reads past the end, whatever they hold.
    init(_ bytes: [UInt8]) {
        app1 = []
        let count = bytes.count
        isJPEG = count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8
        guard isJPEG else { return }
        var position = 2
        walk: while position < count {
            guard bytes[position] == 0xFF else { break }  // not a marker: the structure ends here
            var markerAt = position + 1
            while markerAt < count && bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
            guard markerAt < count else { break }
            let marker = bytes[markerAt]
            position = markerAt + 1
            switch marker {
            case 0xD9:  // end of image; another image may follow at once
                guard position + 1 < count, bytes[position] == 0xFF, bytes[position + 1] == 0xD8 else { break walk }
                position += 2
            case 0xD8, 0x01, 0xD0...0xD7:  // markers without a length
                continue
            case 0x00:
                break walk
            default:
                guard position + 2 <= count else { break walk }
                let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
                guard length >= 2 else { break walk }
                guard position + length <= count else {
                    // A file cut short inside an APP1 segment: what is there is still read (and
                    // stripped), as a reader that tolerates truncation would show it.
                    if marker == 0xE1 { app1.append(JPEGSegment(marker: marker, offset: markerAt - 1, payload: min(position + 2, count)..<count)) }
                    break walk
                }
                if marker == 0xE1 {
                    app1.append(JPEGSegment(marker: marker, offset: markerAt - 1, payload: position + 2..<position + length))
                }
                position += length
                if marker == 0xDA { position = Self.endOfScan(bytes, from: position) }
            }
        }
    }

    /// The offset of the first marker after entropy-coded data (stuffed 0xFF00 and restart
    /// markers belong to the data), or the end of the bytes.
    private static func endOfScan(_ bytes: [UInt8], from start: Int) -> Int {
        var position = start
        let count = bytes.count
        while position + 1 < count {
            if bytes[position] == 0xFF {
                let next = bytes[position + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    position += 2
                    continue
                }
                if next != 0xFF { return position }
            }
            position += 1
        }
        return count
    }
}
