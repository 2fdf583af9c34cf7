import ArtpipeSupport
import Synchronization

/// Per-host politeness: a request-rate slot and a concurrency limit for each host.
final class HostLimits: Sendable {
    private struct Host {
        let concurrency: ConcurrencyLimit
        var nextSlot: ContinuousClock.Instant
    }

    private let hosts = Mutex<[String: Host]>([:])
    private let requestsPerSecond: Double?
    private let concurrencyPerHost: Int

    init(requestsPerSecond: Double?, concurrencyPerHost: Int) {
        self.requestsPerSecond = requestsPerSecond
        self.concurrencyPerHost = concurrencyPerHost
    }

    /// Waits for a free place and a rate slot for `host`, runs `body`, frees the place.
    func run<T: Sendable>(host: String, _ body: () async throws -> T) async throws -> T {
        let (concurrency, slot) = hosts.withLock { hosts in
            let now = ContinuousClock.now
            var entry = hosts[host] ?? Host(concurrency: ConcurrencyLimit(concurrencyPerHost), nextSlot: now)
            let slot = max(now, entry.nextSlot)
            if let requestsPerSecond {
                entry.nextSlot = slot + .milliseconds(Int64(1_000 / requestsPerSecond))
            }
            hosts[host] = entry
            return (entry.concurrency, slot)
        }
        if slot > ContinuousClock.now { try await Task.sleep(until: slot) }
        await concurrency.acquire()
        defer { concurrency.release() }
        return try await body()
    }
}
