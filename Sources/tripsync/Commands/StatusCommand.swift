import TripSync

/// `tripsync status [--json]`.
enum StatusCommand: Command {
    static let name = "status"
    static let summary = "unpublished changes, conflicts, what each device has seen, tombstones near retention"
    static let help = """
        usage: tripsync status [--json] [--trip T]

        Says what each change of this device has reached: only this device (not yet published
        to a shared folder), published, and seen by each other device (by their published files),
        plus conflicts and deleted items whose body is close to the 90-day retention.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--trip"], flags: ["--json"])
        try parser.parse(arguments)
        let (loaded, identity) = try Session.read(global, trip: parser.value("--trip"))
        let document = loaded.document
        let me = identity.deviceID
        let status = DeliveryStatus(document, me: me, now: .now)
        if parser.has("--json") {
            try Console.json(StatusReport(tripID: document.tripID, device: me, status: status))
            return
        }
        Console.out("\(document.trip.name.value) on \(identity.name) (device \(me.description.prefix(8)))")
        if status.unpublished == 0 {
            Console.out("  all \(plural(status.ours, "change")) of this device are published")
        } else {
            Console.out("  \(plural(status.unpublished, "change")) only on this device (not yet published: tripsync sync FOLDER)")
        }
        Console.out("  \(status.conflictSummary)" + (status.conflicts > 0 ? ": tripsync conflicts" : ""))
        if status.devices.isEmpty { Console.out("  no other device known yet") }
        for device in status.devices {
            let seen = device.missingOurs == 0 ? "has seen all your changes" : "has not seen \(plural(device.missingOurs, "change")) of yours"
            let when = device.lastPublished.map { "; last published \($0)" } ?? "; has not published yet"
            Console.out("  \(device.name): \(seen)\(when)")
        }
        if !status.changes.isEmpty {
            Console.out("  recent changes of this device:")
            for change in status.changes.prefix(10) {
                let reach: String
                if !change.published {
                    reach = "only on this device"
                } else if change.seenBy.isEmpty {
                    reach = "published, not yet seen by another device"
                } else {
                    reach = "seen by " + change.seenBy.map { document.deviceName($0) }.joined(separator: ", ")
                }
                Console.out("    \(change.field) of \"\(change.title)\": \(reach)")
            }
        }
        for entry in status.nearRetention {
            Console.out("  deleted \"\(entry.title ?? "item")\" may be compacted from \(entry.from) (its body goes once every device has seen the delete)")
        }
    }
}
