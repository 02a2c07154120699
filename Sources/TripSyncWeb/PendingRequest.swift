import CMicroHTTPD
import Foundation

/// A request while libmicrohttpd delivers it: its headers (read at once), and its form, which
/// libmicrohttpd's post processor parses from the body (urlencoded or multipart) piece by piece.
/// Each piece is appended in place (a value is never copied out and back, which made a 48 MB
/// upload quadratic), and every byte of the form counts against one cap for the whole request:
/// names, values and files alike, each field costing `fieldCost` more however empty it is.
final class PendingRequest {
    /// The most one request's form may hold: every file, name and value together.
    static let requestLimit = 64 << 20
    /// The most its text (names and values of fields that are not files) may hold.
    static let textLimit = 1 << 20
    /// What each field costs beyond its bytes, so a million empty names are not free.
    static let fieldCost = 64

    /// When the request's headers were read.
    let started = ContinuousClock.now

    let connection: OpaquePointer
    let method: String
    let path: String
    let headers: [String: String]
    let cookies: [String: String]
    let query: [String: String]
    var postProcessor: OpaquePointer?
    var refusal: WebResponse?
    private var fields: [String: [UInt8]] = [:]
    private var files: [String: WebUpload] = [:]
    private var textBytes = 0
    private var formBytes = 0

    init(connection: OpaquePointer, method: String, url: String) {
        self.connection = connection
        self.method = method
        path = url
        headers = Self.values(connection, .HEADER_KIND, lowercased: true)
        cookies = Self.values(connection, .COOKIE_KIND, lowercased: false)
        query = Self.values(connection, .GET_ARGUMENT_KIND, lowercased: false)
    }

    deinit {
        if let postProcessor { _ = MHD_destroy_post_processor(postProcessor) }
    }

    /// Makes the post processor (nil when the body is not a form libmicrohttpd reads). A body
    /// announced larger than the cap is refused before a byte of it is read.
    func startBody() {
        if let length = headers["content-length"].flatMap({ Int($0) }), length > Self.requestLimit {
            refusal = Self.tooLarge
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        postProcessor = MHD_create_post_processor(connection, 16 * 1024, webPostIterator, context)
    }

    static var tooLarge: WebResponse {
        WebResponse.text(413, "the form is larger than \(requestLimit >> 20) MiB (its files and fields together)")
    }

    /// Hands a piece of the body to the post processor.
    func feed(_ bytes: UnsafePointer<CChar>, count: Int) {
        guard let postProcessor else { return }
        if MHD_post_process(postProcessor, bytes, count) != .YES, refusal == nil {
            refusal = refusal ?? WebResponse.text(400, "the form could not be read")
        }
    }

    /// One piece of one form value (libmicrohttpd calls this in order, offset by offset; a
    /// value's first piece has offset 0, and that call pays for the field's name).
    fileprivate func take(key: String, filename: String?, data: UnsafePointer<CChar>?, offset: UInt64, size: Int) -> Bool {
        guard refusal == nil else { return false }
        let cost = size + (offset == 0 ? key.utf8.count + (filename?.utf8.count ?? 0) + Self.fieldCost : 0)
        formBytes += cost
        if filename == nil { textBytes += cost }
        guard formBytes <= Self.requestLimit, textBytes <= Self.textLimit else {
            refusal = formBytes > Self.requestLimit ? Self.tooLarge : WebResponse.text(413, "the form's text is larger than \(Self.textLimit >> 20) MiB")
            return false
        }
        let piece = data.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: size) }
        if let filename {
            // Appended where it lies: `files[key]` is never copied out, grown and stored back.
            if files[key] == nil { files[key] = WebUpload(field: key, filename: filename, bytes: []) }
            if let piece { files[key]?.bytes.append(contentsOf: piece) }
        } else {
            if let piece { fields[key, default: []].append(contentsOf: piece) } else if fields[key] == nil { fields[key] = [] }
        }
        return true
    }

    /// The request as the app sees it.
    func request() -> WebRequest {
        if let postProcessor {
            _ = MHD_destroy_post_processor(postProcessor)
            self.postProcessor = nil
        }
        var form: [String: String] = [:]
        for (key, bytes) in fields { form[key] = String(decoding: bytes, as: UTF8.self) }
        let uploads = Array(files.values)
        files = [:]
        return WebRequest(method: method, path: path, query: query, headers: headers, cookies: cookies, form: form, uploads: uploads)
    }

    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        final class Box { var values: [String: String] = [:]; var lowercased = false }
        let box = Box()
        box.lowercased = lowercased
        let context = Unmanaged.passUnretained(box).toOpaque()
        _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return .YES }
            let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
            let name = String(cString: key)
            let text = value.map { String(cString: $0) } ?? ""
            // The first of repeated names wins (a second Host header is not a way around the check).
            let stored = box.lowercased ? name.lowercased() : name
            if box.values[stored] == nil { box.values[stored] = text }
            return .YES
        }, context)
        return box.values
    }
}

private func webPostIterator(
    _ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?, _ transferEncoding: UnsafePointer<CChar>?, _ data: UnsafePointer<CChar>?, _ offset: UInt64,
    _ size: Int
) -> MHD_Result {
    guard let context, let key else { return .NO }
    let pending = Unmanaged<PendingRequest>.fromOpaque(context).takeUnretainedValue()
    let ok = pending.take(key: String(cString: key), filename: filename.map { String(cString: $0) }, data: data, offset: offset, size: size)
    return ok ? .YES : .NO
}
