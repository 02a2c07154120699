import Foundation
import TripSyncCore

/// The one way reports become JSON (`--json` output, an app's logs): compact, keys sorted, a
/// missing value written as `null` rather than left out, so every key a report names is there.
public enum ReportEncoding {
    /// `report` as JSON text.
    public static func json(_ report: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}

/// Keys named by their text, for reports whose keys are fixed strings.
struct ReportKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where K == ReportKey {
    /// Encodes `value` (nil as `null`) under `key`.
    mutating func put<T: Encodable>(_ value: T?, _ key: String) throws {
        if let value { try encode(value, forKey: ReportKey(key)) } else { try encodeNil(forKey: ReportKey(key)) }
    }
}

extension FieldValue: Encodable {
    /// A text as a string (`null` when cleared); a whole day as `{"date"}`; a timed value as
    /// `{"local", "zone"}`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .text(let text):
            var container = encoder.singleValueContainer()
            if let text { try container.encode(text) } else { try container.encodeNil() }
        case .time(nil):
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .time(.date(let date)?):
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(date.description, "date")
        case .time(.local(let local, let zone)?):
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(local.description, "local")
            try container.put(zone, "zone")
        }
    }
}

extension ConflictSummary: Encodable {
    /// `{"fields", "editedWhileDeleted"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(fields, "fields")
        try container.put(editedWhileDeleted, "editedWhileDeleted")
    }
}
