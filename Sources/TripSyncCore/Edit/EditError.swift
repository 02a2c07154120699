import TripSyncPlatform

/// Why a local edit was refused. Nothing was written when one is thrown.
package struct EditError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for a caller to switch on.
    package enum Kind: Hashable, Sendable {
        /// A value readers would refuse or no person means (a too-long or blank title, a control
        /// character, a zone that is not in the tz database, an invalid order key).
        case invalidValue
        /// An end before its start.
        case endBeforeStart
        /// No item has that id (or id prefix).
        case noSuchItem
        /// The item is deleted (restore it first).
        case itemDeleted
        /// The item is live, so it cannot be restored.
        case itemNotDeleted
        /// An item with that id exists already.
        case itemExists
        /// An id prefix that matches several items.
        case ambiguousItem
        /// An id prefix shorter than `ItemLookup.minimumPrefix`.
        case shortItemPrefix
        /// The field holds no conflict to resolve.
        case noConflict
        /// "Keep mine" was asked, but this device wrote none of the values.
        case noValueOfMine
        /// No order key fits at the asked place (a neighbour's key is at the edge of the space).
        case noRoom
        /// This replica's clock has run more than 24 hours ahead of the wall clock.
        case clockAhead
        /// This device may not write to the trip (a viewer, a removed member, or not yet admitted).
        case notAllowed
        /// No attachment has that id (or id prefix).
        case noSuchAttachment
        /// The attachment is detached (restore it first).
        case attachmentDetached
        /// The attachment is not detached, so it cannot be restored.
        case attachmentNotDetached
        /// A move the order cannot make: the order only settles items of the same time, so the
        /// item's time is what to change.
        case orderNeedsTime
    }

    /// What went wrong.
    package var kind: Kind
    /// What happened, in words.
    package var message: String
    /// What would fix it, in words (never a face's command; `TripSyncError`).
    package var remedy: String?
    /// The item or attachment as named, and what kind of thing it is.
    package var facts: ErrorFacts

    /// Creates an error of `kind`.
    package init(_ kind: Kind, _ message: String, remedy: String? = nil, facts: ErrorFacts = ErrorFacts()) {
        self.kind = kind
        self.message = message
        self.remedy = remedy
        self.facts = facts
    }

    /// An `.invalidValue` error.
    package init(_ message: String) {
        self.init(.invalidValue, message)
    }

    /// The message, then the remedy.
    package var description: String { message + (remedy.map { "; " + $0 } ?? "") }
}

extension EditError: TripSyncError {
    /// The shared code of `kind`.
    package var errorKind: TripSyncErrorKind {
        switch kind {
        case .noSuchItem, .noSuchAttachment: .notFound
        case .ambiguousItem: .ambiguous
        case .itemDeleted: .itemDeleted
        case .notAllowed: .notAllowed
        case .invalidValue, .endBeforeStart, .shortItemPrefix: .invalidValue
        case .orderNeedsTime: .orderNeedsTime
        default: .refused
        }
    }
}
