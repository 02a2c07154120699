import Foundation
import Testing

/// Issue 40, as a person with a wrong clock meets it (the built binary under faketime): a
/// laptop whose clock is behind every other is told that its own clock is wrong and what to
/// do, keeps its id, and takes the others' files once its clock is right.
@Suite struct WrongClockCommandTests {
    @Test(.enabled(if: CLI.faketimeUsable, Comment(rawValue: CLI.faketimeMissing)))
    func aLaptopBehindEveryOtherIsToldItsOwnClockIsWrong() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try FileManager.default.createDirectory(atPath: laptops.folder, withIntermediateDirectories: true)
        for name in ["alex", "sam"] { _ = try laptops.run(name, day: 30, ["init", "--device-name", "\(name)'s laptop"]) }
        _ = try laptops.run("alex", day: 30, ["new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--open"])
        _ = try laptops.run("alex", day: 30, ["add", "Fado night", "--day", "2027-06-08"])
        try laptops.sync("alex", day: 30)
        // Sam's clock says day 0: thirty days behind alex's file.
        let behind = try laptops.run("sam", day: 0, ["sync", laptops.folder])
        #expect(behind.status == 0, "\(behind.stderr)")
        let said = behind.stdout + behind.stderr
        #expect(said.contains("this laptop's clock is probably behind"), "\(said)")
        #expect(said.contains("Set its date and time right"), "\(said)")
        #expect(said.contains("30 days ahead of this laptop's"), "\(said)")
        // Its clock fixed, sam takes the trip.
        try laptops.sync("sam", day: 30)
        let shown = try laptops.run("sam", day: 30, ["show"])
        #expect(shown.stdout.contains("Fado night"), "\(shown.stdout)\(shown.stderr)")
    }
}
