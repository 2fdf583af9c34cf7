import Logging

extension Logger {
    /// A copy with extra metadata.
    func with(metadata: Logger.Metadata) -> Logger {
        var copy = self
        for (key, value) in metadata { copy[metadataKey: key] = value }
        return copy
    }
}
