import Synchronization

/// The artists' collation keys of the last assembly: folding every name again cost as much as
/// decoding every summary (a tenth of a second at a million works), though few names change
/// between two assemblies. Holds the last call's names only.
package final class CollationKeys: Sendable {
    private let last = Mutex<[String: String]>([:])

    package init() {}

    /// The key of each of `names`, folded only where the last call did not have it.
    func keys(of names: [String]) -> [String] {
        last.withLock { last in
            var next: [String: String] = [:]
            next.reserveCapacity(names.count)
            let keys = names.map { name in
                let key = last[name] ?? ArtistIndex.collationKey(name)
                next[name] = key
                return key
            }
            last = next
            return keys
        }
    }
}
