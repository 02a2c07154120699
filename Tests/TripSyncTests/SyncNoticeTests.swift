import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// Sync's membership notices are values (issue 27): what happened, and what would fix it with
/// its facts (`MembershipRemedy`); the words name no command, the faces do.
@Suite struct SyncNoticeTests {
    /// A laptop without an invite finds an owned trip: "not joined", fixed by joining with an
    /// invite through this folder; the report's JSON carries the remedy's facts.
    @Test func anOwnedTripNotJoinedSaysJoinWithAnInvite() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tripsync-notice-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shared = root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let alex = Home(path: root + "/alex")
        _ = try TripStore.create(name: "Lisbon", owned: true, in: alex).sync(with: shared)
        let report = try FolderSync(home: Home(path: root + "/sam"), folder: shared).run()
        let notices = report.trips.flatMap(\.notices)
        let notJoined = try #require(notices.first { $0.text.hasPrefix("not joined") }, "\(notices)")
        #expect(notJoined.remedy == .joinWithInvite(folder: shared))
        #expect(notJoined.description.hasSuffix("; ask the owner for an invite and join the trip with it"), "\(notJoined)")
        #expect(!notices.contains { $0.description.contains("tripsync ") }, "\(notices)")
        let json = try ReportEncoding.json(report)
        #expect(json.contains("\"remedies\":[{\"device\":null,\"folder\":\"\(shared)\",\"kind\":\"joinWithInvite\",\"notice\":0}]"), "\(json)")
    }

    /// A file of a device the owner has not admitted is skipped with the owner's approval as its
    /// remedy, naming that device.
    @Test func aNonMembersFileIsSkippedWithTheOwnersApprovalAsRemedy() throws {
        let owner = SigningKey.generate()
        let member = SigningKey.generate()
        let stranger = SigningKey.generate()
        let ownerDevice = DeviceID.random()
        var hlc = HybridLogicalClock()
        var document = TripDocument(
            tripID: TripOwner.derivedTripID(for: owner.publicKey), deviceID: ownerDevice, clock: VersionVector(),
            trip: TripInfo(name: Register(value: "Lisbon", rev: Rev(counter: 1, device: ownerDevice))))
        try document.claim(ownerKey: owner, deviceKey: member.publicKey, name: "Alex", hlc: &hlc, now: 1_000)
        var input = document
        input.deviceID = DeviceID.random()
        let verdict = Membership(local: document, trusted: nil, inputs: [input]).verdict(for: input, signedBy: stranger.publicKey, name: "Sam")
        guard case .skipped(let reason, let remedy) = verdict else {
            Issue.record("a stranger's file was taken: \(verdict)")
            return
        }
        #expect(reason.contains("is not a member of this trip"), "\(reason)")
        #expect(remedy == .ownerApproves(input.deviceID))
        #expect(!MembershipRemedy.message(reason, remedy).contains("tripsync "))
    }
}
