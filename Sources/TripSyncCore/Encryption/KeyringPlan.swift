/// What a laptop holding the owner key publishes as its keyring (docs/DESIGN.md, "Encryption:
/// the keyring"), decided from state alone, so laptops that see the same keyrings and the same
/// membership decide the same:
///
/// - The current epoch is the greatest (number, id) among every epoch key this laptop holds.
///   Two rotations made at once give two keys of one number; every laptop picks the same one,
///   and each keeps the other in its history, so both stay readable.
/// - A new epoch starts when a device the current key was sealed to (by any valid keyring) is
///   no current member any more (a removal, a retired predecessor), or when the owner asked
///   (`members rotate`). Its number is one above the current.
/// - Otherwise the laptop's own keyring is written again when it is missing, names another
///   epoch, seals to other devices than the current members, or lacks a key this laptop holds.
package enum KeyringPlan {
    /// What to publish.
    package enum Action: Sendable {
        /// The own keyring is up to date.
        case keep
        /// Write the own keyring with this current epoch.
        case publish(EpochKey)
        /// Start this new epoch and write the own keyring with it.
        case rotate(EpochKey)
    }

    /// The current epoch among `keys`: the greatest number, then the greatest id.
    package static func current(_ keys: [EpochKey]) -> EpochKey? {
        keys.max { $0.precedes($1) }
    }

    /// The action for a laptop holding `known` epoch keys, where the valid keyrings of the
    /// folder seal the current epoch to `recipients` (their union), the trip's current members
    /// with encryption keys are `members`, and this laptop's own keyring holds the epochs
    /// `ownHeld` with the current one sealed to `ownRecipients` (nil: no own keyring).
    package static func decide(
        known: [EpochKey], recipients: Set<DeviceID>, members: Set<DeviceID>, rotateAsked: Bool, ownCurrent: String?,
        ownHeld: Set<String>, ownRecipients: Set<DeviceID>
    ) -> Action {
        guard let current = current(known) else { return .rotate(EpochKey.generate(epoch: 1)) }
        // At the last epoch number (2^40, only a keyring signed by the owner key can name it)
        // a new epoch cannot be numbered: the current key is kept and published as it is.
        if rotateAsked || !recipients.isSubset(of: members), current.epoch < EpochKey.maximumEpoch {
            return .rotate(EpochKey.generate(epoch: current.epoch + 1))
        }
        if ownCurrent != current.id || ownRecipients != members || !Set(known.map(\.id)).isSubset(of: ownHeld) {
            return .publish(current)
        }
        return .keep
    }
}
