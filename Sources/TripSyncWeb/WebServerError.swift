/// The server could not start.
package struct WebServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words.
    package var description: String
    init(_ description: String) { self.description = description }
}
