import TripSyncPlatform
import TripSyncCore

/// A trip file as this home writes it for others to read (docs/DESIGN.md, "Sealed files"): the
/// bytes, and for a sealed one the gzip JSON inside and the epoch key that sealed it.
package struct PublishedFile: Sendable {
    /// The file's bytes.
    package var bytes: [UInt8]
    /// The gzip JSON sealed inside (empty for a file that is not sealed).
    package var gzip: [UInt8]
    /// The epoch key it is sealed with; nil for a file that is not sealed.
    package var sealedWith: EpochKey?
}

extension Home {
    /// `document` as this home publishes it, the one place that decides sealed or not (sync's
    /// device file and `backup` both come here): an owned trip whose epoch key this home holds
    /// (`access`, the trip's access record) is sealed with its current key and signed by this
    /// installation's key for the document's device; an owned trip without one yet is signed
    /// gzip, readable by the folder's host until a key arrives; an open trip is plain gzip.
    package func publishedFile(of document: TripDocument, access: TripAccess) throws -> PublishedFile {
        guard document.owner != nil else { return PublishedFile(bytes: try document.gzipData(), gzip: [], sealedWith: nil) }
        let signingKey = try signingKey(for: document.deviceID)
        guard let key = KeyringPlan.current(access.epochKeys) else {
            return PublishedFile(bytes: try document.signedGzipData(signingKey: signingKey), gzip: [], sealedWith: nil)
        }
        let gzip = try document.gzipData()
        let bytes = SealedFile.seal(gzip: gzip, trip: document.tripID, writer: document.deviceID, key: key, signingKey: signingKey)
        return PublishedFile(bytes: bytes, gzip: gzip, sealedWith: key)
    }

    /// The bytes of a backup of `document`, this home's replica. Unless `plain`, it is what sync
    /// publishes (`publishedFile`): sealed for an owned trip with an epoch key, so a backup on a
    /// shared drive shows its host no more than the trip folder does. `plain` writes readable
    /// JSON on purpose: an owned trip's signed with this installation's key (so `import
    /// --merge` accepts it by the rule sync applies), an open trip's unsigned; gzip or not as
    /// `gzip` says.
    package func backupBytes(of document: TripDocument, gzip: Bool, plain: Bool) throws -> [UInt8] {
        if !plain {
            let file = try publishedFile(of: document, access: try TripAccess.load(self, document.tripID))
            if file.sealedWith != nil { return file.bytes }
        }
        guard document.owner != nil else { return gzip ? try document.gzipData() : document.canonicalJSON() }
        let key = try signingKey(for: document.deviceID)
        return gzip ? try document.signedGzipData(signingKey: key) : document.signedCanonicalJSON(signingKey: key)
    }

    /// Whether a backup of `trip` is sealed unless asked plain: the trip is owned and this home
    /// holds an epoch key of it.
    package func sealsBackups(of document: TripDocument) throws -> Bool {
        guard document.owner != nil else { return false }
        return KeyringPlan.current(try TripAccess.load(self, document.tripID).epochKeys) != nil
    }

    /// Every epoch key this home holds, of every trip it has an access record for: what
    /// `import`, `merge`, `validate` and the other readers of files from outside a trip folder
    /// open sealed files with. Throws when an access record cannot be read.
    package func sealKeys() throws -> OpeningKeys {
        var byTrip: [TripID: [String: EpochKey]] = [:]
        for name in try FileIO.folderTextNames(layout.access, what: "this home's access records") where name.hasSuffix(".json") {
            guard let trip = Identifier(String(name.dropLast(5))) else { continue }
            let keys = try TripAccess.load(self, trip).epochKeys
            if !keys.isEmpty { byTrip[trip] = Dictionary(keys.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        }
        let held = byTrip
        return OpeningKeys { trip, id in held[trip]?[id] }
    }

    /// A reader of trip files from outside (a backup, a file someone sent) that opens sealed
    /// files with this home's keys (`sealKeys`).
    package func tripFileReader(zones: ZoneRules = ZoneRules()) throws -> TripFileReader {
        TripFileReader(zones: zones, sealKeys: try sealKeys())
    }
}
