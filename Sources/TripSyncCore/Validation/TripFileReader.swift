import TripSyncPlatform

/// A trip file read and checked as untrusted input, in the current schema.
public struct LoadedTrip: Sendable {
    /// The document, migrated to the current schema when the file was older.
    public var document: TripDocument
    /// The schema version the file was written in.
    public var sourceSchemaVersion: Int
    /// Whether the file was gzip.
    public var wasGzip: Bool
    /// Whether the file was sealed (an owned trip's end-to-end encrypted file, opened with the
    /// reader's keys: docs/FORMAT.md, "Sealed files").
    public var wasSealed: Bool = false
    /// Problems that do not refuse the file (unknown zones, an end before its start).
    public var warnings: [ValidationIssue]
    /// The size of the JSON text in bytes (after inflating).
    package var jsonByteCount: Int
    /// What migration did, when the file was of an older schema.
    package var migration: MigrationSummary?
    /// The key that signed the file, when it is signed (the signature has been verified: a
    /// file whose signature does not verify is refused). Whether that key may write to the
    /// trip is for sync to decide (`FileAcceptance`).
    package var signedBy: PublicKey? = nil
    /// What replaying the edit journal beside the replica found (`EditJournal.replay`);
    /// nil for a file read outside a home, or a trip without a journal.
    package var journal: EditJournal.Replay? = nil
}

/// The outcome of validating one file: never throws, reports everything.
public struct ValidationReport: Sendable {
    /// The file as named by the caller.
    public var file: String
    /// The schema version the file declares, when it could be read.
    public var schemaVersion: Int?
    /// Errors (the file is refused when there is any).
    public var errors: [ValidationIssue]
    /// Warnings (the file is still valid).
    public var warnings: [ValidationIssue]
    /// Why the file was refused, when it was.
    package var failure: TripFileError?
    /// Whether the file is sealed (an owned trip's end-to-end encrypted file).
    public var isSealed = false
    /// Whether its contents were checked: false for a sealed file the reader holds no key for
    /// (its envelope and signature were checked, what is inside was not).
    public var contentsChecked = true

    /// Whether the file is accepted.
    public var isValid: Bool { errors.isEmpty }
}

/// Reads trip files of any supported schema, gzip or plain, as untrusted input: size limits,
/// strict JSON, the schema of the file's own version, migration forward, then the current rules.
package struct TripFileReader: Sendable {
    /// The largest file read from disk (default 256 MiB).
    package var maxFileBytes: Int
    /// Limits for inflating gzip files.
    package var inflateLimits: InflateLimits
    /// Zone rules for warnings and migration.
    package var zones: ZoneRules
    /// From this many bytes of JSON, a file's live items are decoded on every core after a
    /// first strict pass has delimited them, and items byte-identical to an item of the same id
    /// in an earlier file of one `read(paths:)` are decoded once (`DeferredItems`). The answer
    /// is the same either way; below this size one strict pass is quicker. `Int.max` turns it off.
    package var deferredDecodingMinimumBytes = 256 << 10
    /// Whether each live item read in the second step (`deferredDecodingMinimumBytes`) whose
    /// bytes are already canonical keeps them, so writing it again, unchanged, copies them
    /// instead of encoding it (`FileMerger` turns this on). The cost: a file's JSON stays in
    /// memory while any of its items does. Changing an item drops its bytes.
    package var keepsItemBytes = false

    /// The epoch keys sealed files are opened with; without them a sealed file is refused as
    /// `.sealed` once its envelope and signature are checked.
    package var sealKeys: OpeningKeys?

    /// Creates a reader with the given limits.
    package init(
        maxFileBytes: Int = 256 << 20, inflateLimits: InflateLimits = .standard, zones: ZoneRules = ZoneRules(), sealKeys: OpeningKeys? = nil
    ) {
        self.sealKeys = sealKeys
        self.maxFileBytes = maxFileBytes
        self.inflateLimits = inflateLimits
        self.zones = zones
    }

    /// Reads and checks the file at `path`; throws `TripFileError` naming the file.
    package func read(path: String) throws(TripFileError) -> LoadedTrip {
        try read(paths: [path])[0].get()
    }

    /// Reads and checks several files, each as `read(path:)` would, on every core; results in
    /// the order given. Items two files hold byte for byte under the same id are decoded once
    /// and shared (replicas of one trip mostly agree), so merging inputs costs little more than
    /// reading one.
    ///
    /// A file named like a home's replica (`<tripId>.trip.json.gz`) with an edit journal beside
    /// it (`<tripId>.journal`) is read with the journal's edits replayed (docs/DESIGN.md, "The
    /// edit journal"), so no reader of a replica shows it without its latest edits.
    package func read(paths: [String]) -> [Result<LoadedTrip, TripFileError>] {
        let passes = ParallelMap.map(paths) { path in journaledFirstPass(path: path) }
        var results = finishing(passes.map(\.pass))
        for index in results.indices {
            guard let envelope = passes[index].envelope, case .success(var loaded) = results[index] else { continue }
            results[index] = Result { () throws(TripFileError) -> LoadedTrip in
                try Self.checkSealed(&loaded, envelope, file: paths[index])
                return loaded
            }
        }
        for index in results.indices {
            guard let probe = passes[index].journal, let digest = passes[index].digest, case .success(var loaded) = results[index] else { continue }
            do throws(TripFileError) {
                try EditJournal.replay(probe, digest: digest, into: &loaded, replicaPath: paths[index], zones: zones)
                results[index] = .success(loaded)
            } catch {
                results[index] = .failure(error)
            }
        }
        return results
    }

    /// The first pass of a file, with the edit journal beside it read first (`EditJournal.probe`)
    /// and, when there is one, the digest of the file's bytes it must name as its base.
    private func journaledFirstPass(path: String) -> (pass: FirstPass, journal: EditJournal.Probe?, digest: [UInt8]?, envelope: SealedFile?) {
        let journal = EditJournal.probe(replica: path)
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readFile(path, maxBytes: maxFileBytes)
        } catch let error as FileSystemError {
            return (.finished(.failure(TripFileError(error.code == 27 ? .tooLarge : .unreadable, file: path, message: error.message))), nil, nil, nil)
        } catch {
            return (.finished(.failure(TripFileError(.unreadable, file: path, message: "\(error)"))), nil, nil, nil)
        }
        switch unsealed(bytes, file: path) {
        case .failure(let error): return (.finished(.failure(error)), nil, nil, nil)
        case .success(let (plain, envelope?)): return (firstPass(bytes: plain, file: path), nil, nil, envelope)
        case .success: return (firstPass(bytes: bytes, file: path), journal, journal == nil ? nil : Sodium.blake2b256(bytes), nil)
        }
    }

    /// Reads and checks file contents; `file` names them in errors.
    package func read(bytes: [UInt8], file: String) throws(TripFileError) -> LoadedTrip {
        let (plain, envelope) = try unsealed(bytes, file: file).get()
        var loaded = try finishing([firstPass(bytes: plain, file: file)])[0].get()
        if let envelope { try Self.checkSealed(&loaded, envelope, file: file) }
        return loaded
    }

    /// A sealed file's gzip JSON, opened with `sealKeys`, and its envelope (docs/FORMAT.md,
    /// "Sealed files"); any other file's bytes as they are, without one. A sealed file whose
    /// envelope or signature is wrong, or that does not open with the key its header names, is
    /// refused; one whose key this reader does not hold is refused as `.sealed` (its envelope
    /// and signature checked).
    private func unsealed(_ bytes: [UInt8], file: String) -> Result<(bytes: [UInt8], envelope: SealedFile?), TripFileError> {
        guard bytes.withUnsafeBytes({ SealedFile.isSealed($0) }) else { return .success((bytes, nil)) }
        let envelope: SealedFile
        do {
            envelope = try SealedFile(parsing: bytes)
        } catch {
            return .failure(TripFileError(.invalid, file: file, pointer: error.pointer, message: "a sealed trip file: expected \(error.expected)"))
        }
        guard let key = sealKeys?.key(trip: envelope.trip, id: envelope.epochID) else {
            return .failure(
                TripFileError(
                    .sealed(epoch: envelope.epoch), file: file,
                    message:
                        "sealed for the members of trip \(envelope.trip) (epoch \(envelope.epoch), written by device \(envelope.writer), signed by key \(envelope.signer.fingerprint)): the envelope and its signature are valid; what is inside opens only with the keys of a member of the trip"
                ))
        }
        switch envelope.open(with: key) {
        case .success(let plain): return .success((plain, envelope))
        case .failure(let error):
            return .failure(TripFileError(.invalid, file: file, pointer: error.pointer, message: "a sealed trip file: expected \(error.expected)"))
        }
    }

    /// The checks of a sealed file's document against its envelope: the trip and the writer
    /// the envelope names (signed outside, bound inside as associated data) are the document's,
    /// the trip is owned (an open trip is never sealed), and a signature inside, if any, is by
    /// the key that signed the envelope. The envelope's key is then the file's signer.
    static func checkSealed(_ loaded: inout LoadedTrip, _ envelope: SealedFile, file: String) throws(TripFileError) {
        let document = loaded.document
        guard document.tripID == envelope.trip else {
            throw TripFileError(.invalid, file: file, pointer: "/tripId", message: "the trip the sealed envelope names, \(envelope.trip)")
        }
        guard document.deviceID == envelope.writer else {
            throw TripFileError(
                .invalid, file: file, pointer: "/deviceId",
                message: "the writer the sealed envelope names, \(envelope.writer) (a file is sealed by the device that wrote it)")
        }
        guard document.owner != nil else {
            throw TripFileError(.invalid, file: file, pointer: "/owner", message: "an owner: only an owned trip's files are sealed")
        }
        if let inner = loaded.signedBy, inner != envelope.signer {
            throw TripFileError(.invalid, file: file, pointer: "/deviceKey", message: "the key that signed the sealed envelope, \(envelope.signer.fingerprint)")
        }
        loaded.signedBy = envelope.signer
        loaded.wasSealed = true
    }

    /// A file after its first pass: finished, or with its live items still to decode.
    private enum FirstPass: Sendable {
        case finished(Result<LoadedTrip, TripFileError>)
        case delimited(DeferredItems.Delimited)
    }

    private func firstPass(bytes: [UInt8], file: String) -> FirstPass {
        guard bytes.withUnsafeBytes({ Gzip.isGzip($0) }) else {
            if bytes.count < deferredDecodingMinimumBytes {
                return .finished(Result { () throws(TripFileError) -> LoadedTrip in try readJSON(bytes, file: file, wasGzip: false) })
            }
            return delimit(OwnedBytes(copying: bytes), file: file, wasGzip: false)
        }
        let json: OwnedBytes
        do {
            json = try inflate(bytes, file: file)
        } catch {
            return .finished(.failure(error))
        }
        if json.count < deferredDecodingMinimumBytes { return .finished(onePass(json, file: file, wasGzip: true)) }
        return delimit(json, file: file, wasGzip: true)
    }

    /// `json` read in one strict pass (what the two-step read falls back to).
    func onePass(_ json: OwnedBytes, file: String, wasGzip: Bool) -> Result<LoadedTrip, TripFileError> {
        Result { () throws(TripFileError) -> LoadedTrip in try readJSON(json.buffer, file: file, wasGzip: wasGzip) }
    }

    /// The first strict pass with live items only delimited; a file that is not a clean current
    /// schema document with its clock before its items is read in one strict pass instead.
    private func delimit(_ json: OwnedBytes, file: String, wasGzip: Bool) -> FirstPass {
        let strict = { FirstPass.finished(onePass(json, file: file, wasGzip: wasGzip)) }
        guard let base = json.base, json.count > 0 else { return strict() }
        let scanner = JSONScanner(base: base, count: json.count)
        let probe = SchemaVersionProbe(scanner, delimitsItems: true)
        if let version = probe.version, version != Int64(TripDocument.currentSchemaVersion) {
            // Another version is read in one strict pass, by the same probe as every one-pass
            // read: this probe jumps over items by their shape, so in a file broken inside its
            // items it may find a version the strict probe never reaches (the answers differed).
            return strict()
        }
        var decoder = DocumentDecoder(scanner: scanner, zones: zones)
        decoder.defersItems = true
        decoder.itemHints = probe.itemValues
        guard let document = try? decoder.decode(), case .number(let version) = decoder.version,
            version == Int64(TripDocument.currentSchemaVersion), decoder.context.issues.isEmpty,
            decoder.context.droppedIssues == 0, decoder.clockBeforeItems, decoder.context.cross.complete,
            decoder.context.cross.clock != nil, !decoder.context.cross.issues.contains(where: { $0.severity == .error }),
            Self.signatureRefusal(decoder.signature, scanner: scanner, document: document, file: file) == nil
        else { return strict() }
        return .delimited(
            DeferredItems.Delimited(
                json: json, document: document, spans: decoder.itemSpans, index: decoder.deferredItems,
                warnings: decoder.context.cross.issues, file: file, wasGzip: wasGzip, signer: decoder.signature?.deviceKey))
    }

    /// Every file's answer, decoding the delimited files' items together.
    private func finishing(_ passes: [FirstPass]) -> [Result<LoadedTrip, TripFileError>] {
        var delimited: [DeferredItems.Delimited] = []
        for pass in passes { if case .delimited(let file) = pass { delimited.append(file) } }
        var finished = DeferredItems.finish(delimited, reader: self).makeIterator()
        return passes.map { pass in
            switch pass {
            case .finished(let result): return result
            case .delimited(let file):
                return finished.next() ?? .failure(TripFileError(.unreadable, file: file.file, message: "internal error: no result"))
            }
        }
    }

    private func inflate(_ bytes: [UInt8], file: String) throws(TripFileError) -> OwnedBytes {
        do {
            return try bytes.withUnsafeBytes { try Gzip.decompressOwned($0, limits: inflateLimits) }
        } catch let error as GzipError {
            throw TripFileError(error.kind, file: file, message: error.message)
        } catch {
            throw TripFileError(.corruptGzip, file: file, message: "\(error)")
        }
    }

    /// Validates a file and reports every problem; never throws.
    package func validate(path: String) -> ValidationReport {
        do {
            let loaded = try read(path: path)
            var report = ValidationReport(
                file: path, schemaVersion: loaded.sourceSchemaVersion, errors: [], warnings: loaded.warnings, failure: nil)
            report.isSealed = loaded.wasSealed
            return report
        } catch {
            var version: Int?
            switch error.kind {
            case .sealed:
                // What can be checked without a member's keys was checked, and passed.
                var report = ValidationReport(file: path, schemaVersion: SealedFile.schemaVersion, errors: [], warnings: [], failure: error)
                report.isSealed = true
                report.contentsChecked = false
                return report
            case .newerSchema(let found, _): version = found
            case .unsupportedSchema(let found): version = found
            default: version = nil
            }
            return ValidationReport(
                file: path, schemaVersion: version, errors: error.errors,
                warnings: error.issues.filter { $0.severity == .warning }, failure: error)
        }
    }

    private func readJSON(_ json: [UInt8], file: String, wasGzip: Bool) throws(TripFileError) -> LoadedTrip {
        let result: Result<LoadedTrip, TripFileError> = json.withUnsafeBufferPointer { buffer in
            Result { () throws(TripFileError) -> LoadedTrip in try readJSON(buffer, file: file, wasGzip: wasGzip) }
        }
        return try result.get()
    }

    func readJSON(_ buffer: UnsafeBufferPointer<UInt8>, file: String, wasGzip: Bool) throws(TripFileError) -> LoadedTrip {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw TripFileError(.notJSON, file: file, message: "the file is empty, expected a JSON trip document")
        }
        let scanner = JSONScanner(base: base, count: buffer.count)
        let declared = SchemaVersionProbe(scanner, delimitsItems: false).version
        return try decode(scanner, declared: declared, file: file, wasGzip: wasGzip, size: buffer.count).get()
    }

    /// The document read by the decoder of the version it declares (`SchemaVersionProbe`): a
    /// newer or never-written version is refused before anything else is decoded; an unknown
    /// one goes to the current decoder, which says what is wrong.
    private func decode(_ scanner: JSONScanner, declared: Int64?, file: String, wasGzip: Bool, size: Int) -> Result<LoadedTrip, TripFileError> {
        guard let declared else { return decodeCurrent(scanner, file: file, wasGzip: wasGzip, size: size) }
        if let refusal = Self.refusal(version: declared, file: file) { return .failure(refusal) }
        if declared < Int64(TripDocument.currentSchemaVersion) {
            return readOlder(version: Int(declared), scanner: scanner, file: file, wasGzip: wasGzip, size: size)
        }
        return decodeCurrent(scanner, file: file, wasGzip: wasGzip, size: size)
    }

    /// The refusal of a version this build cannot read at all, or nil.
    private static func refusal(version: Int64, file: String) -> TripFileError? {
        let supported = TripDocument.currentSchemaVersion
        if version > Int64(supported) {
            return TripFileError(
                .newerSchema(found: Int(version), supported: supported), file: file, pointer: "/schemaVersion",
                message: "written by a newer TripSync: schema \(version), this build reads up to \(supported)")
        }
        if version < 1 {
            return TripFileError(
                .unsupportedSchema(found: Int(version)), file: file, pointer: "/schemaVersion",
                message: "schema \(version) was never written by TripSync, expected 1 to \(supported)")
        }
        return nil
    }

    /// A file read by the current schema's decoder.
    private func decodeCurrent(_ scanner: JSONScanner, file: String, wasGzip: Bool, size: Int) -> Result<LoadedTrip, TripFileError> {
        var decoder = DocumentDecoder(scanner: scanner, zones: zones)
        let document: TripDocument?
        do {
            document = try decoder.decode()
        } catch let error as JSONSyntaxError {
            let position = Self.lineAndColumn(scanner, error.offset)
            var issue = ValidationIssue(.error, pointer: decoder.context.pointer, message: "\(position): \(error.message)")
            if error.message.hasPrefix("nesting deeper") { issue.pointer = decoder.context.pointer }
            // Once the syntax breaks, schema problems already found are noise next to it.
            return .failure(TripFileError(.notJSON, file: file, issues: [issue]))
        } catch {
            return .failure(TripFileError(.notJSON, file: file, message: "\(error)"))
        }
        switch decoder.version {
        case .missing, .invalid:
            return .failure(TripFileError(.invalid, file: file, issues: decoder.context.issues))
        case .number(let version):
            // Reached only when the probe could not tell the version (it always can in a file
            // the decoder reads without a syntax error).
            if let refusal = Self.refusal(version: version, file: file) { return .failure(refusal) }
            if version < Int64(TripDocument.currentSchemaVersion) {
                return readOlder(version: Int(version), scanner: scanner, file: file, wasGzip: wasGzip, size: size)
            }
        }
        var issues = decoder.context.issues
        if decoder.context.droppedIssues > 0 {
            issues.append(ValidationIssue(.error, pointer: "", message: "\(decoder.context.droppedIssues) more problems not listed"))
        }
        guard let document, issues.isEmpty else {
            return .failure(TripFileError(.invalid, file: file, issues: issues))
        }
        if let refusal = Self.signatureRefusal(decoder.signature, scanner: scanner, document: document, file: file) {
            return .failure(refusal)
        }
        let signer = decoder.signature?.deviceKey
        return finishCurrent(document, decoder: decoder, file: file, wasGzip: wasGzip, size: size).map { loaded in
            var loaded = loaded
            loaded.signedBy = signer
            return loaded
        }
    }

    /// The refusal of a signed file whose signature does not cover its bytes, or nil.
    static func signatureRefusal(
        _ signature: (deviceKey: PublicKey, value: [UInt8], range: Range<Int>)?, scanner: JSONScanner, document: TripDocument, file: String
    ) -> TripFileError? {
        guard let signature else { return nil }
        let json = UnsafeBufferPointer(start: scanner.base, count: scanner.count)
        if FileSignature.verifies(signature.value, key: signature.deviceKey, json: json, range: signature.range) { return nil }
        return TripFileError(
            .invalid, file: file, pointer: "/signature",
            message:
                "the signature does not verify with the file's deviceKey (\(signature.deviceKey.fingerprint)): the file was changed after device \(document.deviceID) signed it, or signed by another key")
    }

    /// The cross-field rules of a decoded current-schema document.
    private func finishCurrent(_ document: TripDocument, decoder: DocumentDecoder, file: String, wasGzip: Bool, size: Int) -> Result<LoadedTrip, TripFileError> {
        let cross = decoder.context.cross
        if cross.complete && cross.clock != nil {
            // The decoder checked every value against the clock as it read it; what is left
            // needs the finished maps.
            let found = DocumentValidator.ordered(cross.issues + DocumentValidator.finalIssues(in: document, zones: zones))
            return finish(document, issues: found, file: file, sourceVersion: TripDocument.currentSchemaVersion, wasGzip: wasGzip, size: size)
        }
        return finish(document, file: file, sourceVersion: TripDocument.currentSchemaVersion, wasGzip: wasGzip, size: size)
    }

    /// Applies the current schema's cross-field rules to a decoded (or migrated) document.
    func finish(
        _ document: TripDocument, file: String, sourceVersion: Int, wasGzip: Bool, size: Int
    ) -> Result<LoadedTrip, TripFileError> {
        finish(
            document, issues: DocumentValidator(zones: zones).issues(in: document), file: file, sourceVersion: sourceVersion,
            wasGzip: wasGzip, size: size)
    }

    /// A decoded document with its cross-field issues: refused when any is an error.
    func finish(
        _ document: TripDocument, issues: [ValidationIssue], file: String, sourceVersion: Int, wasGzip: Bool, size: Int
    ) -> Result<LoadedTrip, TripFileError> {
        if issues.contains(where: { $0.severity == .error }) {
            return .failure(TripFileError(.invalid, file: file, issues: issues))
        }
        return .success(
            LoadedTrip(document: document, sourceSchemaVersion: sourceVersion, wasGzip: wasGzip, warnings: issues, jsonByteCount: size, migration: nil))
    }

    static func lineAndColumn(_ scanner: JSONScanner, _ offset: Int) -> String {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, scanner.count)
        while index < end {
            if scanner.base[index] == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        return "line \(line), column \(column) (byte \(offset))"
    }
}

extension TripFileReader {
    /// A file of an older schema: decoded once by its own version's rules, migrated forward
    /// step by step (`Migrations`), then checked by the current rules.
    func readOlder(version: Int, scanner: JSONScanner, file: String, wasGzip: Bool, size: Int) -> Result<LoadedTrip, TripFileError> {
        let older: VersionedDocument
        var signer: PublicKey?
        switch version {
        case 2, 3, 4, 5, 6:
            var decoder = DocumentDecoder(scanner: scanner, zones: zones)
            do {
                guard let decoded = try decoder.decode(), decoder.context.issues.isEmpty else {
                    return .failure(TripFileError(.invalid, file: file, issues: decoder.context.issues))
                }
                // A signed schema 3, 4, 5 or 6 file is checked over its own bytes, before any migration.
                if let refusal = Self.signatureRefusal(decoder.signature, scanner: scanner, document: decoded, file: file) {
                    return .failure(refusal)
                }
                signer = decoder.signature?.deviceKey
                older = version == 2 ? .v2(decoded) : version == 3 ? .v3(decoded) : version == 4 ? .v4(decoded) : version == 5 ? .v5(decoded) : .v6(decoded)
            } catch let error as JSONSyntaxError {
                let position = TripFileReader.lineAndColumn(scanner, error.offset)
                return .failure(TripFileError(.notJSON, file: file, pointer: decoder.context.pointer, message: "\(position): \(error.message)"))
            } catch {
                return .failure(TripFileError(.notJSON, file: file, message: "\(error)"))
            }
        case 1:
            var decoder = DocumentDecoderV1(scanner: scanner)
            do {
                guard let v1 = try decoder.decode() else {
                    return .failure(TripFileError(.invalid, file: file, issues: decoder.context.issues))
                }
                older = .v1(v1)
            } catch let error as JSONSyntaxError {
                let position = TripFileReader.lineAndColumn(scanner, error.offset)
                return .failure(TripFileError(.notJSON, file: file, pointer: decoder.context.pointer, message: "\(position): \(error.message)"))
            } catch {
                return .failure(TripFileError(.notJSON, file: file, message: "\(error)"))
            }
        default:
            return .failure(
                TripFileError(.unsupportedSchema(found: version), file: file, pointer: "/schemaVersion", message: "schema \(version) cannot be read"))
        }
        var context = MigrationContext(
            sourceBytes: UnsafeBufferPointer(start: scanner.base, count: scanner.count), zones: zones,
            summary: MigrationSummary(fromVersion: version, toVersion: TripDocument.currentSchemaVersion, steps: []))
        let document: TripDocument
        do {
            document = try Migrations.run(older, context: &context)
        } catch {
            return .failure(TripFileError(.migrationFailed, file: file, issues: error.issues))
        }
        return finish(document, file: file, sourceVersion: version, wasGzip: wasGzip, size: size).map { loaded in
            var loaded = loaded
            loaded.warnings = context.warnings + loaded.warnings
            loaded.migration = context.summary
            loaded.signedBy = signer
            return loaded
        }
    }
}
