import Foundation
import TripSync
import TripSyncCore
import TripSyncHome
import TripSyncWeb

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tripsync-bench web [--items 500] [--repeat 50] [--other-trips 0] [--upload-mb 48]`: the `tripsync open` server
/// (issue 28) on a trip of ITEMS items in a temporary home (beside OTHER-TRIPS more trips of
/// ITEMS items each, as a home keeps past trips), started in this process through `TripSyncWeb`
/// exactly as the CLI starts it, and asked over loopback by a URLSession client holding the
/// session cookie: the itinerary page rendered (GET), and a write's round trip (the Add form
/// POSTed with its anti-forgery token and Origin → 303 → GET of the page it leads to). Each is
/// repeated REPEAT times after warm-up requests; median and 90th percentile are printed. Then an
/// upload of UPLOAD-MB megabytes (multipart POST to an item's attachments → 303), three times,
/// each timed whole (0 skips it): the body is read by libmicrohttpd's post processor in pieces.
enum WebBenchmark {
    static let usage = "usage: tripsync-bench web [--items N] [--repeat R] [--other-trips N] [--upload-mb MB]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var items = 500
        var repeats = 50
        var otherTrips = 0
        var uploadMB = 48
        while let option = parser.nextOption() {
            switch option {
            case "--upload-mb": uploadMB = try parser.positiveInt(for: option)
            case "--other-trips": otherTrips = try parser.positiveInt(for: option)
            case "--items": items = try parser.positiveInt(for: option)
            case "--repeat": repeats = try parser.positiveInt(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        let root = NSTemporaryDirectory() + "tripsync-web-bench-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = Home(path: root + "/home")
        for number in 0..<otherTrips { try makeTrip(in: home, items: items, name: "Past trip \(number + 1)") }
        try makeTrip(in: home, items: items)

        let server = try WebServer(app: WebApp(home: home), port: 0)
        defer { server.stop() }
        let client = WebClient(origin: String(server.url.dropLast()))

        // A sign-in as `open` hands it to the browser: the token for the cookie, then the trips page.
        try client.signIn(server.url + "?token=" + server.app.security.mintLogin())
        let trips = try client.get("/")
        guard let tripLink = firstLink(in: trips.body, containing: tripName) else {
            throw BenchError("the trips page (\(trips.status), after \(trips.redirects) redirect(s)) names no link to \"\(tripName)\": \(trips.body.prefix(300))")
        }
        let itineraryPath = tripLink
        let page = try client.get(itineraryPath)
        guard page.status == 200 else { throw BenchError("GET \(itineraryPath) answered \(page.status)") }
        var form = try AddForm(page: page.body)

        // Page render: GET the itinerary.
        var render: [Double] = []
        for round in 0..<(repeats + 3) {
            let (response, milliseconds) = try client.timedGet(itineraryPath)
            guard response.status == 200 else { throw BenchError("GET \(itineraryPath) answered \(response.status)") }
            if round >= 3 { render.append(milliseconds) }
        }
        // Write round trip: POST the Add form (303), then GET the page it leads to. Each Add
        // carries the one-time form key of the page the last one led to, as a browser's would
        // (a key used twice is answered as a double click and adds nothing).
        var writes: [Double] = []
        for round in 0..<(repeats + 3) {
            let body = form.body(title: "Bench write \(round)", day: "12 Jun", time: "10:\(String(format: "%02d", round % 60))")
            let (response, milliseconds) = try client.timedPost(form.action, body: body)
            guard response.status == 200, response.redirects == 1 else {
                throw BenchError("the Add POST answered \(response.status) after \(response.redirects) redirect(s), not 303 → 200: \(response.body.range(of: "id=\"add-h\"").map { String(response.body[$0.upperBound...].prefix(400)) } ?? "")")
            }
            if round >= 3 { writes.append(milliseconds) }
            form = try AddForm(page: response.body)
        }
        // Upload: a file of UPLOAD-MB megabytes to the first item, three times.
        var uploads: [Double] = []
        if uploadMB > 0 {
            guard let itemPath = firstItemPath(in: page.body) else { throw BenchError("the itinerary links to no item") }
            var bytes = [UInt8](repeating: 0, count: uploadMB * 1_000_000)
            for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index >> 12) }
            for round in 0..<3 {
                let (response, milliseconds) = try client.timedUpload(itemPath + "/attachments", csrf: form.csrf, name: "upload-\(round).bin", bytes: bytes)
                guard response.status == 200, response.redirects == 1 else { throw BenchError("the upload answered \(response.status) after \(response.redirects) redirect(s)") }
                uploads.append(milliseconds)
            }
        }
        let itemsNow = try TripStore.open(tripName, in: home, timeout: 30).document.items.count
        guard itemsNow == items + repeats + 3 else {
            throw BenchError("the trip holds \(itemsNow) items after \(repeats + 3) Adds to \(items): a write was not made, so the figures measure something else")
        }
        let others = otherTrips == 0 ? "" : " beside \(otherTrips) other trip\(otherTrips == 1 ? "" : "s") of as many items"
        print("tripsync open: a \(items)-item trip\(others) (\(page.body.utf8.count / 1024) KiB itinerary page), loopback, one client, \(ProcessInfo.processInfo.activeProcessorCount) cores; \(repeats) runs each after 3 warm-up")
        print("  page render (GET itinerary, 200):            median \(format(Stats.median(render))) ms, p90 \(format(percentile(render, 0.9))) ms")
        print("  write round trip (POST Add → 303 → GET):     median \(format(Stats.median(writes))) ms, p90 \(format(percentile(writes, 0.9))) ms")
        if !uploads.isEmpty {
            print("  upload of \(uploadMB) MB (POST multipart → 303 → GET), 3 runs: \(uploads.map { String(format: "%.2f", $0 / 1000) }.joined(separator: ", ")) s")
        }
        print("  (the trip held \(itemsNow) items after the writes)")
    }

    static let tripName = "Bench trip"

    /// A trip of `items` timed items over 10 days, made through the app API and saved; the
    /// store (and the home's lock) is released before the server starts.
    static func makeTrip(in home: Home, items: Int, name: String = tripName) throws {
        let store = try TripStore.create(name: name, defaultZone: "Europe/Lisbon", owned: true, in: home)
        try store.edit { trip in
            for number in 0..<items {
                guard let date = LocalDate(year: 2027, month: 6, day: 1 + number % 10),
                    let at = LocalDateTime(date: date, hour: 7 + (number / 10) % 15, minute: (number * 7) % 60)
                else { throw BenchError("no date for item \(number)") }
                _ = try trip.addItem(
                    NewItem(
                        title: "Item \(number): a walk, a meal or a train", sortKey: "",
                        start: .local(at, zone: "Europe/Lisbon"), place: "Rua \(number), Lisboa",
                        note: number % 3 == 0 ? "Book ahead; bring the passes." : nil), at: .last)
            }
        }
    }

    /// The path of the first item's page the itinerary links to.
    static func firstItemPath(in html: String) -> String? {
        guard let match = html.firstMatch(of: #/href="(/trips/[^"/]+/items/[^"#/]+)"/#) else { return nil }
        return String(match.1)
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))
        return sorted[index]
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.2f", milliseconds) }

    /// The href of the first link whose text contains `text` (HTML-escaped).
    static func firstLink(in html: String, containing text: String) -> String? {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;")
        var rest = html[...]
        while let start = rest.range(of: "<a href=\"") {
            let after = rest[start.upperBound...]
            guard let quote = after.firstIndex(of: "\""), let close = after.range(of: "</a>") else { return nil }
            let href = String(after[..<quote])
            if after[..<close.lowerBound].contains(escaped) { return href.replacingOccurrences(of: "&amp;", with: "&") }
            rest = after[close.upperBound...]
        }
        return nil
    }
}

/// The Add form of the itinerary page, read as the browser reads it: its action, its
/// anti-forgery token, and the field names its labels name.
struct AddForm {
    var action: String
    var csrf: String
    var names: [String: String]  // label → field name
    var hidden: [(String, String)]

    init(page: String) throws {
        // The form holding the Add button.
        guard let button = page.range(of: ">Add</button>"),
            let open = page[..<button.lowerBound].range(of: "<form", options: .backwards)
        else { throw BenchError("the itinerary has no form with an Add button") }
        let form = String(page[open.lowerBound..<button.upperBound])
        guard let action = Self.attribute("action", in: form) else { throw BenchError("the Add form has no action") }
        self.action = action.replacingOccurrences(of: "&amp;", with: "&")
        hidden = []
        var rest = form[...]
        while let start = rest.range(of: "<input type=\"hidden\"") {
            let tag = rest[start.lowerBound...].prefix { $0 != ">" }
            if let name = Self.attribute("name", in: String(tag)), let value = Self.attribute("value", in: String(tag)) {
                hidden.append((name, value))
            }
            rest = rest[start.upperBound...]
        }
        guard let csrf = hidden.first(where: { $0.0 == "csrf" })?.1 else { throw BenchError("the Add form has no csrf field") }
        self.csrf = csrf
        names = [:]
        for label in ["Title", "Day", "Time", "Zone"] {
            guard let labelTag = form.range(of: ">\(label)</label>"),
                let forStart = form[..<labelTag.lowerBound].range(of: "for=\"", options: .backwards)
            else { throw BenchError("the Add form has no label \(label)") }
            let id = form[forStart.upperBound...].prefix { $0 != "\"" }
            guard let control = form.range(of: "id=\"\(id)\""),
                let name = Self.attribute("name", in: String(form[control.lowerBound...].prefix { $0 != ">" }))
            else { throw BenchError("no control for the label \(label)") }
            names[label] = name
        }
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        return String(tag[start.upperBound...].prefix { $0 != "\"" })
    }

    func body(title: String, day: String, time: String) -> Data {
        var pairs = hidden
        pairs.append((names["Title"] ?? "title", title))
        pairs.append((names["Day"] ?? "day", day))
        pairs.append((names["Time"] ?? "time", time))
        pairs.append((names["Zone"] ?? "zone", "Europe/Lisbon"))
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = pairs.map { pair in
            let key = pair.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? pair.0
            let value = pair.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? pair.1
            return key + "=" + value
        }.joined(separator: "&")
        return Data(text.utf8)
    }
}

/// One browser-like client: the session cookie sent with every request (set by hand: the
/// corelibs URLSession does not carry a cookie set by a redirect), redirects followed (counted),
/// requests timed from sending to the last byte of the final response.
final class WebClient: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    struct Response {
        var status: Int
        var body: String
        var redirects: Int
    }

    let origin: String
    private var session: URLSession!
    private let lock = NSLock()
    private var redirects = 0
    private var cookie: String?
    private var follow = true

    init(origin: String) {
        self.origin = origin
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let (follow, cookie): (Bool, String?) = lock.withLock {
            redirects += 1
            return (self.follow, self.cookie)
        }
        guard follow else { return completionHandler(nil) }
        var next = request
        if let cookie { next.setValue(cookie, forHTTPHeaderField: "Cookie") }
        completionHandler(next)
    }

    /// Opens the printed URL (not following its redirect) and keeps the cookie it sets.
    func signIn(_ url: String) throws {
        guard let address = URL(string: url) else { throw BenchError("bad URL \(url)") }
        lock.withLock { follow = false }
        defer { lock.withLock { follow = true } }
        let (response, _, headers) = try exchange(URLRequest(url: address))
        let setCookie = headers.first { $0.key.lowercased() == "set-cookie" }?.value
        guard let setCookie, let pair = setCookie.split(separator: ";").first else {
            throw BenchError("the printed URL answered \(response.status) and set no cookie")
        }
        lock.withLock { cookie = String(pair) }
    }

    func get(_ path: String) throws -> Response { try timedGet(path).0 }

    func timedGet(_ path: String) throws -> (Response, Double) {
        guard let url = URL(string: path, relativeTo: URL(string: origin)) else { throw BenchError("bad path \(path)") }
        return try send(URLRequest(url: url))
    }

    func timedPost(_ path: String, body: Data) throws -> (Response, Double) {
        guard let url = URL(string: path, relativeTo: URL(string: origin)) else { throw BenchError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue(origin, forHTTPHeaderField: "Origin")
        return try send(request)
    }

    /// A multipart POST of one file, as a browser sends the upload form.
    func timedUpload(_ path: String, csrf: String, name: String, bytes: [UInt8]) throws -> (Response, Double) {
        guard let url = URL(string: path, relativeTo: URL(string: origin)) else { throw BenchError("bad path \(path)") }
        let boundary = "----tripsyncbench\(UInt32.random(in: 0...UInt32.max))"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += Data(bytes)
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.timeoutInterval = 600
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        request.setValue(origin, forHTTPHeaderField: "Origin")
        return try send(request)
    }

    private func send(_ request: URLRequest) throws -> (Response, Double) {
        var request = request
        if let cookie = lock.withLock({ cookie }) { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        let (response, milliseconds, _) = try exchange(request)
        return (response, milliseconds)
    }

    private func exchange(_ request: URLRequest) throws -> (Response, Double, [String: String]) {
        final class Outcome: @unchecked Sendable {
            var data: Data?
            var response: URLResponse?
            var error: Error?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        lock.withLock { redirects = 0 }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let task = session.dataTask(with: request) { data, response, error in
            outcome.data = data
            outcome.response = response
            outcome.error = error
            done.signal()
        }
        task.resume()
        done.wait()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        if let error = outcome.error { throw BenchError("\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? ""): \(error)") }
        let status = (outcome.response as? HTTPURLResponse)?.statusCode ?? 0
        let milliseconds = Double(end.tv_sec - start.tv_sec) * 1e3 + Double(end.tv_nsec - start.tv_nsec) / 1e6
        let body = String(decoding: outcome.data ?? Data(), as: UTF8.self)
        var headers: [String: String] = [:]
        for (key, value) in (outcome.response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
            headers["\(key)"] = "\(value)"
        }
        return (Response(status: status, body: body, redirects: lock.withLock { redirects }), milliseconds, headers)
    }
}
