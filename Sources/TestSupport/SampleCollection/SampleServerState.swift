import Synchronization

/// What every stand-in service of the sample server shares: the collection, the faults, and
/// the counts they are answered by.
final class SampleServerState: Sendable {
    let collection: SampleCollection
    let faults: SampleServerFaults
    /// Requests answered, for logs; the legacy API also seeds its shuffles with it.
    let requestCount = Atomic<Int>(0)
    let imageRequestCount = Atomic<Int>(0)
    private let attempts = Mutex<[String: Int]>([:])

    init(collection: SampleCollection, faults: SampleServerFaults) {
        self.collection = collection
        self.faults = faults
    }

    /// Counts one more request for `key` (a page, an image) and returns which attempt it is, from 1.
    func attempt(_ key: String) -> Int {
        attempts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }
}
