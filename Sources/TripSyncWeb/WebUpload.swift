/// A file sent with a form.
public struct WebUpload: Sendable {
    /// The form field it came in.
    public var field: String
    /// The file's name on the sender's machine.
    public var filename: String
    /// Its bytes.
    public var bytes: [UInt8]
}
