import TripSyncCore
import TripSyncHome

// Here rather than beside the other settings (TripSyncHome, HomeSettings.swift): a home sits
// below sync, and only this record needs sync's report.
extension Home {
    /// Records `folder` as the last folder of every trip `report` synced (joined ones included),
    /// after a sync; returns a message per trip whose setting could not be saved (the sync itself
    /// stands).
    package func recordLastFolder(_ folder: String, of report: SyncReport) -> [String] {
        var problems: [String] = []
        for trip in report.trips where trip.failure == nil {
            do {
                try recordLastFolder(folder, for: trip.tripID)
            } catch {
                problems.append("\(settingsPath(for: trip.tripID)): cannot record the last folder used (\(error))")
            }
        }
        return problems
    }
}
