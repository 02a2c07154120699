import Foundation
import TripSync
import TripSyncWeb
import TripSyncCore
import TripSyncHome
import TripSyncSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response read off the socket: status, headers (lowercased names, every value), body.
struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
    func all(_ name: String) -> [String] { headers.filter { $0.0 == name.lowercased() }.map(\.1) }
}

/// A home with one trip and a server on it, started in this process, and a raw HTTP client:
/// requests are written byte for byte to a socket, so each refusal is checked as an attacker's
/// request would arrive.
final class WebHarness {
    let folder: String
    let home: Home
    let trip: TripID
    let server: WebServer
    var port: UInt16 { server.port }
    /// The one Host the server answers to: the home's own `LABEL.localhost:PORT`.
    var host: String { "\(server.app.security.origin.hostName):\(port)" }
    var origin: String { "http://" + host }
    /// The home's own cookie name.
    var cookieName: String { server.app.security.cookieName }

    /// A home with one trip, served. `otherTrips` are made in the same home first; `onRead` is
    /// told every replica and identity file the server's home reads.
    init(
        tripName: String = "Lisbon 2027", zone: String = "Europe/Lisbon", otherTrips: [String] = [],
        onRead: (@Sendable (String) -> Void)? = nil, bodyTime: Duration = WebServer.bodyTime
    ) throws {
        folder = FileManager.default.temporaryDirectory.path + "/tripsync-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var home = Home(path: folder + "/home")
        for name in otherTrips { _ = try TripStore.create(name: name, in: home) }
        trip = try TripStore.create(name: tripName, defaultZone: zone, in: home).tripID
        home.onRead = onRead
        self.home = home
        server = try WebServer(app: try WebApp(home: home), bodyTime: bodyTime)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)  // a test's own temporary folder
    }

    /// The trip as saved now.
    var document: TripDocument {
        get throws { try TripFileReader().read(path: home.replicaPath(for: trip)).document }
    }

    /// A new TCP connection to the server on 127.0.0.1 (the caller closes it).
    func connection() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw HarnessError("connect failed")
        }
        return fd
    }

    /// Writes `text` to a new connection and reads the whole response (the request asks the
    /// server to close).
    func raw(_ text: String) throws -> RawResponse {
        try raw(bytes: Array(text.utf8))
    }

    /// `raw` of bytes (a body need not be UTF-8).
    func raw(bytes: [UInt8], seconds: Int = 10) throws -> RawResponse {
        let fd = try connection()
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw HarnessError("send failed") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let whole = String(decoding: received, as: UTF8.self)
        guard let split = whole.range(of: "\r\n\r\n") else { throw HarnessError("no response: \(whole)") }
        let lines = whole[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw HarnessError("bad status line \(lines[0])") }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return RawResponse(status: status, headers: headers, body: String(whole[split.upperBound...]))
    }

    /// A GET with the given headers (Host is this server's unless `host` names another).
    func get(_ path: String, cookie: String? = nil, host: String? = nil, extra: [String] = []) throws -> RawResponse {
        var lines = ["GET \(path) HTTP/1.1", "Host: \(host ?? self.host)", "Connection: close"]
        if let cookie { lines.append("Cookie: \(cookieName)=\(cookie)") }
        lines += extra
        return try raw(lines.joined(separator: "\r\n") + "\r\n\r\n")
    }

    /// A urlencoded POST; `origin` nil sends none.
    func post(_ path: String, cookie: String?, origin: String?, form: [(String, String)], host: String? = nil, extra: [String] = []) throws -> RawResponse {
        let body = form.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        var lines = ["POST \(path) HTTP/1.1", "Host: \(host ?? self.host)", "Connection: close", "Content-Type: application/x-www-form-urlencoded",
            "Content-Length: \(body.utf8.count)"]
        if let cookie { lines.append("Cookie: \(cookieName)=\(cookie)") }
        if let origin { lines.append("Origin: \(origin)") }
        lines += extra
        return try raw(lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
    }

    /// A multipart POST of one file and text fields.
    func upload(_ path: String, cookie: String, fields: [(String, String)], file: (name: String, bytes: [UInt8])) throws -> RawResponse {
        try upload(path, cookie: cookie, fields: fields, files: [("file", file.name, file.bytes)])
    }

    /// A multipart POST of files (field, name, bytes) and text fields; `seconds` bounds each
    /// send and receive.
    func upload(_ path: String, cookie: String, fields: [(String, String)], files: [(field: String, name: String, bytes: [UInt8])], seconds: Int = 10) throws -> RawResponse {
        let boundary = "----tripsyncboundary7MA4YWxkTrZu0gW"
        var body: [UInt8] = []
        for (key, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(key)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            body += file.bytes
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let head = ["POST \(path) HTTP/1.1", "Host: \(host)", "Connection: close", "Content-Type: multipart/form-data; boundary=\(boundary)",
            "Content-Length: \(body.count)", "Cookie: \(cookieName)=\(cookie)", "Origin: \(origin)"].joined(separator: "\r\n") + "\r\n\r\n"
        return try raw(bytes: Array(head.utf8) + body, seconds: seconds)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// Signs in with the one-time token: the session cookie's value.
    /// A second laptop (`folder/other`) that joined this trip as an editor through `shared`,
    /// after both synced there once (this home through the library, not the page).
    func joinSecondLaptop(through shared: String) throws -> Home {
        let other = Home(path: folder + "/other")
        let code: InviteCode = try {
            let store = try TripStore.open(trip.description, in: home)
            return try store.invite(role: .editor)
        }()
        _ = try other.openIdentity()
        _ = try TripStore.join(code: code, folder: shared, in: other)
        _ = try FolderSync(home: home, folder: shared).run()
        _ = try FolderSync(home: other, folder: shared).run()
        return other
    }

    func signIn() throws -> String {
        let response = try get("/?token=" + server.app.security.mintLogin())
        guard let cookie = response.header("set-cookie"), let start = cookie.range(of: cookieName + "=") else {
            throw HarnessError("no cookie: \(response.status)")
        }
        return String(cookie[start.upperBound...].prefix { $0 != ";" })
    }

    /// The anti-forgery token the trip page's forms carry.
    func csrf(cookie: String) throws -> String {
        let page = try get("/trips/\(trip)", cookie: cookie)
        guard let range = page.body.range(of: "name=\"csrf\" value=\"") else { throw HarnessError("no csrf on the page") }
        return String(page.body[range.upperBound...].prefix { $0 != "\"" })
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
