/// The wording of the document rules that span fields (dots against the clock, zones, an end
/// before its start, an id in both maps): one place for the decoder's checks while reading
/// (`CrossFieldChecks`) and the validator's checks of a finished document (`DocumentValidator`).
enum DocumentIssues {
    static func dotAboveClock(_ rev: Rev, clockValue: UInt64, pointer: String) -> ValidationIssue {
        ValidationIssue(
            .error, pointer: pointer,
            message: "rev \(rev) is above the document's clock for device \(rev.device) (\(clockValue)), expected every write to be accounted for by \"clock\"")
    }

    static func entryAboveClock(_ what: String, counter: UInt64, clockValue: UInt64, pointer: String) -> ValidationIssue {
        ValidationIssue(
            .error, pointer: pointer,
            message: "\(what) entry \(counter) is above the document's clock for this device (\(clockValue)), expected at most the clock")
    }

    static func unknownZone(_ zone: String, pointer: String) -> ValidationIssue {
        ValidationIssue(
            .warning, pointer: pointer,
            message: "zone \"\(zone)\" is unknown to this machine's time zone database; the time is shown as stored local time plus the id")
    }

    static func endBeforeStart(pointer: String) -> ValidationIssue {
        ValidationIssue(.warning, pointer: pointer, message: "the end is before the start")
    }

    static func inBothMaps(_ id: ItemID) -> ValidationIssue {
        ValidationIssue(
            .error, pointer: "/tombstones/\(id)",
            message: "id \(id) is in both \"items\" and \"tombstones\", expected an item to be live or deleted, never both")
    }
}
