#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One input of a file merge, as read.
public struct MergeInput: Sendable {
    /// The file as named by the caller.
    public var file: String
    /// The schema version the file was written in.
    public var schemaVersion: Int
    /// The device that wrote it.
    public var deviceID: DeviceID
    /// What it brought, measured against the inputs merged before it.
    public var brought: MergeContribution
    /// Warnings found while reading it.
    public var warnings: [ValidationIssue]
}

/// The result of merging trip files.
public struct FileMergeResult: Sendable {
    /// The merged document (written by `writer`).
    public var document: TripDocument
    /// Every input in the order given, with what it brought.
    public var inputs: [MergeInput]
}

/// Why a file merge was refused; nothing was written.
public enum FileMergeError: Error, Sendable, CustomStringConvertible {
    /// An input could not be read or is invalid.
    case unreadable(TripFileError)
    /// The merge itself refused (different trips, one dot with two values, a clock from the future).
    case refused(file: String, MergeError)

    /// `FILE: /pointer: message` lines.
    public var description: String {
        switch self {
        case .unreadable(let error): return error.description
        case .refused(let file, let error): return "\(file): \(error)"
        }
    }
}

/// Merges trip files of any supported schema, gzip or plain: every input is read and validated
/// first, so one invalid input refuses the whole merge.
public struct FileMerger: Sendable {
    /// How inputs are read.
    public var reader: TripFileReader
    /// The replica doing the merge (the output's `deviceId`).
    public var writer: DeviceID

    /// Creates a merger writing as `writer`.
    public init(writer: DeviceID, reader: TripFileReader = TripFileReader()) {
        self.writer = writer
        self.reader = reader
    }

    /// Reads every file, checks clocks against `nowMilliseconds`, and merges them in order.
    public func merge(files: [String], nowMilliseconds: UInt64 = FileMerger.wallClockMilliseconds()) throws(FileMergeError) -> FileMergeResult {
        // Inputs are independent: read and validate them on every core.
        let reader = self.reader
        let results = ParallelMap.map(files) { file in Result { () throws(TripFileError) -> LoadedTrip in try reader.read(path: file) } }
        var loaded: [(String, LoadedTrip)] = []
        for (file, result) in zip(files, results) {
            switch result {
            case .success(let trip): loaded.append((file, trip))
            case .failure(let error): throw .unreadable(error)
            }
        }
        for (file, trip) in loaded {
            if let (device, skew) = ClockGuard.futureDevice(in: trip.document, nowMilliseconds: nowMilliseconds) {
                throw .refused(file: file, MergeError(.clockFromTheFuture, message: ClockGuard.describe(device: device, skewMilliseconds: skew)))
            }
        }
        guard let first = loaded.first else {
            throw .unreadable(TripFileError(.unreadable, file: "", message: "no input files"))
        }
        var document = first.1.document
        document.deviceID = writer
        var inputs: [MergeInput] = []
        var previous = TripDocument(tripID: document.tripID, deviceID: writer, clock: VersionVector(), trip: document.trip)
        for (index, (file, trip)) in loaded.enumerated() {
            if index > 0 {
                do {
                    document = try DocumentMerger.merge(document, trip.document, writer: writer)
                } catch {
                    var error = error
                    if error.kind == .sameDotDifferentValues {
                        error.message += " (while merging \(file) into \(loaded[0..<index].map(\.0).joined(separator: ", ")))"
                    }
                    throw .refused(file: file, error)
                }
            }
            inputs.append(
                MergeInput(
                    file: file, schemaVersion: trip.sourceSchemaVersion, deviceID: trip.document.deviceID,
                    brought: MergeContribution(before: previous, after: document), warnings: trip.warnings))
            previous = document
        }
        return FileMergeResult(document: document, inputs: inputs)
    }

    /// Milliseconds since 1970 from the system clock.
    public static func wallClockMilliseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec / 1_000_000)
    }
}
