/// A file sent with a form.
package struct WebUpload: Sendable {
    /// The form field it came in.
    package var field: String
    /// The file's name on the sender's machine.
    package var filename: String
    /// Its bytes.
    package var bytes: [UInt8]
}
