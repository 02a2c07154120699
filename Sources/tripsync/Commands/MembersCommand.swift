import TripSync
import TripSyncCore
import TripSyncHome
import TripSyncPlatform

/// `tripsync members [--json]`, `members claim`, `members approve DEVICE|--all`,
/// `members decline DEVICE`, `members set DEVICE --role R`, `members remove DEVICE`, `members rotate`.
enum MembersCommand: Command {
    static let spec = CommandSpec(
        name: "members",
        summary: "who may change the trip: list, claim, approve, decline, set a role, remove, rotate the keys",
        forms: [
            "[--json] [--trip]", "claim [--trip]", "approve DEVICE|--all [--role] [--trip]", "decline DEVICE [--trip]", "set DEVICE --role [--trip]",
            "remove DEVICE [--trip]", "rotate [--trip]",
        ],
        about: """
            Lists every device of the trip with its person's name, role, key fingerprint, and the
            devices waiting for the owner (join requests without a valid invite, devices that wrote
            before the trip was claimed). All but the list need this laptop to hold the trip's
            owner key. 'claim' makes an open trip (from before members existed) owned by this
            laptop. An invite admits one device once; any other request waits here: 'approve'
            admits it (with the role its invite named unless --role says), 'decline' refuses it for
            good (a new invite is needed). 'approve --all' never brings back a removed device, never
            raises a demoted one and never grants more than a request's invite named. A role change
            or removal is signed by the owner key and takes effect on each laptop as it arrives: a
            removed device's later changes reach nobody who had the removal first; what it wrote
            before stays. 'rotate' asks for a new epoch of the trip's keys, sealed only to the current
            members (a removal starts one by itself); this laptop's next sync starts it. DEVICE is a
            device id, an id prefix (4+ characters) or its exact name.
            """,
        options: [
            OptionSpec("--json", .flag, "one JSON value on stdout"),
            .trip,
            OptionSpec("--all", .flag, "approve every pending request"),
            OptionSpec("--role", .choice(["editor", "viewer"]), "the role to give"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let words = parser.positionals
        let action = words.first ?? "list"
        func role() throws -> MemberRole? {
            guard let text = parser.value("--role") else { return nil }
            guard let role = MemberRole(rawValue: text), role == .editor || role == .viewer else {
                throw CLIError.usage("--role expects editor or viewer, found '\(text)'", command: name)
            }
            return role
        }
        func device() throws -> String {
            guard words.count == 2 else { throw CLIError.usage("members \(action) needs one DEVICE", command: name) }
            return words[1]
        }
        switch action {
        case "list":
            guard words.count <= 1 else { throw CLIError.usage("unknown members action '\(words[1])'", command: name) }
        case "claim", "approve", "decline", "set", "remove": break
        case "rotate":
            guard words.count == 1 else { throw CLIError.usage("members rotate takes no DEVICE", command: name) }
        default: throw CLIError.usage("unknown members action '\(action)' (claim, approve, decline, set, remove, rotate)", command: name)
        }
        // Listing only reads: a home that does not exist is refused, not made.
        if action == "list" { try HomeAccess.requireExisting(global) }
        let store = try Session.store(global, trip: parser.value("--trip"))
        try attempt {
            switch action {
            case "claim":
                guard words.count == 1 else { throw CLIError.usage("members claim takes no argument", command: name) }
                try claim(store)
            case "approve":
                if parser.has("--all") {
                    guard words.count == 1 else { throw CLIError.usage("members approve --all takes no DEVICE", command: name) }
                    let done = try store.approveAll(role: parser.value("--role") == nil ? nil : try role())
                    Console.out(done.isEmpty ? "no pending device with a known key" : "approved \(plural(done.count, "device")); they take part from their next sync:")
                    for entry in done { Console.out("  " + line(entry)) }
                    let left = try store.members().filter(\.pending)
                    if !left.isEmpty {
                        Console.out(
                            "\(plural(left.count, "device")) still pending (a removed or demoted device, or no key yet): tripsync members approve DEVICE or members decline DEVICE")
                        for entry in left { Console.out("  " + line(entry)) }
                    }
                } else {
                    let entry = try store.approve(try device(), role: try role())
                    Console.out("approved \(entry.name) (\(entry.device.description.prefix(8))) as \(entry.role?.rawValue ?? ""); publish with tripsync sync FOLDER")
                }
            case "rotate":
                let epoch = try store.rotateKeys()
                let next = epoch == 0 ? "the trip's first keys are made" : "epoch \(epoch + 1) of the trip's keys starts"
                Console.out("\(next) at this laptop's next sync, sealed only to the current members: tripsync sync FOLDER")
            case "decline":
                let entry = try store.decline(try device())
                Console.out("declined \(entry.name) (\(entry.device.description.prefix(8))): its request stays refused; a new invite is needed for it to ask again")
            case "set":
                guard let newRole = try role() else { throw CLIError.usage("members set needs --role editor|viewer", command: name) }
                let (entry, changed) = try store.changeRole(try device(), newRole)
                guard changed else {
                    Console.out("\(entry.name) (\(entry.device.description.prefix(8))) is already \(article(newRole)) \(newRole.rawValue); nothing changed")
                    return
                }
                Console.out("\(entry.name) (\(entry.device.description.prefix(8))) is now \(entry.role?.rawValue ?? ""); publish with tripsync sync FOLDER")
            case "remove":
                let (entry, changed) = try store.changeRole(try device(), .removed)
                guard changed else {
                    Console.out("\(entry.name) (\(entry.device.description.prefix(8))) is already removed; nothing changed")
                    return
                }
                Console.out("removed \(entry.name) (\(entry.device.description.prefix(8))); each laptop stops taking its files once this arrives (publish with tripsync sync FOLDER)")
            default:
                try list(store, json: parser.has("--json"))
            }
        }
    }

    /// `members claim`: the trip owned by this laptop, and the devices that now wait for it.
    static func claim(_ store: TripStore) throws {
        try store.claim()
        Console.out("claimed \"\(store.document.trip.name.value)\": this laptop holds its owner key (\(store.document.owner?.key.fingerprint ?? ""))")
        let pending = try store.members().filter(\.pending)
        if !pending.isEmpty {
            Console.out("\(plural(pending.count, "device")) of the trip wait for your approval (tripsync members approve DEVICE|--all):")
            for entry in pending { Console.out("  " + line(entry)) }
        }
    }

    /// `members` (the list): each device with its role, or `--json`.
    static func list(_ store: TripStore, json: Bool) throws {
        let entries = try store.members()
        if json {
            try Console.json(entries)
            return
        }
        let document = store.document
        if document.owner == nil {
            Console.out("\"\(document.trip.name.value)\" is an open trip: every device may write, files need no signature (tripsync members claim makes this laptop its owner)")
        } else {
            Console.out("\"\(document.trip.name.value)\", owner key \(document.owner?.key.fingerprint ?? "")\(try store.holdsOwnerKey() ? " (held here)" : "")")
        }
        for entry in entries { Console.out("  " + line(entry) + (entry.device == store.deviceID ? "  (this laptop)" : "")) }
    }

    /// `1234abcd  Sam's laptop  editor  key 3f2a 91c0 77de 0b14`.
    /// "an" before owner and editor, "a" before viewer.
    static func article(_ role: MemberRole) -> String {
        role == .viewer ? "a" : "an"
    }

    static func line(_ entry: MemberEntry) -> String {
        let role =
            entry.pending
            ? "pending (\(entry.source ?? "request"))" : (entry.role?.rawValue ?? "writer") + (entry.role != nil ? entry.source.map { " (\($0))" } ?? "" : "")
        return "\(entry.device.description.prefix(8))  \(entry.name)  \(role)  key \(entry.key?.fingerprint ?? "unknown")"
    }

    /// Library refusals as exits.
    static func attempt(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as any TripSyncError {
            throw Failure.cliError(error)
        }
    }
}
