/// What a sync says while it runs (`TripHome.sync(with:progress:)`, `TripHome.watch`), on the
/// syncing thread: for a progress line on a terminal or a page.
public enum SyncProgress: Sendable, Hashable {
    /// The trip after `done` of `total` starts.
    case trip(done: Int, of: Int)
    /// An attachment's bytes are being copied: `done` of `total` bytes, fetched from the shared
    /// folder into the home (`fetching`) or shared from the home into the folder.
    case attachment(name: String, done: Int64, of: Int64, fetching: Bool)
}
