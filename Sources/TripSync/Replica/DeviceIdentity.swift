/// This installation's identity: its device id, its name, and the high-water mark of its clock.
///
/// The id belongs to one installation and is never taken from an imported file. The high-water
/// mark never goes down, so a home restored from an old copy is caught (DESIGN.md, device forks).
public struct DeviceIdentity: Hashable, Sendable {
    /// The device id.
    public var deviceID: DeviceID
    /// A name a person gave this device ("Sam's laptop").
    public var name: String
    /// The largest counter this device has issued.
    public var highWater: UInt64

    /// Creates an identity.
    public init(deviceID: DeviceID, name: String, highWater: UInt64 = 0) {
        self.deviceID = deviceID
        self.name = name
        self.highWater = highWater
    }

    /// The `device.json` form.
    var json: JSONValue {
        ["deviceId": .string(deviceID.description), "name": .string(name), "highWater": .int(Int64(highWater)), "format": 1]
    }

    /// Reads `device.json`.
    init(json: JSONValue, file: String) throws(TripFileError) {
        guard let idText = json["deviceId"]?.stringValue, let id = Identifier(idText) else {
            throw TripFileError(.invalid, file: file, pointer: "/deviceId", message: "expected this installation's device id (a lowercase UUID)")
        }
        guard let name = json["name"]?.stringValue, !name.isEmpty else {
            throw TripFileError(.invalid, file: file, pointer: "/name", message: "expected the device's name")
        }
        guard let highWater = json["highWater"]?.intValue, highWater >= 0 else {
            throw TripFileError(.invalid, file: file, pointer: "/highWater", message: "expected a non-negative integer")
        }
        self.init(deviceID: id, name: name, highWater: UInt64(highWater))
    }
}
