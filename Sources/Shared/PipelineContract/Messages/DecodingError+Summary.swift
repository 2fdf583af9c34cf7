extension DecodingError {
    /// One line: what was wrong and where.
    package var summary: String {
        func path(_ context: Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
        }
        switch self {
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context))"
        case .keyNotFound(let key, let context): return "missing \(key.stringValue) at \(path(context))"
        case .typeMismatch(let type, let context): return "expected \(type) at \(path(context))"
        case .valueNotFound(let type, let context): return "null where \(type) was expected at \(path(context))"
        @unknown default: return "\(self)"
        }
    }

    /// True when the bytes are not JSON at all, as opposed to JSON of another shape.
    package var isNotJSON: Bool {
        if case .dataCorrupted(let context) = self, context.codingPath.isEmpty { return true }
        return false
    }
}
