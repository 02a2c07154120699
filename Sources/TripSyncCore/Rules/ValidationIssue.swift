import Foundation

/// One problem found in a file: where (a JSON Pointer) and what was expected.
public struct ValidationIssue: Hashable, Sendable, CustomStringConvertible {
    /// How serious a problem is (an app reads it from the list the issue is in:
    /// `ValidationReport.errors` or `.warnings`, `LoadedTrip.warnings`).
    package enum Severity: String, Hashable, Sendable {
        /// The file is refused.
        case error
        /// The file is accepted; a person should know.
        case warning
    }

    /// Error or warning.
    package var severity: Severity
    /// RFC 6901 JSON Pointer of the offending value ("" for the whole file).
    public var pointer: String
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an issue.
    package init(_ severity: Severity, pointer: String, message: String) {
        self.severity = severity
        self.pointer = pointer
        self.message = message
    }

    /// `pointer: message`, or just the message for a problem with the whole file.
    public var description: String {
        pointer.isEmpty ? message : pointer + ": " + message
    }
}

/// A step in a JSON Pointer. Trivially copyable (no reference-counted payload), so pushing
/// and popping it while decoding 100,000 items costs no retain or release.
enum PathComponent {
    case key(StaticString)
    /// An arbitrary key, by its index in the decoder's table of names.
    case name(Int)
    case id(Identifier)
    case index(Int)

    /// The escaped pointer token (`~` → `~0`, `/` → `~1`).
    func token(names: [String]) -> String {
        switch self {
        case .key(let key): return key.description
        case .name(let index):
            let name = index < names.count ? names[index] : ""
            return name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        case .id(let id): return id.description
        case .index(let index): return String(index)
        }
    }
}

/// Builds JSON Pointers from components.
enum JSONPointer {
    /// The pointer text of a path.
    static func string(_ path: [PathComponent], names: [String] = []) -> String {
        path.map { "/" + $0.token(names: names) }.joined()
    }
}
