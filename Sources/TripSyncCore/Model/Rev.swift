/// A revision `[counter, deviceId]`: the stamp of one write, also called a *dot*.
///
/// Revs are totally ordered by counter, then by device id. The counter comes from the writing
/// replica's hybrid logical clock, so a later write on one device always has a greater counter.
package struct Rev: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The hybrid logical clock counter, 1 … 2^53.
    package var counter: UInt64
    /// The device that made the write.
    package var device: DeviceID

    /// Creates a rev (the engine's and the faces'; an app reads the revs of what it was shown).
    package init(counter: UInt64, device: DeviceID) {
        self.counter = counter
        self.device = device
    }

    /// Orders by counter, then device id.
    package static func < (lhs: Rev, rhs: Rev) -> Bool {
        lhs.counter != rhs.counter ? lhs.counter < rhs.counter : lhs.device < rhs.device
    }

    /// `[counter, "device"]`.
    package var description: String { "[\(counter), \(device)]" }

    /// The largest counter a document may hold (2^53, the largest integer every JSON reader keeps exactly).
    package static let maxCounter: UInt64 = 1 << 53
}
