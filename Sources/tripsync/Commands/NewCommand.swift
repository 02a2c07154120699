import TripSync

/// `tripsync new NAME [--zone ZONE] [--owned]`.
enum NewCommand: Command {
    static let name = "new"
    static let summary = "create a trip; prints its id"
    static let help = """
        usage: tripsync new NAME [--zone ZONE] [--owned]

        Creates a trip in this home and prints its id. --zone sets the zone that 'add' uses when
        none is given (a local setting of this home, e.g. Europe/Lisbon). --owned makes a trip
        this laptop owns: its owner key stays in this home, the trip id is derived from it, and
        other laptops join by invite (tripsync invite, tripsync join). Without it the trip is
        open (any laptop that syncs the folder may write) until 'tripsync members claim'.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--zone"], flags: ["--owned"])
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let tripName = parser.positionals.first else {
            throw CLIError.usage("new needs exactly one NAME (quote it if it has spaces)", command: name)
        }
        let title = try InputParser.text(tripName, option: "NAME", rule: .name, command: name)
        let zone = try parser.value("--zone").map { try InputParser.zone($0, option: "--zone", command: name) }
        let home = HomeAccess.home(global)
        let store: TripStore
        do {
            store = try TripStore.create(name: title, defaultZone: zone, owned: parser.has("--owned"), in: home)
        } catch let error as EditError {
            throw Session.refusal(error)
        } catch let error as TripStoreError {
            throw Session.refusal(error, home: home)
        } catch let error as TripFileError {
            throw CLIError.file(error)
        } catch {
            throw CLIError.refused("\(home.path): cannot save: \(error)")
        }
        for notice in store.notices { Console.warning(notice) }
        let tripID = store.tripID
        Console.out(tripID.description)
    }
}
