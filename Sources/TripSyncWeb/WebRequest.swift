/// A request as the pages see it: parsed by libmicrohttpd (headers, cookies, query, form).
package struct WebRequest: Sendable {
    /// `GET`, `HEAD` or `POST`.
    package var method: String
    /// The path, without the query.
    package var path: String
    /// The query's values.
    package var query: [String: String]
    /// The headers, by lowercased name.
    package var headers: [String: String]
    /// The cookies.
    package var cookies: [String: String]
    /// A POSTed form's text values.
    package var form: [String: String]
    /// A POSTed form's files.
    package var uploads: [WebUpload]
    /// The session's anti-forgery token, which every form of its pages carries.
    package var csrf: String = ""
    /// The session's cookie value (a key for messages kept across a redirect).
    var session: String = ""

    /// The form value `name`, or "" when absent.
    func field(_ name: String) -> String { form[name] ?? "" }
}
