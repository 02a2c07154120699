import Foundation
@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// Stops the fuzz run: the current input broke a property. libFuzzer sees the trap as a crash
/// and saves the input under `-artifact_prefix`. (A trap is right here and only here: this is
/// a test harness, never library code.)
public func violated(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("TripSync fuzz property violated: " + message(), file: file, line: line)
}

/// The properties every fuzz target checks on documents it has in hand.
public enum Properties {
    /// Errors the validator finds in a document (warnings are fine).
    public static func errors(in document: TripDocument) -> [ValidationIssue] {
        DocumentValidator().issues(in: document).filter { $0.severity == .error }
    }

    /// The document passes validation: no errors.
    public static func requireValid(_ document: TripDocument, _ what: @autoclosure () -> String) {
        let errors = errors(in: document)
        if !errors.isEmpty {
            violated("\(what()) is not valid: \(errors.prefix(5).map(\.description))")
        }
    }

    /// Writes the canonical bytes, reads them back through the public reader and requires that
    /// the reader accepts them, that writing again gives the same bytes, and that the document
    /// read back equals the one written. Returns the canonical bytes.
    @discardableResult
    public static func requireRoundTrip(_ document: TripDocument, _ what: @autoclosure () -> String) -> [UInt8] {
        let bytes = document.canonicalJSON()
        let again: LoadedTrip
        do {
            again = try TripFileReader().read(bytes: bytes, file: "roundtrip")
        } catch {
            violated("\(what()): its canonical bytes are refused by the reader: \(error)")
        }
        let rewritten = again.document.canonicalJSON()
        if rewritten != bytes {
            violated("\(what()): canonical bytes change on a round trip (\(bytes.count) → \(rewritten.count) bytes, first difference at byte \(firstDifference(bytes, rewritten)))")
        }
        if again.document != document {
            violated("\(what()): the document read back from its canonical bytes differs from the one written")
        }
        return bytes
    }

    /// Merges `a` and `b` both ways as `writer` and checks the merge laws on them:
    /// both orders succeed or both refuse; commutativity (same canonical bytes); the result is
    /// valid (and, with `roundTrip`, reads back from its canonical bytes unchanged); idempotence
    /// (`merge(m, m) == m`); with `absorption`, merging either input again changes nothing.
    /// Returns the merge, or nil when it was refused.
    ///
    /// Absorption only holds for consistent inputs (histories made by the editing API): two
    /// arbitrary valid files can disagree about which of one device's writes replaced which
    /// (see Fuzz/regressions/README.md), so the read target leaves it off.
    @discardableResult
    public static func requireMergeLaws(
        _ a: TripDocument, _ b: TripDocument, writer: DeviceID, absorption: Bool = true, roundTrip: Bool = true, _ what: @autoclosure () -> String
    ) -> TripDocument? {
        let ab: TripDocument
        let ba: TripDocument
        switch (merge(a, b, writer), merge(b, a, writer)) {
        case (.failure(let x), .failure(let y)):
            if x.kind != y.kind { violated("\(what()): merge refuses differently by order: \(x) / \(y)") }
            return nil
        case (.success, .failure(let error)), (.failure(let error), .success):
            violated("\(what()): merge refuses in one order only: \(error)")
        case (.success(let x), .success(let y)):
            ab = x
            ba = y
        }
        let bytes = ab.canonicalJSON()
        if bytes != ba.canonicalJSON() {
            dump(["a": a, "b": b, "ab": ab, "ba": ba])
            violated("\(what()): merge is not commutative (first difference at byte \(firstDifference(bytes, ba.canonicalJSON())))")
        }
        requireValid(ab, "\(what()): the merge")
        if roundTrip { requireRoundTrip(ab, "\(what()): the merge") }
        requireIdempotent(ab, "\(what()): the merge")
        guard absorption else { return ab }
        for (name, input) in [("first", a), ("second", b)] {
            switch merge(ab, input, writer) {
            case .success(let again):
                if again != ab {
                    dump(["a": a, "b": b, "ab": ab, "again": again])
                    violated("\(what()): merging the \(name) input again changed the merge")
                }
            case .failure(let error): violated("\(what()): merging the \(name) input again was refused: \(error)")
            }
        }
        return ab
    }

    /// `merge(d, d, writer: d.deviceID) == d`.
    public static func requireIdempotent(_ document: TripDocument, _ what: @autoclosure () -> String) {
        switch merge(document, document, document.deviceID) {
        case .success(let merged): if merged != document { violated("\(what()): merging it with itself changed it") }
        case .failure(let error): violated("\(what()): merging it with itself was refused: \(error)")
        }
    }

    /// Associativity of three documents: `(a·b)·c` and `a·(b·c)` give the same bytes when both
    /// succeed.
    public static func requireAssociative(
        _ a: TripDocument, _ b: TripDocument, _ c: TripDocument, writer: DeviceID, _ what: @autoclosure () -> String
    ) {
        guard case .success(let ab) = merge(a, b, writer), case .success(let bc) = merge(b, c, writer) else { return }
        let left = merge(ab, c, writer)
        let right = merge(a, bc, writer)
        switch (left, right) {
        case (.success(let l), .success(let r)):
            if l.canonicalJSON() != r.canonicalJSON() { violated("\(what()): merge is not associative") }
        case (.failure, .failure):
            return
        default:
            violated("\(what()): merge refuses in one grouping only")
        }
    }

    /// The merge as a `Result`.
    public static func merge(_ a: TripDocument, _ b: TripDocument, _ writer: DeviceID) -> Result<TripDocument, MergeError> {
        do {
            return .success(try DocumentMerger.merge(a, b, writer: writer))
        } catch {
            return .failure(error)
        }
    }

    /// With `TRIPSYNC_FUZZ_DUMP=folder` in the environment, writes the canonical JSON of the
    /// documents involved in a violation there (`NAME.trip.json`), for triage.
    public static func dump(_ documents: [String: TripDocument]) {
        guard let folder = ProcessInfo.processInfo.environment["TRIPSYNC_FUZZ_DUMP"], !folder.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, document) in documents {
            _ = FileManager.default.createFile(atPath: folder + "/" + name + ".trip.json", contents: Data(document.canonicalJSON()))
        }
    }

    static func firstDifference(_ x: [UInt8], _ y: [UInt8]) -> Int {
        var index = 0
        while index < x.count, index < y.count, x[index] == y[index] { index += 1 }
        return index
    }
}
