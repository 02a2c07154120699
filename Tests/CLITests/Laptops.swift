import Foundation
import Testing
import TripSyncCore
import TripSyncHome

/// Laptops as homes in one temporary folder, meeting in the folder `shared` there: the one
/// harness the CLI tests drive two or more laptops with through the built binary (issue 39: it
/// replaced eight private copies). A suite adds the setups it needs as `extension Laptops`.
struct Laptops {
    /// The temporary folder holding the homes and the shared folder.
    let root = CLI.temporaryFolder()
    /// What a home's name starts with under `root` (`homeA` for "A" with "home").
    let homePrefix: String
    /// The word an argument may say for the shared folder's path (nil: none).
    let sharedWord: String?

    /// Laptops with their shared folder made; `homePrefix` and `sharedWord` as their properties say.
    init(homePrefix: String = "", sharedWord: String? = nil) {
        self.homePrefix = homePrefix
        self.sharedWord = sharedWord
        try? FileManager.default.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)  // a test's own temporary folder
    }

    /// The shared folder (Dropbox, Syncthing, a USB stick).
    var shared: String { root + "/shared" }
    /// The shared folder, by the other name tests use.
    var folder: String { shared }

    /// The home of laptop `who`.
    func home(_ who: String) -> String { root + "/" + homePrefix + who }

    /// Runs `tripsync --home HOME ARGS` for laptop `who`, expecting nothing; `through` runs it
    /// behind another program (faketime and its arguments), with the environment as it is.
    func run(
        _ who: String, _ arguments: [String], environment: [String: String] = [:], through wrapper: [String] = [], cwd: String? = nil
    ) throws -> CLIResult {
        let args = ["--home", home(who)] + arguments.map { $0 == sharedWord ? shared : $0 }
        guard let program = wrapper.first else { return try CLI.run(args, environment: environment, cwd: cwd) }
        let (status, out, err) = try CLI.spawn(program, Array(wrapper.dropFirst()) + [CLI.binary] + args, cwd: cwd ?? root)
        return CLIResult(status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    /// `run`, expecting exit `status` (0 by default).
    @discardableResult
    func expect(
        _ status: Int32 = 0, _ who: String, _ arguments: [String], environment: [String: String] = [:], through wrapper: [String] = [],
        cwd: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLIResult {
        let result = try run(who, arguments, environment: environment, through: wrapper, cwd: cwd)
        #expect(
            result.status == status, "\(who): tripsync \(arguments.joined(separator: " ")) exited \(result.status): \(result.stdout) \(result.stderr)",
            sourceLocation: sourceLocation)
        return result
    }

    /// `run`, expecting exit 0.
    @discardableResult
    func ok(
        _ who: String, _ arguments: [String], environment: [String: String] = [:], through wrapper: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLIResult {
        try expect(0, who, arguments, environment: environment, through: wrapper, sourceLocation: sourceLocation)
    }

    /// `ok` with the arguments one by one.
    @discardableResult
    func ok(
        _ who: String, _ arguments: String..., environment: [String: String] = [:], through wrapper: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLIResult {
        try expect(0, who, arguments, environment: environment, through: wrapper, sourceLocation: sourceLocation)
    }

    /// The device id in laptop `who`'s `device.json` ("" when there is none).
    func deviceID(_ who: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: home(who) + "/device.json"))
        return ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["deviceId"] as? String) ?? ""
    }

    /// Removes the homes and the shared folder.
    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
}

extension Laptops {
    /// The trip file at `path` (a device file in the shared folder, a backup, a merge's output)
    /// read as laptop `who` reads it: with its home's epoch keys (`Home.tripFileReader`). An
    /// owned trip's file is sealed for the trip's members once its writer holds an epoch key
    /// (issue 43), so a test reads it as a member does, never by gunzipping it.
    func tripFile(_ path: String, as who: String) throws -> LoadedTrip {
        try Home(path: home(who)).tripFileReader().read(path: path)
    }

    /// `document` as laptop `who` publishes it (`Home.publishedFile`): sealed with its current
    /// epoch key and signed with its installation's key for the document's device. Requires
    /// that it is sealed (`who` holds an epoch key of the trip), so an attack replayed with
    /// these bytes is one on a sealed trip.
    func sealed(_ document: TripDocument, by who: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let home = Home(path: home(who))
        let file = try home.publishedFile(of: document, access: TripAccess.load(home, document.tripID))
        #expect(file.sealedWith != nil, "\(who) holds no epoch key of trip \(document.tripID)", sourceLocation: sourceLocation)
        return file.bytes
    }
}

extension CLIResult {
    /// Standard output without the whitespace around it (an id, one line).
    var line: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
}
