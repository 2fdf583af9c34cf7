import Foundation
import ObjectStorage

/// What tells thumb workers that a prune of their bucket is deleting (`thumbs/.prune.json`).
///
/// A bucket has no atomic rename and no conditional delete, so `prune` and the workers agree
/// through this object instead: a worker reads it before it handles a page and again after
/// its last write, and lets the page go out only when both reads show the same fence, not
/// running. A prune raises the fence before it checks its candidates one by one and lowers
/// it after its last delete. So whatever a worker wrote or reused for a page that went out
/// was written before the prune checked it (and its newer `Last-Modified` kept it), or the
/// page waits on the retry topics and is made again after the prune.
package struct PruneFence: Codable, Equatable, Sendable {
    /// Changes with each prune.
    package var generation: String
    package var running: Bool
    /// Counts the running prune's renewals: one that stops changing was abandoned.
    package var heartbeat: Int

    package static let path = "thumbs/.prune.json"
    /// No prune has run.
    package static let none = PruneFence(generation: "", running: false, heartbeat: 0)

    /// How often a running prune renews the fence, and how long a renewal lasts.
    package struct Timing: Sendable {
        package var heartbeatInterval: Duration
        /// A prune deletes nothing once its last renewal started longer ago than this.
        package var leaseDuration: Duration

        package init(heartbeatInterval: Duration, leaseDuration: Duration) {
            self.heartbeatInterval = heartbeatInterval
            self.leaseDuration = leaseDuration
        }

        package static let standard = Timing(heartbeatInterval: .seconds(30), leaseDuration: .seconds(120))
    }

    /// A worker that has seen the same running fence for this long treats it as abandoned (a
    /// prune killed before it lowered it): longer than the lease, so the prune has stopped.
    package static let abandonedAfter: Duration = .seconds(300)

    package init(generation: String, running: Bool, heartbeat: Int) {
        self.generation = generation
        self.running = running
        self.heartbeat = heartbeat
    }

    /// The fence in `output`; ``none`` when there is none.
    package static func read(from output: any OutputStore) throws -> PruneFence {
        guard let bytes = try output.read(path) else { return .none }
        do {
            return try JSONDecoder().decode(PruneFence.self, from: Data(bytes))
        } catch {
            throw ObjectStoreError.configuration(
                "\(output.address(of: path)) is not a prune fence (\(error)); remove it if no prune is running")
        }
    }

    package func write(to output: any OutputStore) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try output.write(Array(try encoder.encode(self)), to: Self.path, durable: true)
    }
}
