import Foundation
import TripSync
import TripSyncCore
import TripSyncHome

extension WebApp {
    /// An item's attachments (images shown, other files to download) and the upload form.
    func attachmentsHTML(_ document: TripDocument, item: ItemID, csrf: String) -> HTML {
        let trip = document.tripID
        var out: HTML = "<section id=\"attachments\" aria-labelledby=\"attachments-h\">\n<h2 id=\"attachments-h\">Attachments</h2>\n"
        let entries: [AttachmentEntry]
        do {
            entries = try AttachmentEntry.list(in: document, home: home, of: item)
        } catch {
            return out + Page.error(Self.words(error)) + "</section>\n"
        }
        if entries.isEmpty { out += "<p class=\"empty\">No attachments.</p>\n" }
        out += "<ul class=\"attachments\">\n"
        for entry in entries {
            let url = Route.attachment(trip, entry.id.description).path
            let label = entry.caption ?? entry.name
            out += "<li>"
            let here = entry.state == .staged || entry.state == .shared
            if here && Self.isShownImage(entry.blob.type) {
                out += "<figure><img src=\"\(url)\" alt=\"\(label)\"><figcaption dir=\"auto\">\(label)</figcaption></figure>"
            } else if here {
                out += "<a href=\"\(url)\" download dir=\"auto\">\(entry.name)</a>"
                if let caption = entry.caption { out += " <span dir=\"auto\">\(caption)</span>" }
            } else {
                out += "<span dir=\"auto\">\(entry.name)</span>"
            }
            let state: String
            switch entry.state {
            case .staged: state = "on this laptop, not yet shared"
            case .shared: state = "shared"
            case .arriving: state = "arriving (not here yet)"
            case .quarantined: state = "quarantined: its bytes did not match their hash"
            }
            out += " <span class=\"meta\">\(ByteCount.text(entry.blob.size) + ", " + state)</span></li>\n"
        }
        out += "</ul>\n"
        // The reason comes before the upload, next to the file field: a photo's location is removed
        // unless the person keeps it on purpose.
        var fields: HTML = "<div class=\"field\"><label for=\"upload-file\">File</label>"
        fields += "<span class=\"hint\" id=\"upload-file-hint\">Photos often record where they were taken. TripSync removes that before the photo is shared, "
        fields += "unless you tick \u{201C}Keep where it was taken\u{201D}.</span>"
        fields += "<input type=\"file\" id=\"upload-file\" name=\"file\" required aria-describedby=\"upload-file-hint\"></div>\n"
        fields += Page.field("upload-caption", name: "caption", label: "Caption", value: "")
        fields += "<div class=\"field check\"><input type=\"checkbox\" id=\"upload-keep\" name=\"keep-location\" value=\"1\"><label for=\"upload-keep\">Keep where it was taken</label></div>\n"
        fields += "<button type=\"submit\">Upload</button>\n"
        out += Page.form(Route.upload(trip, item).path, csrf: csrf, multipart: true, fields)
        return out + "</section>\n"
    }

    /// Types a browser is let show as an image; every other file is downloaded.
    static func isShownImage(_ type: String) -> Bool {
        [BlobType.jpeg, .png, .gif, .webp].map(\.rawValue).contains(type)
    }

    /// POST `/trips/ID/items/ITEM/attachments`: the uploaded file attached (through a private
    /// temporary file, removed after), without its location unless "Keep where it was taken" was ticked.
    func upload(_ request: WebRequest, trip: String, item: String) -> WebResponse {
        guard let id = ItemID(item) else { return notFound() }
        guard let file = request.uploads.first(where: { $0.field == "file" }), !file.filename.isEmpty else {
            return itemPage(request, trip: trip, item: item, error: "File: choose a file to upload", status: 422)
        }
        let name = (file.filename.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? "file")
        let caption = ItemForm.optional(request.field("caption"))
        // A photo loses its location unless the person kept it on purpose; other files have none
        // to lose (the library refuses to strip a type it cannot, so only photos are asked to).
        let sniffed = BlobType.sniff(Array(file.bytes.prefix(BlobType.sniffLength)))
        let strip = request.form["keep-location"] == nil && PhotoLocation.readTypes.contains(sniffed)
        let outcome: AttachOutcome
        do {
            let folder = FileManager.default.temporaryDirectory.path + "/tripsync-upload-" + WebGuard.randomToken().prefix(16)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(atPath: folder) }  // our own temporary folder: nothing to report
            let path = folder + "/" + (name.isEmpty || name == "." || name == ".." ? "file" : name)
            guard FileManager.default.createFile(atPath: path, contents: Data(file.bytes), attributes: [.posixPermissions: 0o600]) else {
                throw WebFailure.message("cannot keep the upload in \(folder)")
            }
            outcome = try withStore(trip) { store in
                try store.attach(file: path, to: id, caption: caption, stripLocation: strip)
            }
        } catch WebFailure.notFound {
            return notFound()
        } catch {
            return itemPage(request, trip: trip, item: item, error: Self.words(error), status: Self.status(for: error))
        }
        var notice = "Attached \u{201C}\(name)\u{201D}; it is shared with the next sync."
        if outcome.stripped {
            notice += " Its location was removed."
        } else if outcome.location.recordsLocation {
            notice += " It keeps where it was taken (\(outcome.location)), as you asked: everyone in the trip can see it."
        }
        keepNotice(notice, for: request)
        return WebResponse.seeOther("/trips/\(trip)/items/\(id)#attachments")
    }

    /// GET `/trips/ID/attachments/ATT`: the bytes, as an image only when they are one (sniffed
    /// from the bytes themselves), else as a download.
    func attachmentBytes(trip: String, attachment: String) -> WebResponse {
        guard let id = AttachmentID(attachment) else { return notFound() }
        let bytes: [UInt8]
        let name: String
        do {
            (bytes, name) = try withStore(trip) { store in (try store.bytes(of: id), try store.attachment(id.description).name) }
        } catch {
            return WebResponse.text(404, "no such attachment here: " + Self.words(error))
        }
        let type = BlobType.sniff(Array(bytes.prefix(BlobType.sniffLength))).rawValue
        if Self.isShownImage(type) {
            return WebResponse(status: 200, headers: [("Content-Type", type)], body: bytes)
        }
        return Self.download(bytes, type: "application/octet-stream", name: name)
    }
}
