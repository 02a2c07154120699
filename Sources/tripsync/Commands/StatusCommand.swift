import TripSync
import TripSyncCore

/// `tripsync status [--json]`.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        summary: "unpublished changes, conflicts, what each device has seen, tombstones near retention",
        forms: ["[--json] [--trip]"],
        about: """
            Says what each of your changes has reached: only this laptop (not shared yet through a
            shared folder), shared, and seen by each other laptop (by the files they shared),
            plus conflicts and deleted items whose body is close to the 90-day retention, and the
            numbers a team watches: conflicts per 1,000 changes, the share of open conflicts that
            show your value (the "keep-mine share" of --json), the age of its oldest unpublished change, and the devices not
            heard from for longer than the retention (README, "What a team watches"). Devices that
            share a name are shown with their short ids. Attachments are counted by state: shared
            (bytes here), arriving (bytes not here yet), staged (not yet shared), quarantined.
            """,
        options: [
            OptionSpec("--json", .flag, "one JSON value on stdout"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let (loaded, identity) = try Session.read(global, trip: parser.value("--trip"))
        let document = loaded.document
        let me = identity.deviceID
        let report = StatusReport(document, me: me, home: HomeAccess.home(global), now: .now)
        let status = report.status
        let metrics = report.metrics
        let attachments = report.attachments
        if let problem = report.attachmentProblem { Console.warning(problem) }
        if parser.has("--json") {
            try Console.json(report)
            return
        }
        Console.out("\(document.trip.name.value) on \(identity.name) (device \(me.description.prefix(8)))")
        // Two devices of one name (two laptops called "mbp") are told apart by their short ids.
        let names = [me: identity.name].merging(status.devices.map { ($0.id, $0.name) }) { first, _ in first }
        let repeated = Set(Dictionary(grouping: names.values, by: { $0 }).filter { $0.value.count > 1 }.keys)
        func label(_ device: DeviceID) -> String {
            let name = names[device] ?? document.deviceName(device)
            return repeated.contains(name) ? "\(name) (\(device.description.prefix(8)))" : name
        }
        if status.ours == 0 {
            Console.out("  you have not changed anything yet")
        } else if status.unpublished == 0 {
            Console.out(status.ours == 1 ? "  your 1 change is shared" : "  all \(status.ours) of your changes are shared")
        } else {
            let verb = status.unpublished == 1 ? "is" : "are"
            Console.out("  \(status.unpublished) of your changes \(verb) not shared yet (share them: tripsync sync FOLDER)")
        }
        Console.out("  \(status.conflictSummary)" + (status.conflicts > 0 ? ": tripsync conflicts" : ""))
        switch report.folderForm {
        case .open:
            Console.out("  open trip: its files in the shared folder are not encrypted (tripsync members claim makes it owned and sealed)")
        case .notSealedYet:
            Console.out("  owned, not sealed yet: the owner's next sync seals it, then this laptop's")
        case .sealed(let epoch):
            Console.out("  sealed in the shared folder (key epoch \(epoch)): only the trip's members can read it")
        case .leftOut(let epoch):
            Console.out("  left out of the trip's newest key (epoch \(epoch)): the owner removed this laptop or retired its seat")
        }
        if status.devices.isEmpty { Console.out("  no other device known yet") }
        for device in status.devices {
            let seen = device.missingOurs == 0 ? "has seen all your changes" : "has not seen \(plural(device.missingOurs, "change")) of yours"
            let when = device.lastPublished.map { "; last shared its changes \($0)" } ?? "; has not shared anything yet"
            Console.out("  \(label(device.id)): \(seen)\(when)")
        }
        if !status.changes.isEmpty {
            Console.out("  your recent changes:")
            for change in status.changes.prefix(10) {
                let reach: String
                if !change.published {
                    reach = "not shared yet"
                } else if change.seenBy.isEmpty {
                    reach = "shared, not yet seen by anyone else"
                } else {
                    reach = "seen by " + change.seenBy.map(label).joined(separator: ", ")
                }
                Console.out("    \(change.field) of \"\(change.title)\": \(reach)")
            }
        }
        if attachments.total > 0 {
            var parts: [String] = []
            if attachments.shared > 0 { parts.append("\(attachments.shared) shared") }
            if attachments.arriving > 0 { parts.append("\(attachments.arriving) arriving (their bytes are not here yet; a later sync fetches them)") }
            if attachments.staged > 0 { parts.append("\(attachments.staged) staged (not yet shared: tripsync sync FOLDER)") }
            if attachments.quarantined > 0 { parts.append("\(attachments.quarantined) quarantined (bytes that did not match their hash; fetched again)") }
            Console.out("  \(plural(attachments.total, "attachment")): " + (attachments.total == attachments.shared ? "all shared, their bytes here" : parts.joined(separator: ", ")))
        }
        for entry in status.nearRetention {
            Console.out("  deleted \"\(entry.title ?? "item")\" may be compacted from \(entry.from) (its body goes once every device has seen the delete)")
        }
        for entry in status.attachmentsNearRetention {
            Console.out(
                "  detached \(entry.name) may be compacted from \(entry.from) (then it cannot be reattached, and gc frees its bytes; tripsync reattach \(entry.id.description.prefix(8)) keeps it)")
        }
        printMetrics(metrics)
    }

    /// The team's numbers, one line each.
    static func printMetrics(_ metrics: TeamMetrics) {
        Console.out("  team metrics:")
        let rate = metrics.conflictsPer1000Changes.map { number($0) } ?? "-"
        Console.out("    conflicts per 1,000 changes: \(rate) (\(plural(metrics.conflicts.total, "open conflict")) in \(plural(metrics.changes, "change")) the trip holds)")
        if metrics.keepMineShare != nil {
            Console.out(
                "    conflicts that hold a value of yours and show yours for now: \(metrics.openConflictsShowingMine) of \(metrics.openConflictsWithMine)")
        } else {
            Console.out("    conflicts that hold a value of yours: none")
        }
        if let age = metrics.oldestUnpublishedChangeSeconds, let made = metrics.oldestUnpublishedChange {
            Console.out("    your oldest change not shared yet: \(ageText(age)) old (made \(made))")
        } else {
            Console.out("    your oldest change not shared yet: none (everything is shared)")
        }
        let days = metrics.retentionSeconds / 86_400
        if metrics.staleDevices.isEmpty {
            Console.out("    devices not heard from for over \(days) days: none")
        } else {
            for device in metrics.staleDevices {
                Console.out("    not heard from for over \(days) days: \(device.name) (last heard \(device.lastHeard))")
            }
        }
    }

    /// `12.5`, `0`: a metric without a trailing `.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `less than a minute`, `5 min`, `3 h 20 min`, `4 days`.
    static func ageText(_ seconds: Int64) -> String {
        if seconds < 60 { return "less than a minute" }
        if seconds < 86_400 { return LocalTimeFormat.duration(seconds: seconds) }
        return plural(Int(seconds / 86_400), "day")
    }
}
