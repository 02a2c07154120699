import Foundation
import TripSyncCore

/// The forms a marker string could take in a file: raw UTF-8, UTF-16 either way, and base64 at
/// each of the three alignments (without the characters the neighbours decide).
package enum MarkerForms {
    package static func all(_ marker: String) -> [[UInt8]] {
        var forms: [[UInt8]] = [Array(marker.utf8)]
        forms.append(marker.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        forms.append(marker.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        for shift in 0..<3 {
            let padded = Array(repeating: UInt8(0), count: shift) + Array(marker.utf8)
            let text = Array(Data(padded).base64EncodedString().utf8)
            // Drop the characters that mix the padding bytes in, and the tail that mixes the next byte.
            let skip = shift == 0 ? 0 : (shift == 1 ? 2 : 3)
            let usable = text.dropFirst(skip).dropLast(4)
            if usable.count >= 8 { forms.append(Array(usable)) }
        }
        return forms
    }

    package static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// What inflates from every gzip header (1f 8b 08) found anywhere in `bytes`.
    package static func inflatedStreams(_ bytes: [UInt8]) -> [[UInt8]] {
        var found: [[UInt8]] = []
        guard bytes.count > 3 else { return found }
        for start in 0..<(bytes.count - 2) where bytes[start] == 0x1F && bytes[start + 1] == 0x8B && bytes[start + 2] == 0x08 {
            let tail = Array(bytes[start...])
            if let inflated = try? tail.withUnsafeBytes({ try Gzip.decompress($0, limits: .standard) }) { found.append(inflated) }
        }
        return found
    }
}
