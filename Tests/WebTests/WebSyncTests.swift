import Foundation
import Testing
import TripSync
import TripSyncWeb
import TripSyncCore
import TripSyncHome

/// The page's syncs go through the door (issue 39): Sync now's failure answered by its kind,
/// and the automatic sync's folder picked by the door's one last-folder rule, as `tripsync sync`.
@Suite("Web sync")
struct WebSyncTests {
    @Test("Sync now of a trip that could not sync answers with the page, the failure's words and the status of its kind (503)")
    func failedTripStatus() throws {
        let web = try WebHarness()
        let folder = web.folder + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The trip's folder there is a file: the trip cannot sync (a file system failure).
        #expect(FileManager.default.createFile(atPath: folder + "/" + web.trip.description, contents: Data("not a folder".utf8)))
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        let response = try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)])
        #expect(response.status == 503)
        #expect(response.body.contains("not synced"))
        #expect(response.body.contains("not a folder"))
    }

    @Test("with trips last synced in two folders the automatic sync guesses none: the page says why, as tripsync sync refuses")
    func ambiguousLastFolder() throws {
        let web = try WebHarness(otherTrips: ["Porto 2027"])
        let first = web.folder + "/shared-a"
        let second = web.folder + "/shared-b"
        for folder in [first, second] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let door = TripHome(web.home)
        let porto = try #require(door.trips().trips.first { $0.name == "Porto 2027" }?.tripID)
        _ = try door.write(web.trip) { try $0.sync(with: first) }
        _ = try door.write(porto) { try $0.sync(with: second) }
        let cookie = try web.signIn()
        // The page is open: it polls, and the background sync looks for its folder.
        let deadline = Date().addingTimeInterval(10)
        var page = ""
        while Date() < deadline && !page.contains("different folders") {
            _ = try web.get("/trips/\(web.trip)/version", cookie: cookie)
            Thread.sleep(forTimeInterval: 0.6)
            page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        }
        #expect(page.contains("The last automatic sync: no automatic sync: "))
        #expect(page.contains("last synced with different folders"))
        #expect(page.contains(first) && page.contains(second))
    }
}
