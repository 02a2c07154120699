import TripSyncPlatform

/// Why a trip file was refused. Every case names the file; `message` is what a person reads.
package struct TripFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of refusal, for callers that act on it.
    package enum Kind: Hashable, Sendable {
        /// The file could not be opened or read (missing, permissions, a folder).
        case unreadable
        /// The file (or what it inflates to) is larger than the limits allow.
        case tooLarge
        /// The gzip data is truncated or corrupt (bad header, CRC or length).
        case corruptGzip
        /// The bytes are not strict JSON (syntax, UTF-8, nesting, trailing bytes).
        case notJSON
        /// The JSON does not follow the schema; `issues` lists every problem.
        case invalid
        /// Written by a newer TripSync than this build reads.
        case newerSchema(found: Int, supported: Int)
        /// A schema version this build never knew (0, negative).
        case unsupportedSchema(found: Int)
        /// An older file that cannot be migrated forward; `issues` says which item and why.
        case migrationFailed
        /// A sealed file (an owned trip's, docs/FORMAT.md "Sealed files") whose envelope and
        /// signature are valid but whose epoch key this reader does not hold: its contents can be
        /// read only with the keys of a member of the trip.
        case sealed(epoch: Int)
    }

    /// The kind of refusal.
    package var kind: Kind
    /// The file's path as the user gave it (or a label such as `<stdin>`).
    package var file: String
    /// Every problem found, each with a JSON Pointer; errors first.
    package var issues: [ValidationIssue]

    /// Creates an error.
    package init(_ kind: Kind, file: String, issues: [ValidationIssue]) {
        self.kind = kind
        self.file = file
        self.issues = issues
    }

    /// Creates an error with one issue at `pointer`.
    package init(_ kind: Kind, file: String, pointer: String = "", message: String) {
        self.init(kind, file: file, issues: [ValidationIssue(.error, pointer: pointer, message: message)])
    }

    /// Whether the file is sealed and no key that opens it was at hand (`Kind.sealed`).
    package var isSealed: Bool {
        if case .sealed = kind { return true }
        return false
    }

    /// The error issues only.
    package var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }

    /// One line per error: `FILE: /pointer: message`.
    package var description: String { lines.joined(separator: "\n") }

    /// The lines of `description`, one per error (a file name holding a newline stays in its
    /// line, so a printer need not split the description).
    package var lines: [String] {
        let shown = errors.isEmpty ? issues : errors
        if shown.isEmpty { return ["\(file): refused"] }
        return shown.map { "\(file): \($0)" }
    }
}

extension TripFileError: TripSyncError {
    /// `.sealedFile` for a sealed file this reader holds no key for, `.invalidFile` otherwise.
    package var errorKind: TripSyncErrorKind {
        if case .sealed = kind { return .sealedFile }
        return .invalidFile
    }
    /// The file and the first error's pointer.
    package var facts: ErrorFacts { ErrorFacts(file: file, pointer: (errors.first ?? issues.first)?.pointer) }
    /// Each error (each issue when there is no error), with the file and its pointer.
    package var problems: [TripError] {
        (errors.isEmpty ? issues : errors).map { TripError(.invalidFile, facts: ErrorFacts(file: file, pointer: $0.pointer), message: $0.message) }
    }
}
