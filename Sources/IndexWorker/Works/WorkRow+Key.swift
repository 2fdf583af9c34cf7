extension WorkRow {
    /// The work a row's key belongs to: the key's first three parts (``WorkKey/description``),
    /// so a tombstone, which has no value, still names its work.
    package static func work(ofKey key: String) -> WorkKey? {
        let parts = key.split(separator: "\u{1F}", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        return WorkKey(text: parts[0..<3].joined(separator: "\u{1F}"))
    }
}
