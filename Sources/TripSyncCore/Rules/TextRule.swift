/// The rule a text value must meet: its length in Unicode scalars, and no control characters
/// (C0, DEL, C1) except newline and tab where allowed. One definition serves the file reader
/// and every edit, so an edit can never write a value that readers refuse.
package struct TextRule: Hashable, Sendable {
    /// The fewest scalars allowed.
    package var minimumLength: Int
    /// The most scalars allowed.
    package var maximumLength: Int
    /// Whether newline and tab are allowed (notes only).
    package var allowsNewlineAndTab: Bool

    /// Creates a rule.
    package init(minimumLength: Int, maximumLength: Int, allowsNewlineAndTab: Bool) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.allowsNewlineAndTab = allowsNewlineAndTab
    }

    /// A trip's or a device's name: 1–200 characters.
    package static let name = TextRule(minimumLength: 1, maximumLength: 200, allowsNewlineAndTab: false)
    /// An item's title: 1–200 characters.
    package static let title = TextRule(minimumLength: 1, maximumLength: 200, allowsNewlineAndTab: false)
    /// An item's place: at most 500 characters.
    package static let place = TextRule(minimumLength: 0, maximumLength: 500, allowsNewlineAndTab: false)
    /// An item's note: at most 10,000 characters; newlines and tabs allowed.
    package static let note = TextRule(minimumLength: 0, maximumLength: 10_000, allowsNewlineAndTab: true)

    /// An attachment's name: 1–255 characters (it becomes a file name at `extract`; see
    /// `AttachmentRules.nameProblem` for the characters a file name cannot hold).
    package static let attachmentName = TextRule(minimumLength: 1, maximumLength: 255, allowsNewlineAndTab: false)
    /// An attachment's caption: at most 2,000 characters; newlines and tabs allowed.
    package static let caption = TextRule(minimumLength: 0, maximumLength: 2_000, allowsNewlineAndTab: true)

    /// How a text breaks the rule.
    package enum Violation: Hashable, Sendable {
        /// Too short or too long: the length found, in scalars.
        case length(Int)
        /// A control character the rule does not allow.
        case controlCharacter
    }

    /// The allowed lengths in words: "1 to 200" or "at most 500".
    package var lengthDescription: String {
        minimumLength == 0 ? "at most \(maximumLength)" : "\(minimumLength) to \(maximumLength)"
    }

    /// Whether a scalar counts as a control character (newline and tab included).
    @inline(__always)
    package static func isControl(_ scalar: UInt32) -> Bool {
        scalar < 0x20 || (scalar >= 0x7F && scalar <= 0x9F)
    }

    /// Checks facts already measured (the reader counts them while scanning): nil when valid.
    @inline(__always)
    package func violation(scalarCount: Int, hasControl: Bool, hasNewlineOrTab: Bool) -> Violation? {
        if scalarCount < minimumLength || scalarCount > maximumLength { return .length(scalarCount) }
        if hasControl || (hasNewlineOrTab && !allowsNewlineAndTab) { return .controlCharacter }
        return nil
    }

    /// Checks a text: nil when valid.
    package func violation(in text: String) -> Violation? {
        var count = 0
        var hasControl = false
        var hasNewlineOrTab = false
        for scalar in text.unicodeScalars {
            count += 1
            if scalar == "\n" || scalar == "\t" {
                hasNewlineOrTab = true
            } else if TextRule.isControl(scalar.value) {
                hasControl = true
            }
        }
        return violation(scalarCount: count, hasControl: hasControl, hasNewlineOrTab: hasNewlineOrTab)
    }

    /// "expected WHAT of 1 to 200 characters, found 0" or "expected WHAT with no control
    /// characters [other than newline and tab]": the reader's wording, for any caller.
    package func message(for violation: Violation, what: String) -> String {
        switch violation {
        case .length(let found):
            return "expected \(what) of \(lengthDescription) characters, found \(found)"
        case .controlCharacter:
            return "expected \(what) with no control characters" + (allowsNewlineAndTab ? " other than newline and tab" : "")
        }
    }
}
