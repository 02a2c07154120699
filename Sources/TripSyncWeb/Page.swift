import TripSync
import TripSyncCore

/// The pages' frame and the pieces every template uses. Every text that came from a trip, a
/// person or a request reaches a page only through `h` (the library's `HTMLText.escape`).
enum Page {
    /// `text` escaped for HTML content and quoted attribute values.
    static func h(_ text: String) -> String { HTMLText.escape(text) }

    /// A whole page: `title`, the site header with a link home and `nav`, then `body`. `live`
    /// names the URL the page's script polls for changes (a trip's version).
    static func frame(title: String, heading: String, nav: String = "", live: String? = nil, version: String = "", body: String) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>" + h(title) + " · TripSync</title>\n"
        out += "<link rel=\"stylesheet\" href=\"/static/app.css\">\n"
        out += "<script src=\"/static/app.js\" defer></script>\n</head>\n<body>\n"
        out += "<a class=\"skip\" href=\"#main\">Skip to the content</a>\n"
        out += "<header class=\"site\"><a class=\"home\" href=\"/\">TripSync</a>" + nav + "</header>\n"
        out += "<main id=\"main\""
        if let live { out += " data-version-url=\"" + h(live) + "\" data-version=\"" + h(version) + "\"" }
        out += ">\n<h1 dir=\"auto\">" + h(heading) + "</h1>\n" + body + "</main>\n</body>\n</html>\n"
        return out
    }

    /// A form that POSTs to `action` with the session's anti-forgery token.
    static func form(_ action: String, csrf: String, cssClass: String = "", multipart: Bool = false, _ content: String) -> String {
        "<form method=\"post\" action=\"" + h(action) + "\"" + (cssClass.isEmpty ? "" : " class=\"" + cssClass + "\"")
            + (multipart ? " enctype=\"multipart/form-data\"" : "") + ">\n"
            + "<input type=\"hidden\" name=\"csrf\" value=\"" + h(csrf) + "\">\n" + content + "</form>\n"
    }

    /// A one-button form (Delete, Restore, Keep this…): `hidden` values and a visible button.
    static func button(_ action: String, csrf: String, label: String, hidden: [(String, String)] = [], cssClass: String = "inline") -> String {
        form(action, csrf: csrf, cssClass: cssClass,
            hidden.map { "<input type=\"hidden\" name=\"" + h($0.0) + "\" value=\"" + h($0.1) + "\">\n" }.joined()
                + "<button type=\"submit\">" + h(label) + "</button>\n")
    }

    /// A hidden value a form carries back (what an Edit form showed, Add's one-time key).
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"" + h(name) + "\" value=\"" + h(value) + "\">\n"
    }

    /// A labelled text field (the label visible, above the field).
    static func field(_ id: String, name: String, label: String, value: String, hint: String = "", required: Bool = false, multiline: Bool = false) -> String {
        var out = "<div class=\"field\"><label for=\"" + id + "\">" + h(label) + "</label>"
        if !hint.isEmpty { out += "<span class=\"hint\" id=\"" + id + "-hint\">" + h(hint) + "</span>" }
        let described = hint.isEmpty ? "" : " aria-describedby=\"" + id + "-hint\""
        if multiline {
            out += "<textarea id=\"" + id + "\" name=\"" + name + "\" rows=\"3\"" + described + ">" + h(value) + "</textarea>"
        } else {
            out += "<input type=\"text\" id=\"" + id + "\" name=\"" + name + "\" value=\"" + h(value) + "\"" + described
                + (required ? " required" : "") + ">"
        }
        return out + "</div>\n"
    }

    /// A labelled choice among `options` (value, text), `selected` chosen.
    static func select(_ id: String, name: String, label: String, options: [(String, String)], selected: String) -> String {
        var out = "<div class=\"field\"><label for=\"" + id + "\">" + h(label) + "</label><select id=\"" + id + "\" name=\"" + name + "\">"
        for (value, text) in options {
            out += "<option value=\"" + h(value) + "\"" + (value == selected ? " selected" : "") + ">" + h(text) + "</option>"
        }
        return out + "</select></div>\n"
    }

    /// An error from the library, in words, where the person looks.
    static func error(_ message: String?) -> String {
        guard let message else { return "" }
        return "<div class=\"error\" role=\"alert\"><p>" + h(message) + "</p></div>\n"
    }

    /// A message kept across a redirect (what a sync did, an invite code).
    static func notice(_ message: String?) -> String {
        guard let message else { return "" }
        return "<div class=\"notice\" role=\"status\"><p>" + h(message) + "</p></div>\n"
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
