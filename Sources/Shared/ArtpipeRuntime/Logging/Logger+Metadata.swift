import Logging

extension Logger {
    /// A copy with extra metadata.
    public func with(metadata: Logger.Metadata) -> Logger {
        var copy = self
        for (key, value) in metadata { copy[metadataKey: key] = value }
        return copy
    }
}
