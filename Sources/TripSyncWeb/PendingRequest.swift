import CMicroHTTPD
import Foundation

/// A request while libmicrohttpd delivers it: its headers (read at once), and its form, which
/// libmicrohttpd's post processor parses from the body (urlencoded or multipart) piece by piece.
final class PendingRequest {
    /// The most a form's text fields may hold together, and the most an uploaded file may hold.
    static let textLimit = 1 << 20
    static let fileLimit = 64 << 20

    let connection: OpaquePointer
    let method: String
    let path: String
    let headers: [String: String]
    let cookies: [String: String]
    let query: [String: String]
    var postProcessor: OpaquePointer?
    var refusal: WebResponse?
    private var fields: [String: [UInt8]] = [:]
    private var files: [String: (filename: String, bytes: [UInt8])] = [:]
    private var textBytes = 0

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

    /// Makes the post processor (nil when the body is not a form libmicrohttpd reads).
    func startBody() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        postProcessor = MHD_create_post_processor(connection, 16 * 1024, webPostIterator, context)
    }

    /// Hands a piece of the body to the post processor.
    func feed(_ bytes: UnsafePointer<CChar>, count: Int) {
        guard let postProcessor else { return }
        if MHD_post_process(postProcessor, bytes, count) != .YES, refusal == nil {
            refusal = refusal ?? WebResponse.text(400, "the form could not be read")
        }
    }

    /// One piece of one form value (libmicrohttpd calls this in order, offset by offset).
    fileprivate func take(key: String, filename: String?, data: UnsafePointer<CChar>?, size: Int) -> Bool {
        guard refusal == nil else { return false }
        let piece = data.map { UnsafeRawBufferPointer(start: $0, count: size) }
        if let filename {
            var file = files[key] ?? (filename, [])
            if file.bytes.count + size > Self.fileLimit {
                refusal = WebResponse.text(413, "the file is larger than \(Self.fileLimit >> 20) MiB")
                return false
            }
            if let piece { file.bytes += piece }
            files[key] = file
        } else {
            textBytes += size
            if textBytes > Self.textLimit {
                refusal = WebResponse.text(413, "the form is too large")
                return false
            }
            if let piece { fields[key, default: []] += piece } else if fields[key] == nil { fields[key] = [] }
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
        let uploads = files.map { WebUpload(field: $0.key, filename: $0.value.filename, bytes: $0.value.bytes) }
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
    let ok = pending.take(key: String(cString: key), filename: filename.map { String(cString: $0) }, data: data, size: size)
    return ok ? .YES : .NO
}
