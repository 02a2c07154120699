/// The library's one error value: what a public call throws when the error met below it is
/// not one of the app's own error types, what a sync reports for a trip it could not sync, and
/// what a watch reports for a failed round (docs/DESIGN.md, "One door"). A caller switches on
/// `errorKind` (with a `default`), words it from `facts`, or shows `message`.
///
/// ```swift
/// do { _ = try home.sync() }
/// catch let error as TripError where error.errorKind == .notFound { … }   // no last folder yet
/// ```
public struct TripError: TripSyncError, Hashable {
    /// What went wrong, to switch on.
    public var errorKind: TripSyncErrorKind
    /// The facts a face words it with.
    public var facts: ErrorFacts
    /// What went wrong, in words.
    public var message: String
    /// The message.
    public var description: String { message }

    /// An error of `kind` with `facts`, said as `message`.
    public init(_ kind: TripSyncErrorKind, facts: ErrorFacts = ErrorFacts(), message: String) {
        errorKind = kind
        self.facts = facts
        self.message = message
    }

    /// `error` as a value: its kind, facts and description when it is a library error (a
    /// `TripError` as it is), else `.refused` with its description.
    package init(_ error: any Error) {
        switch error {
        case let error as TripError: self = error
        case let error as any TripSyncError: self.init(error.errorKind, facts: error.facts, message: error.description)
        default: self.init(.refused, message: "\(error)")
        }
    }
}
