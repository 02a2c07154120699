import TripSyncCore

/// Where a home lives: its real path, its folder's device and inode, and the machine's id. A
/// home whose binding changed was copied (or moved, or restored), so it must not go on writing
/// under the device id of the home it came from (docs/DESIGN.md, "Forks").
package struct HomeBinding: Hashable, Sendable {
    /// The home folder's real path (links resolved).
    package var path: String
    /// The file system device of the home folder.
    package var device: UInt64
    /// The inode of the home folder.
    package var inode: UInt64
    /// The machine's id (`/etc/machine-id`), when the system has one.
    package var machine: String?
    /// The home folder's birth time (`seconds.nanoseconds`), when the file system records one:
    /// a folder deleted and made again can get the same inode back, never the same birth time.
    package var born: String?

    /// Creates a binding.
    package init(path: String, device: UInt64, inode: UInt64, machine: String?, born: String? = nil) {
        self.path = path
        self.device = device
        self.inode = inode
        self.machine = machine
        self.born = born
    }

    /// Whether `self` (now) is where `recorded` was: a part either side lacks is not compared.
    func matches(_ recorded: HomeBinding) -> Bool {
        differences(from: recorded).isEmpty
    }

    /// What differs from `other`, for a person to read ("path", "folder inode", "machine").
    func differences(from other: HomeBinding) -> [String] {
        var result: [String] = []
        if path != other.path { result.append("path \(other.path) → \(path)") }
        if device != other.device || inode != other.inode { result.append("folder inode \(other.inode) → \(inode)") }
        if machine != other.machine { result.append("machine id") }
        if let born, let before = other.born, born != before { result.append("folder made again (born \(before) → \(born))") }
        return result
    }
}

/// This installation's identity: its device id, its name, and the high-water mark of its clock.
///
/// The id belongs to one installation and is never taken from an imported file. The high-water
/// mark never goes down, so a home restored from an old copy is caught (docs/DESIGN.md, "Forks").
package struct DeviceIdentity: Hashable, Sendable {
    /// The device id.
    package var deviceID: DeviceID
    /// A name a person gave this device ("Sam's laptop").
    package var name: String
    /// The largest counter this device has issued.
    package var highWater: UInt64
    /// Where the home that holds this identity lives; nil in a home written before bindings.
    package var binding: HomeBinding?
    /// The counters this installation issued under `deviceID`. A home written before this was
    /// recorded counts everything up to its high-water mark as issued.
    package var issued: IssuedCounters
    /// The ids this home wrote as before `deviceID`, oldest first (a home copied, restored or
    /// whose clock ran ahead took a new one each time; at most 32 are kept). Their writes in a
    /// replica are this home's (docs/DESIGN.md, "Clocks from the future").
    package var formerIDs: [DeviceID] = []

    /// Creates an identity.
    package init(deviceID: DeviceID, name: String, highWater: UInt64 = 0, binding: HomeBinding? = nil, issued: IssuedCounters? = nil) {
        self.deviceID = deviceID
        self.name = name
        self.highWater = highWater
        self.binding = binding
        self.issued = issued ?? (highWater > 0 ? IssuedCounters([1...highWater]) : IssuedCounters())
    }

    /// Whether a write under our id with `counter` was made by this installation: above the
    /// high-water mark nothing was, below it only what `issued` records.
    package func issuedHere(_ counter: UInt64) -> Bool {
        counter <= highWater && issued.contains(counter)
    }

    /// The identity this home takes when it must stop writing as `deviceID` (`ForkCheck`): a new
    /// random id with the same name, nothing issued under it yet. `highWater` is kept (later
    /// counters still sort after everything this home wrote), except when the clock ran ahead:
    /// then it starts afresh from the wall clock. The old id's key stays in the home
    /// (`device.key`, `previous`) to sign the succession.
    package func successor(binding: HomeBinding?, clockRanAhead: Bool = false) -> DeviceIdentity {
        var next = DeviceIdentity(deviceID: .random(), name: name, highWater: clockRanAhead ? 0 : highWater, binding: binding, issued: IssuedCounters())
        next.formerIDs = Array((formerIDs.filter { $0 != deviceID } + [deviceID]).suffix(32))
        return next
    }

    /// The `device.json` form.
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "deviceId": .string(deviceID.description), "name": .string(name), "highWater": .int(Int64(highWater)), "format": 1,
        ]
        if let binding {
            var bound: [String: JSONValue] = [
                "path": .string(binding.path), "device": .int(Int64(bitPattern: binding.device)), "inode": .int(Int64(bitPattern: binding.inode)),
            ]
            if let machine = binding.machine { bound["machine"] = .string(machine) }
            if let born = binding.born { bound["born"] = .string(born) }
            object["boundTo"] = .object(bound)
        }
        if !formerIDs.isEmpty { object["formerIds"] = .array(formerIDs.map { .string($0.description) }) }
        object["issued"] = .array(issued.ranges.map { .array([.int(Int64($0.lowerBound)), .int(Int64($0.upperBound))]) })
        return .object(object)
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
        var binding: HomeBinding?
        if let bound = json["boundTo"] {
            guard let path = bound["path"]?.stringValue, let device = bound["device"]?.intValue, let inode = bound["inode"]?.intValue else {
                throw TripFileError(
                    .invalid, file: file, pointer: "/boundTo", message: "expected {\"path\", \"device\", \"inode\"} (where this home lives)")
            }
            let machine = bound["machine"]?.stringValue
            if bound["machine"] != nil && machine == nil {
                throw TripFileError(.invalid, file: file, pointer: "/boundTo/machine", message: "expected the machine id as a string")
            }
            let born = bound["born"]?.stringValue
            if bound["born"] != nil && born == nil {
                throw TripFileError(.invalid, file: file, pointer: "/boundTo/born", message: "expected the folder's birth time as a string")
            }
            binding = HomeBinding(path: path, device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), machine: machine, born: born)
        }
        var issued: IssuedCounters?
        if let list = json["issued"] {
            guard case .array(let entries) = list else {
                throw TripFileError(.invalid, file: file, pointer: "/issued", message: "expected the issued counters as [[from, to], …]")
            }
            var ranges: [ClosedRange<UInt64>] = []
            for (index, entry) in entries.enumerated() {
                guard case .array(let pair) = entry, pair.count == 2, let low = pair[0].intValue, let high = pair[1].intValue, 0 < low, low <= high,
                    high <= highWater
                else {
                    throw TripFileError(
                        .invalid, file: file, pointer: "/issued/\(index)", message: "expected [from, to] with 0 < from <= to <= highWater")
                }
                ranges.append(UInt64(low)...UInt64(high))
            }
            issued = IssuedCounters(ranges)
        }
        var former: [DeviceID] = []
        if let list = json["formerIds"] {
            guard case .array(let entries) = list else {
                throw TripFileError(.invalid, file: file, pointer: "/formerIds", message: "expected the device ids this home wrote as before, as an array")
            }
            for (index, entry) in entries.enumerated() {
                guard let text = entry.stringValue, let old = Identifier(text) else {
                    throw TripFileError(.invalid, file: file, pointer: "/formerIds/\(index)", message: "expected a device id (a lowercase UUID)")
                }
                former.append(old)
            }
        }
        self.init(deviceID: id, name: name, highWater: UInt64(highWater), binding: binding, issued: issued)
        formerIDs = former
    }
}
