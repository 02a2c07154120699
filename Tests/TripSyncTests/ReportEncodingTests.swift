import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore

/// Reports encoded by one helper (issue 27): each report lists its fields once (`JSONReport`)
/// and `JSONReport.encode(to:)` writes them; only reports whose shape is not one object of
/// fields (an array, a value whose keys depend on its case) keep an encoder of their own.
@Suite struct ReportEncodingTests {
    @Test func aMissingValueIsNullAndAnOptionalOneIsLeftOut() throws {
        struct Sample: JSONReport {
            var reportFields: [ReportField] { [.field("b", Int?.none), .field("a", "x"), .optional("c", String?.none), .optional("d", 2)] }
        }
        #expect(try ReportEncoding.json(Sample()) == #"{"a":"x","b":null,"d":2}"#)
        let member = MemberEntry(device: DeviceID(high: 1, low: 2), name: "Sam", role: nil, key: nil, pending: true, source: nil)
        let json = try ReportEncoding.json(member)
        #expect(json.hasPrefix(#"{"device":"#) && json.contains(#""key":null"#) && json.contains(#""role":null"#) && json.contains(#""source":null"#), "\(json)")
    }

    /// The encoders written by hand: those whose shape is not an object of fields.
    static let handWritten: Set<String> = [
        "ReportEncoding.swift",  // FieldValue: a string, null, {"date"} or {"local", "zone"} by its case; JSONReport itself
        "ItineraryReport.swift",  // Time: {"date"} or {"local", "zone", ...} by its case
        "DeletedItemsReport.swift",  // an array
        "ConflictReport.swift",  // an array; an entry's keys by its kind
    ]

    @Test func reportsAreEncodedByTheOneHelper() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources").path
        var offenders: [String] = []
        for target in ["TripSync", "TripSyncWeb"] {
            guard let walker = FileManager.default.enumerator(atPath: sources + "/" + target) else { continue }
            for case let file as String in walker where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sources + "/" + target + "/" + file, encoding: .utf8)
                guard text.contains("keyedBy: ReportKey.self"), !Self.handWritten.contains((file as NSString).lastPathComponent) else { continue }
                offenders.append(file)
            }
        }
        #expect(offenders.isEmpty, "reports with an encoder of their own instead of reportFields: \(offenders)")
    }
}
