/// The release of the TripSync library and tool.
package enum TripSyncVersion {
    /// The release number; its minor part follows the schema version the release writes.
    package static let release = "0.4.1"
}
