/// The server could not start.
public struct WebServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words.
    public var description: String
    init(_ description: String) { self.description = description }
}
