import Foundation

/// Sizes for people: bytes, KiB or MiB with one decimal (the CLI's lines and the itinerary page).
package enum ByteCount {
    /// "472 bytes", "12.3 KiB", "4.0 MiB".
    package static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        if bytes < 1 << 20 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
