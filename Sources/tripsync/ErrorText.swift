import Foundation
import TripSync
import TripSyncPlatform
import TripSyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of an error that reached `runTool`: a Foundation error (`NSCocoaErrorDomain error
/// 256` says nothing to a person) becomes the path and what is wrong there; anything else is
/// its description.
enum ErrorText {
    static func describe(_ error: any Error) -> String {
        let error = TripError.cause(of: error)
        if error is FileSystemError || error is TripFileError { return "\(error)" }
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return "\(error)" }
        let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        var code: Int32?
        if ns.domain == NSPOSIXErrorDomain { code = Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain { code = Int32(underlying.code) }
        let reason: String
        if let code {
            reason = FileIO.describe(code)
        } else {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileReadNoPermission, .fileWriteNoPermission: reason = FileIO.describe(EACCES)
            case .fileReadNoSuchFile, .fileNoSuchFile: reason = FileIO.describe(ENOENT)
            case .fileWriteOutOfSpace: reason = FileIO.describe(ENOSPC)
            case .fileWriteVolumeReadOnly: reason = FileIO.describe(EROFS)
            case .fileWriteFileExists: reason = "something is already at this path; move it away or choose another"
            default: reason = "the file system refused (\(ns.localizedFailureReason ?? "no reason given")); check that the path exists, is what it should be and is readable"
            }
        }
        return "\(path ?? "a file"): \(reason)"
    }
}
