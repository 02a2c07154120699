/// The release of the TripSync library and tool.
public enum TripSyncVersion {
    /// The release number; its minor part follows the schema version the release writes.
    public static let release = "0.4.1"
}
