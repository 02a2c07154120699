/// Markup that is safe by construction (in the style of GRDB's `SQL` interpolation): a literal
/// is the page's own markup, and every value interpolated into it is escaped
/// (`HTMLText.escape`), so a title, a place or a device name can never open a tag or leave an
/// attribute. Markup made elsewhere joins only as `HTML` (already safe) or through the visible,
/// named `HTML.trusted(_:)`.
///
/// ```swift
/// let row: HTML = "<li dir=\"auto\">\(title)</li>"   // title escaped
/// ```
package struct HTML: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable, Equatable {
    /// The markup.
    package private(set) var markup: String

    /// The page's own markup, written in the source (never a value).
    package init(stringLiteral literal: String) {
        markup = literal
    }

    package init(stringInterpolation: StringInterpolation) {
        markup = stringInterpolation.markup
    }

    private init(markup: String) {
        self.markup = markup
    }

    /// Markup taken as it is: only for markup this program built (a helper's answer), never
    /// for a value of the trip or a request. The one way around the escaping, visible by name.
    package static func trusted(_ markup: String) -> HTML { HTML(markup: markup) }

    /// ` name="value"`: an attribute of the program's own name, its value escaped.
    package static func attribute(_ name: StaticString, _ value: String) -> HTML { " \(trusted(name.description))=\"\(value)\"" }

    /// The markup, as sent.
    package var description: String { markup }

    /// `lhs` then `rhs`.
    package static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(markup: lhs.markup + rhs.markup) }

    /// Appends `rhs`.
    package static func += (lhs: inout HTML, rhs: HTML) { lhs.markup += rhs.markup }

    /// The pieces one after another, `separator` between two.
    package static func joined(_ pieces: [HTML], separator: HTML = "") -> HTML { HTML(markup: pieces.map(\.markup).joined(separator: separator.markup)) }

    /// Literals as they are, values escaped.
    package struct StringInterpolation: StringInterpolationProtocol {
        package var markup = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        package mutating func appendLiteral(_ literal: String) { markup += literal }

        /// A text, escaped.
        package mutating func appendInterpolation(_ text: String) { markup += HTMLText.escape(text) }

        /// Markup that is safe already.
        package mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// A value (an id, a number, a date) by its description, escaped.
        package mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) { markup += HTMLText.escape(value.description) }
    }
}
