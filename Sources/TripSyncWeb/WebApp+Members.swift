import TripSync
import TripSyncCore

extension WebApp {
    /// `/trips/ID/members`: who may change the trip, pending requests, invite.
    func membersPage(_ request: WebRequest, trip: String, error: String? = nil, status: Int = 200) -> WebResponse {
        let members: [MemberEntry]
        let owner: Bool
        let name: String
        let id: TripID
        do {
            guard let tripID = TripID(trip) else { return notFound() }
            // A read snapshot: the page takes no lock.
            let read = try door.members(of: tripID)
            (members, owner, name, id) = (read.members, read.holdsOwnerKey, read.document.trip.name.value, read.document.tripID)
        } catch {
            switch TripError.cause(of: error) {
            case TripStoreError.noMatch: return notFound()
            default: return failure(error)
            }
        }
        var body = Page.error(error)
        if let notice = takeNotice(request) {
            if notice.hasPrefix("INVITE:") {
                let code = String(notice.dropFirst("INVITE:".count))
                let invite: HTML = "<div class=\"notice invite\" role=\"status\"><div class=\"field\"><label for=\"invite-code\">Invite code</label>"
                    + "<input type=\"text\" id=\"invite-code\" readonly value=\"\(code)\"></div>"
                    + "<button type=\"button\" class=\"copy\" data-copy=\"invite-code\">Copy</button>"
                    + "<p>Send it to the person joining; it admits one laptop once.</p></div>\n"
                body += invite
            } else {
                body += Page.notice(notice)
            }
        }
        let base = "/trips/\(id)/members"
        let roles = [("editor", "editor (plans with you)"), ("viewer", "viewer (reads only)")]
        body += "<section aria-labelledby=\"members-h\"><h2 id=\"members-h\">Members</h2>\n"
        if members.isEmpty { body += "<p class=\"empty\">This trip is open: every laptop with the folder may change it.</p>\n" }
        body += "<ul class=\"members\">\n"
        for member in members where !member.pending {
            let line: HTML = "<li><span dir=\"auto\">\(member.name)</span> <span class=\"meta\">\(member.role?.rawValue ?? "no role"), device \(String(member.device.description.prefix(8)))</span>"
            body += line
            if owner, member.role != .owner, member.role != .removed {
                let selectID = "role-\(member.device)"
                let role = Page.select(selectID, name: "role", label: "Role of " + member.name, options: roles, selected: member.role?.rawValue ?? "")
                body += Page.form(
                    base + "/role", csrf: request.csrf, cssClass: "inline",
                    "\(Page.hidden("device", member.device.description))\(role)<button type=\"submit\">Set role</button>\n")
            }
            body += "</li>\n"
        }
        body += "</ul>\n</section>\n"
        let pending = members.filter(\.pending)
        body += "<section aria-labelledby=\"pending-h\"><h2 id=\"pending-h\">Asking to join</h2>\n"
        if pending.isEmpty { body += "<p class=\"empty\">Nobody is waiting.</p>\n" }
        for member in pending {
            let source = member.source.map { ", " + $0 } ?? ""
            let line: HTML = "<div class=\"pending\"><span dir=\"auto\">\(member.name)</span> <span class=\"meta\">device \(String(member.device.description.prefix(8)))\(source)</span> "
            body += line
            if owner {
                body += Page.button(base + "/approve", csrf: request.csrf, label: "Approve", hidden: [("device", member.device.description)])
                body += Page.button(base + "/decline", csrf: request.csrf, label: "Decline", hidden: [("device", member.device.description)])
            }
            body += "</div>\n"
        }
        body += "</section>\n"
        body += "<section aria-labelledby=\"invite-h\"><h2 id=\"invite-h\">Invite</h2>\n"
        if owner {
            body += "<p>An invite code lets one new laptop join: send it, and they run <code>tripsync join CODE FOLDER</code>; their request appears above at your next sync.</p>\n"
            let role = Page.select("invite-role", name: "role", label: "Role", options: roles, selected: "editor")
            body += Page.form(base + "/invite", csrf: request.csrf, "\(role)<button type=\"submit\">Invite</button>\n")
        } else {
            body += "<p>Only the trip's owner invites and approves.</p>\n"
        }
        body += "</section>\n"
        return WebResponse.html(status, Page.frame(title: "Members · " + name, heading: "Members of " + name, nav: tripNav(id), body: body))
    }

    /// POST `/trips/ID/members/(invite|approve|decline|role)`.
    func membersAction(_ request: WebRequest, trip: String, action: String) -> WebResponse {
        let device = request.field("device")
        let role = MemberRole(rawValue: request.field("role"))
        do {
            let notice: String = try withStore(trip) { store in
                switch action {
                case "invite":
                    guard let role, role == .editor || role == .viewer else { throw EditError(.invalidValue, "Role: choose editor or viewer") }
                    let code = try store.invite(role: role)
                    return "INVITE:" + code.text
                case "approve": return "Approved \(try store.approve(device).name)."
                case "decline": return "Declined \(try store.decline(device).name)."
                case "role":
                    guard let role, role == .editor || role == .viewer else { throw EditError(.invalidValue, "Role: choose editor or viewer") }
                    let entry = try store.setRole(device, role)
                    return "\(entry.name) is now \(role.rawValue)."
                default: throw WebFailure.notFound
                }
            }
            keepNotice(notice, for: request)
        } catch WebFailure.notFound {
            return notFound()
        } catch {
            return membersPage(request, trip: trip, error: Self.words(error), status: Self.status(for: error))
        }
        return WebResponse.seeOther("/trips/\(trip)/members")
    }
}
