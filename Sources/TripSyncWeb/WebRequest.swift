/// A request as the pages see it: parsed by libmicrohttpd (headers, cookies, query, form).
public struct WebRequest: Sendable {
    /// `GET`, `HEAD` or `POST`.
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query's values.
    public var query: [String: String]
    /// The headers, by lowercased name.
    public var headers: [String: String]
    /// The cookies.
    public var cookies: [String: String]
    /// A POSTed form's text values.
    public var form: [String: String]
    /// A POSTed form's files.
    public var uploads: [WebUpload]
    /// The session's anti-forgery token, which every form of its pages carries.
    public var csrf: String = ""
    /// The session's cookie value (a key for messages kept across a redirect).
    var session: String = ""

    /// The path's parts between slashes (`/trips/ab/items` → `["trips", "ab", "items"]`).
    var parts: [String] { path.split(separator: "/").map(String.init) }

    /// The form value `name`, or "" when absent.
    func field(_ name: String) -> String { form[name] ?? "" }
}
