import TripSync
import TripSyncCore
import TripSyncSync

extension WebApp {
    /// The folder this trip last synced with, if the home recorded one (the door's
    /// `lastFolder(of:)`; a record that cannot be read offers the folder field instead).
    func lastFolder(_ trip: TripID) -> String? {
        do {
            return try door.lastFolder(of: trip)
        } catch {
            return nil
        }
    }

    /// Sync now, with the last folder (and a folder field when there is none).
    func syncHTML(_ document: TripDocument, csrf: String) -> HTML {
        var out: HTML = "<h2 id=\"sync-h\">Sync</h2>\n"
        let folder = lastFolder(document.tripID)
        var fields: HTML = ""
        if let folder {
            out += "<p>With <code>\(folder)</code>, the folder this trip last synced with; while this page is open it syncs by itself when something changes.</p>\n"
            fields += Page.hidden("folder", folder)
        } else {
            out += "<p>This trip has not synced with a shared folder yet.</p>\n"
            fields += Page.field(
                "sync-folder", name: "folder", label: "Folder", value: "", hint: "the shared folder (Syncthing, Dropbox…), e.g. /home/sam/Sync/trips", required: true)
        }
        if let problem = background.lastProblem { out += Page.error("The last automatic sync: " + problem) }
        fields += "<button type=\"submit\">Sync now</button>\n"
        return out + Page.form(Route.sync(document.tripID).path, csrf: csrf, fields)
    }

    /// POST `/trips/ID/sync`: one sync of this trip with `folder`, recorded as the last folder.
    func syncNow(_ request: WebRequest, trip: String) -> WebResponse {
        let folder = request.field("folder").trimmingCharacters(in: .whitespaces)
        guard !folder.isEmpty else { return tripPage(request, trip: trip, error: "Folder: give the shared folder to sync with", status: 422) }
        let report: SyncReport
        do {
            report = try withStore(trip) { store in try store.sync(with: folder) }
        } catch WebFailure.notFound {
            return notFound()
        } catch {
            return tripPage(request, trip: trip, error: "\(folder): " + Self.words(error), status: Self.status(for: error))
        }
        // A trip that could not sync answers with the page and a status from the failure's kind.
        if let failure = report.failed.first?.failure {
            return tripPage(request, trip: trip, error: "\(folder): not synced: " + failure.message, status: Self.status(for: failure))
        }
        // The sync recorded the folder as the trip's last one; what it could not record.
        let problems = report.lastFolderProblems + report.warnings + report.skipped.map { "\($0.file): skipped: " + Self.remedyLine($0.reason, $0.remedy) }
        keepNotice(Self.summary(report, folder: folder) + problems.map { " " + $0 }.joined(), for: request)
        return WebResponse.seeOther("/trips/\(trip)#sync")
    }

    /// `what` happened, then what would fix it as this app does it: the members page's buttons
    /// where the page has them, else the library's words (`MembershipRemedy`).
    static func remedyLine(_ what: String, _ remedy: MembershipRemedy?) -> String {
        guard let remedy else { return what }
        switch remedy {
        case .ownerApproves(let device):
            return what + "; once the owner's sync has read this laptop's file, the owner can admit it (Members, Asking to join: Approve device \(device.description.prefix(8)))"
        case .approveOrDecline(let device):
            return what + "; approve or decline device \(device.description.prefix(8)) under Members, Asking to join"
        case .joinWithInvite, .claimOrJoin:
            return what + "; " + remedy.description
        }
    }

    /// What a sync did, in words ("synced with F: Sam's laptop added 2 items; you shared 1 change").
    static func summary(_ report: SyncReport, folder: String) -> String {
        var parts: [String] = []
        for trip in report.trips {
            if let failure = trip.failure { parts.append("not synced: \(failure)"); continue }
            if trip.joined { parts.append("joined") }
            for device in trip.changes {
                var verbs: [String] = []
                if device.added > 0 { verbs.append("added \(device.added) item\(device.added == 1 ? "" : "s")") }
                if device.changed > 0 { verbs.append("changed \(device.changed)") }
                if device.deleted > 0 { verbs.append("deleted \(device.deleted)") }
                if !verbs.isEmpty { parts.append(device.name + " " + verbs.joined(separator: ", ")) }
            }
            if trip.sharedChanges > 0 { parts.append("you shared \(trip.sharedChanges) change\(trip.sharedChanges == 1 ? "" : "s")") }
            if trip.newConflicts > 0 { parts.append("\(trip.newConflicts) new conflict\(trip.newConflicts == 1 ? "" : "s")") }
        }
        return "Synced with \(folder): " + (parts.isEmpty ? "nothing new" : parts.joined(separator: "; ")) + "."
    }

    /// What reached whom: this laptop's changes, published or not, and each other device's view.
    func statusHTML(_ document: TripDocument) -> HTML {
        let status = DeliveryStatus(document, me: document.deviceID, now: .now)
        var out: HTML = "<h2 id=\"status-h\">Status</h2>\n"
        let published = status.unpublished == 0
            ? "Every change made on this laptop is published to the shared folder."
            : "\(status.unpublished) change\(status.unpublished == 1 ? " is" : "s are") only on this laptop (not yet synced)."
        out += "<p>\(published)</p>\n"
        let folder: HTML
        switch door.folderForm(of: document) {
        case .open:
            folder = "<p class=\"folder-form open\">This trip is open: its files in the shared folder are not encrypted, and whoever can read the folder can read it.</p>\n"
        case .notSealedYet:
            folder = "<p class=\"folder-form\">This trip is owned but not sealed yet: the owner's next sync seals it, then this laptop's.</p>\n"
        case .sealed(let epoch):
            folder = "<p class=\"folder-form sealed\">Sealed in the shared folder (key epoch \(epoch)): only the trip's members can read it.</p>\n"
        case .leftOut(let epoch):
            folder = "<p class=\"folder-form\" role=\"alert\">This laptop was left out of the trip's newest key (epoch \(epoch)): the owner removed it, so it reads nothing written since and its changes cannot reach the others.</p>\n"
        }
        out += folder
        let others = status.devices.filter { $0.id != document.deviceID }
        if others.isEmpty {
            out += "<p class=\"empty\">No other laptop has synced this trip yet.</p>\n"
        } else {
            out += "<ul class=\"devices\">\n"
            for device in others {
                let seen = device.missingOurs == 0 ? "has seen all of this laptop's changes" : "has not seen \(device.missingOurs) of this laptop's changes"
                let last: HTML = device.lastPublished.map { " <span class=\"meta\">(last published \(Page.when($0)))</span>" } ?? ""
                out += "<li><span dir=\"auto\">\(device.name)</span>: \(seen)\(last)</li>\n"
            }
            out += "</ul>\n"
        }
        return out
    }
}
