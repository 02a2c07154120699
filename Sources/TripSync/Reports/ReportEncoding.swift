import Foundation
import TripSyncCore

/// The one way reports become JSON (`--json` output, an app's logs): compact, keys sorted, a
/// missing value written as `null` rather than left out, so every key a report names is there.
package enum ReportEncoding {
    /// `report` as JSON text.
    package static func json(_ report: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}

/// A report whose JSON form is its fields, declared once as a list (`reportFields`); the one
/// `encode(to:)` below writes them, a missing value as `null` (`.field`) or left out
/// (`.optional`), and `ReportEncoding` sorts the keys.
package protocol JSONReport: Encodable {
    /// The fields of the JSON object, each with its key.
    var reportFields: [ReportField] { get }
}

/// One field of a `JSONReport`.
package struct ReportField {
    /// The key.
    let key: String
    /// The value; nil is `null`, or leaves the key out when `omitWhenNil`.
    let value: (any Encodable)?
    /// Whether a nil value leaves the key out instead of writing `null`.
    let omitWhenNil: Bool

    /// `key: value`, nil written as `null` (every key a report names is there).
    package static func field(_ key: String, _ value: (any Encodable)?) -> ReportField {
        ReportField(key: key, value: value, omitWhenNil: false)
    }

    /// `key: value`, the key left out when `value` is nil (a value that only some entries have).
    package static func optional(_ key: String, _ value: (any Encodable)?) -> ReportField {
        ReportField(key: key, value: value, omitWhenNil: true)
    }
}

extension JSONReport {
    /// Writes `reportFields`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        for field in reportFields {
            if let value = field.value {
                try container.encode(value, forKey: ReportKey(field.key))
            } else if !field.omitWhenNil {
                try container.encodeNil(forKey: ReportKey(field.key))
            }
        }
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

extension ConflictSummary: JSONReport, Encodable {
    /// `{"fields", "editedWhileDeleted"}`.
    package var reportFields: [ReportField] {
        [
            .field("fields", fields),
            .field("editedWhileDeleted", editedWhileDeleted),
        ]
    }
}
