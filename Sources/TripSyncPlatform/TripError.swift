/// The library's one error value: what every public call throws, what a sync reports for a
/// trip it could not sync, and what a watch reports for a failed round (docs/DESIGN.md, "One
/// door" and "The public API an app reads"). A caller switches on `errorKind` (with a
/// `default`), words it from `facts`, or shows `message`; a refused file lists each of its
/// problems, with its JSON Pointer, in `problems`.
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
    /// Each problem of a refused file (kind `.invalidFile`): its file and JSON Pointer in
    /// `facts`, what is wrong in `message`. Empty for other errors.
    public var problems: [TripError]
    /// The error of the library's own type this one was made from, for the package's faces,
    /// which word some of them from more than the kind and facts (the CLI's words for a file's
    /// refusal, a trip's selector, a save that reached its place). Nil for an error made as a
    /// `TripError`.
    package var cause: (any TripSyncError)?
    /// The message.
    public var description: String { message }

    /// An error of `kind` with `facts`, said as `message`.
    public init(_ kind: TripSyncErrorKind, facts: ErrorFacts = ErrorFacts(), message: String) {
        errorKind = kind
        self.facts = facts
        self.message = message
        problems = []
        cause = nil
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

    /// `error`, an error of one of the library's own types, as the one public error value: its
    /// kind, facts, description and problems, with `error` kept as the `cause` the faces read.
    package init(wrapping error: any TripSyncError) {
        if let error = error as? TripError {
            self = error
            return
        }
        self.init(error.errorKind, facts: error.facts, message: error.description)
        problems = error.problems
        cause = error
    }

    /// The error a face words: the `cause` of a `TripError` made from one of the library's own
    /// types, else `error` as it is.
    package static func cause(of error: any Error) -> any Error {
        (error as? TripError)?.cause ?? error
    }

    /// Equal when the kind, facts, message and problems are.
    public static func == (lhs: TripError, rhs: TripError) -> Bool {
        lhs.errorKind == rhs.errorKind && lhs.facts == rhs.facts && lhs.message == rhs.message && lhs.problems == rhs.problems
    }

    /// Hashes the kind, facts, message and problems.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(errorKind)
        hasher.combine(facts)
        hasher.combine(message)
        hasher.combine(problems)
    }
}
