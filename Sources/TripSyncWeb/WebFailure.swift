/// Failures of the server's own (a page that is not there, a message to show).
enum WebFailure: Error, CustomStringConvertible {
    case notFound
    case message(String)

    var description: String {
        switch self {
        case .notFound: return "not found"
        case .message(let text): return text
        }
    }
}
