import Foundation

/// The local store of one installation (`--home`, `$TRIPSYNC_HOME`, default `~/.tripsync`):
/// `device.json` (identity and clock high-water mark) and `trips/<tripId>.trip.json.gz`.
public struct Home: Sendable {
    /// The folder.
    public var path: String

    /// A home at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The home chosen by `--home`, else `$TRIPSYNC_HOME`, else `~/.tripsync`.
    public static func resolve(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Home {
        if let option { return Home(path: option) }
        if let env = environment["TRIPSYNC_HOME"], !env.isEmpty { return Home(path: env) }
        let base = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return Home(path: base + "/.tripsync")
    }

    /// `device.json`.
    public var identityPath: String { path + "/device.json" }
    /// The folder of trip replicas.
    public var tripsPath: String { path + "/trips" }

    /// The identity, made on first use (a new random device id) and persisted durably.
    public func identity(defaultName: String? = nil) throws -> DeviceIdentity {
        if FileManager.default.fileExists(atPath: identityPath) {
            let bytes = try FileIO.readFile(identityPath, maxBytes: 1 << 20)
            let json: JSONValue
            do {
                json = try JSONValue.parse(bytes)
            } catch let error as TripFileError {
                throw TripFileError(.notJSON, file: identityPath, issues: error.issues)
            }
            return try DeviceIdentity(json: json, file: identityPath)
        }
        let host = ProcessInfo.processInfo.hostName
        let identity = DeviceIdentity(deviceID: .random(), name: defaultName ?? (host.isEmpty ? "this laptop" : host))
        try save(identity)
        return identity
    }

    /// Writes the identity durably, creating the home when needed.
    public func save(_ identity: DeviceIdentity) throws {
        try FileIO.makeFolder(tripsPath)
        try FileIO.writeAtomically(Array((identity.json.text + "\n").utf8), to: identityPath, mode: 0o600)
    }
}
