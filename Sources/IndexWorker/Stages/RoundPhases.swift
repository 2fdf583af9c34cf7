import Logging

/// The milliseconds each part of a publish round took, in the order they ran.
struct RoundPhases {
    private var last = ContinuousClock.now
    private var phases: [(String, Duration)] = []

    /// Ends the part named `name`, begun when the last one ended.
    mutating func end(_ name: String) {
        let now = ContinuousClock.now
        phases.append((name, now - last))
        last = now
    }

    /// - Parameter held: the shards left for a later round (``ShardHold``).
    func metadata(files: Int, shards: Int, held: Int) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["files": "\(files)", "shards": "\(shards)", "held": "\(held)"]
        for (name, duration) in phases {
            metadata["\(name)_ms"] =
                "\(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)"
        }
        return metadata
    }
}
