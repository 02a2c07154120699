#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment variables a function reads: the process's own (`process`, each looked up
/// with `getenv` when asked) or a fixed set (a dictionary literal, for tests). Not
/// `ProcessInfo.processInfo.environment`: that builds a dictionary of every variable at each
/// use, after making `ProcessInfo` itself, which cost every command a fifth of a millisecond
/// at start for the two or three variables it reads (docs/PERFORMANCE.md, "The replica view").
package struct ProcessEnvironment: Sendable, ExpressibleByDictionaryLiteral {
    private let fixed: [String: String]?

    /// The process's environment as it is when a variable is read.
    package static let process = ProcessEnvironment(fixed: nil)

    private init(fixed: [String: String]?) { self.fixed = fixed }

    /// A fixed environment holding exactly `elements`.
    package init(dictionaryLiteral elements: (String, String)...) {
        fixed = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The value of the variable `name`, nil when it is not set.
    package subscript(name: String) -> String? {
        if let fixed { return fixed[name] }
        return getenv(name).map { String(cString: $0) }
    }
}
