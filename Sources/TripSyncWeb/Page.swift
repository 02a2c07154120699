import TripSync
import TripSyncCore

/// The pages' frame and the pieces every template uses, each taking and answering `HTML`: a
/// value (a title, a message, a typed text) is a `String` interpolated into a literal, so the
/// type escapes it; markup passes only as `HTML`. No text is escaped by hand and nothing here
/// turns a string into markup (`WebSourceTests` keeps it so).
enum Page {
    /// A whole page: `title`, the site header with a link home and `nav`, then `body`. `live`
    /// names the URL the page's script polls for changes (a trip's version).
    static func frame(title: String, heading: String, nav: HTML = "", live: String? = nil, version: String = "", body: HTML) -> HTML {
        var out: HTML = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(title) · TripSync</title>\n"
        out += "<link rel=\"stylesheet\" href=\"/static/app.css\">\n"
        out += "<script src=\"/static/app.js\" defer></script>\n</head>\n<body>\n"
        out += "<a class=\"skip\" href=\"#main\">Skip to the content</a>\n"
        out += "<header class=\"site\"><a class=\"home\" href=\"/\">TripSync</a>\(nav)</header>\n"
        out += "<main id=\"main\""
        if let live { out += " data-version-url=\"\(live)\" data-version=\"\(version)\"" }
        out += ">\n<h1 dir=\"auto\">\(heading)</h1>\n\(body)</main>\n</body>\n</html>\n"
        return out
    }

    /// A form that POSTs to `action` with the session's anti-forgery token; `content` is
    /// markup this program built.
    static func form(_ action: String, csrf: String, cssClass: String = "", multipart: Bool = false, _ content: HTML) -> HTML {
        let classes: HTML = cssClass.isEmpty ? "" : " class=\"\(cssClass)\""
        let encoding: HTML = multipart ? " enctype=\"multipart/form-data\"" : ""
        return "<form method=\"post\" action=\"\(action)\"\(classes)\(encoding)>\n\(hidden("csrf", csrf))\(content)</form>\n"
    }

    /// A one-button form (Delete, Restore, Keep this…): `hidden` values and a visible button.
    static func button(_ action: String, csrf: String, label: String, hidden: [(String, String)] = [], cssClass: String = "inline") -> HTML {
        let content = HTML.joined(hidden.map { Self.hidden($0.0, $0.1) }) + "<button type=\"submit\">\(label)</button>\n"
        return form(action, csrf: csrf, cssClass: cssClass, content)
    }

    /// A hidden value a form carries back (what an Edit form showed, Add's one-time key).
    static func hidden(_ name: String, _ value: String) -> HTML {
        "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">\n"
    }

    /// A labelled text field (the label visible, above the field). `error`: what is wrong with
    /// the value, shown under the label and tied to the field (`aria-invalid`, described by it).
    static func field(
        _ id: String, name: String, label: String, value: String, hint: String = "", required: Bool = false, multiline: Bool = false, error: String? = nil
    ) -> HTML {
        var out: HTML = "<div class=\"field\(error == nil ? "" : " invalid")\"><label for=\"\(id)\">\(label)</label>"
        if !hint.isEmpty { out += "<span class=\"hint\" id=\"\(id)-hint\">\(hint)</span>" }
        if let error { out += "<span class=\"field-error\" id=\"\(id)-error\">\(error)</span>" }
        let ids = (error == nil ? [] : [id + "-error"]) + (hint.isEmpty ? [] : [id + "-hint"])
        let described: HTML = ids.isEmpty ? "" : " aria-describedby=\"\(ids.joined(separator: " "))\""
        let invalid: HTML = error == nil ? "" : " aria-invalid=\"true\""
        if multiline {
            out += "<textarea id=\"\(id)\" name=\"\(name)\" rows=\"3\"\(described)\(invalid)>\(value)</textarea>"
        } else {
            let needed: HTML = required ? " required" : ""
            out += "<input type=\"text\" id=\"\(id)\" name=\"\(name)\" value=\"\(value)\"\(described)\(invalid)\(needed)>"
        }
        return out + "</div>\n"
    }

    /// A labelled choice among `options` (value, text), `selected` chosen; `error` as for `field`.
    static func select(_ id: String, name: String, label: String, options: [(String, String)], selected: String, error: String? = nil) -> HTML {
        var out: HTML = "<div class=\"field\(error == nil ? "" : " invalid")\"><label for=\"\(id)\">\(label)</label>"
        if let error { out += "<span class=\"field-error\" id=\"\(id)-error\">\(error)</span>" }
        let invalid: HTML = error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"\(id)-error\""
        out += "<select id=\"\(id)\" name=\"\(name)\"\(invalid)>"
        for (value, text) in options {
            let chosen: HTML = value == selected ? " selected" : ""
            out += "<option value=\"\(value)\"\(chosen)>\(text)</option>"
        }
        return out + "</select></div>\n"
    }

    /// An error from the library, in words, where the person looks: the keyboard focus moves
    /// to it when the page loads (`tabindex="-1"`, `autofocus`, and the pages' script).
    static func error(_ message: String?) -> HTML {
        guard let message else { return "" }
        return "<div class=\"error\" role=\"alert\" tabindex=\"-1\" autofocus data-focus><p>\(message)</p></div>\n"
    }

    /// Several wrong fields at once: one box that names each, linked to its field (each field
    /// also marked by `field(error:)`), where the focus goes.
    static func errors(_ problems: [(id: String, message: String)]) -> HTML {
        guard !problems.isEmpty else { return "" }
        if problems.count == 1 { return error(problems[0].message) }
        var html: HTML = "<div class=\"error\" role=\"alert\" tabindex=\"-1\" autofocus data-focus><p>\(problems.count) fields need a change:</p><ul>"
        for problem in problems { html += "<li><a href=\"#\(problem.id)\">\(problem.message)</a></li>" }
        return html + "</ul></div>\n"
    }

    /// A message kept across a redirect (what a sync did, an invite code), where the focus goes.
    static func notice(_ message: String?) -> HTML {
        guard let message else { return "" }
        return "<div class=\"notice\" role=\"status\" tabindex=\"-1\" autofocus data-focus><p>\(message)</p></div>\n"
    }

    /// "Thu 10 Jun 2027".
    static func day(_ date: LocalDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(LocalTimeFormat.weekday(date).prefix(3)) + " \(date.day) \(months[date.month - 1]) \(date.year)"
    }

    /// "2027-06-10 14:05 UTC".
    static func when(_ stamp: UTCTimestamp) -> String {
        let text = stamp.description
        // ISO 8601 `2027-06-10T14:05:09Z` → `2027-06-10 14:05 UTC`.
        guard text.count >= 16 else { return text }
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC"
    }
}
