// An app imports one module, `TripSync`, and sees the whole app API: the home handle and trip
// store declared here, and the values, reports and errors they hand out, which live in the
// layers below (docs/DESIGN.md, "Layers"). Those layers keep everything else `package`, so what
// this re-export shows is exactly their public part: the documents and their values
// (TripSyncCore), the errors of files (TripSyncPlatform), invites and attachments' findings
// (TripSyncHome) and the sync report (TripSyncSync).
@_exported import TripSyncPlatform
@_exported import TripSyncCore
@_exported import TripSyncHome
@_exported import TripSyncSync
