import Foundation
import TripSync
import TripSyncCore
import TripSyncHome

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension WebApp {
    /// The trips page's Join form: the invite code pasted, the shared folder typed as a path;
    /// `form` and `problems` are a refused join shown again with each wrong field marked.
    func joinHTML(csrf: String, form: (code: String, folder: String) = ("", ""), problems: [(name: String, message: String)] = []) -> HTML {
        var out: HTML = "<section id=\"join\" aria-labelledby=\"join-h\">\n<h2 id=\"join-h\">Join a trip</h2>\n"
        out += "<p>Someone in the group sends you an invite code. Paste it here and name the folder the group shares "
        out += "(Dropbox, Syncthing, a USB stick): TripSync asks to join through it, and the trip shows here once they have let you in.</p>\n"
        out += Page.errors(problems.map { ("join-" + $0.name, $0.message) })
        let errors = Dictionary(problems.map { ($0.name, $0.message) }) { first, _ in first }
        var fields = Page.field(
            "join-code", name: "code", label: "Invite code", value: form.code, hint: "the code as you received it", required: true, multiline: true,
            error: errors["code"])
        fields += Page.field(
            "join-folder", name: "folder", label: "Shared folder", value: form.folder, hint: "its path on this laptop, like ~/Dropbox/Trips",
            required: true, error: errors["folder"])
        fields += "<button type=\"submit\">Join</button>\n"
        out += Page.form(Route.join.path, csrf: csrf, cssClass: "item-form", fields)
        return out + "</section>\n"
    }

    /// POST `/join`: the library's join (`TripHome.join`) with the pasted code through the typed
    /// folder, every wrong field marked at once; then this page syncs with that folder while it
    /// is open until the trip arrives (`JoinWatch`).
    func join(_ request: WebRequest) -> WebResponse {
        let text = request.field("code")
        let typed = request.field("folder")
        var problems: [(name: String, message: String)] = []
        var code: InviteCode?
        do {
            code = try InviteCode(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            problems.append(("code", "Invite code: " + Self.words(error)))
        }
        let folder = Self.folderPath(typed)
        if let problem = Self.folderProblem(folder, typed: typed) { problems.append(("folder", problem)) }
        guard let code, problems.isEmpty else {
            return tripsPage(request, join: (text, typed), problems: problems, status: 422)
        }
        do {
            _ = try door.join(code: code, folder: folder)
        } catch {
            return tripsPage(request, join: (text, typed), problems: [("code", Self.words(error))], status: Self.status(for: error))
        }
        joining.start(folder: folder, trip: code.trip)
        keepNotice(
            "Asked to join as \(code.role.rawValue) through \(folder). Once someone in the group syncs, the trip shows here by itself (keep this page open).",
            for: request)
        return WebResponse.seeOther(Route.trips.path)
    }

    /// The typed folder as a path: `~` is this user's home folder; surrounding spaces dropped.
    static func folderPath(_ typed: String) -> String {
        let trimmed = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed == "~" || trimmed.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            return home + trimmed.dropFirst()
        }
        return trimmed
    }

    /// What is wrong with `path` as the shared folder (nil: a folder this laptop can write in).
    static func folderProblem(_ path: String, typed: String) -> String? {
        guard !path.isEmpty else { return "Shared folder: type the folder's path, like ~/Dropbox/Trips" }
        guard path.hasPrefix("/") else { return "Shared folder: '\(typed.prefix(80))' is not a full path; start it with / or ~/" }
        var info = stat()
        guard stat(path, &info) == 0 else { return "Shared folder: there is no folder \(path.prefix(200)) on this laptop" }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "Shared folder: \(path.prefix(200)) is a file, not a folder" }
        guard access(path, W_OK | X_OK) == 0 else { return "Shared folder: this laptop cannot write in \(path.prefix(200))" }
        return nil
    }
}
