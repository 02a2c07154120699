import TripSyncCore
import TripSyncHome

/// The plain digests of the blobs this home's owned trips hold sealed (docs/DESIGN.md, "A photo
/// of a sealed trip never leaves in plain"): read once, when a sync first asks, from the home's
/// replicas. An open trip's sync puts plain bytes another device's attachment names into its
/// folder only when no sealed trip of this home names the same bytes, so a member of an open
/// trip who learned the hash of a photo in someone's sealed trip cannot make that laptop upload
/// it in plain. A replica that cannot be read makes every digest count as named (nothing is
/// relayed), never the other way.
final class PlainBlobsOfSealedTrips {
    private let home: Home
    private var digests: Set<String>?
    private var unknown = false

    init(home: Home) { self.home = home }

    /// Whether the blob with plain digest `sha256` may be named by a sealed trip of this home.
    func names(_ sha256: String) -> Bool {
        if digests == nil { load() }
        return unknown || digests?.contains(sha256) == true
    }

    private func load() {
        var found: Set<String> = []
        do {
            let listing = try home.listTrips()
            unknown = !listing.unreadable.isEmpty
            for trip in listing.trips where trip.document.owner != nil {
                for attachment in trip.document.attachments.values {
                    for version in attachment.blob?.versions ?? [] where version.value.sealed != nil { found.insert(version.value.sha256) }
                }
            }
        } catch {
            unknown = true
        }
        digests = found
    }
}
