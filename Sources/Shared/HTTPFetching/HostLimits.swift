import ArtpipeSupport
import Synchronization

/// Per-host politeness: a request-rate slot and a concurrency limit for each host.
final class HostLimits: Sendable {
    private struct Host {
        let concurrency: ConcurrencyLimit
        var nextSlot: ContinuousClock.Instant
        /// Until when the host asked us to send nothing.
        var holdUntil: ContinuousClock.Instant?
        var holdReason = ""
    }

    private let hosts = Mutex<[String: Host]>([:])
    private let requestsPerSecond: Double?
    private let requestsPerSecondByHost: [String: Double]
    private let concurrencyPerHost: Int

    init(requestsPerSecond: Double?, requestsPerSecondByHost: [String: Double] = [:], concurrencyPerHost: Int) {
        self.requestsPerSecond = requestsPerSecond
        self.requestsPerSecondByHost = requestsPerSecondByHost
        self.concurrencyPerHost = concurrencyPerHost
    }

    private func newHost() -> Host {
        Host(concurrency: ConcurrencyLimit(concurrencyPerHost), nextSlot: .now)
    }

    /// Sends nothing to `host` before `until` (a 429's `Retry-After`); a later hold wins.
    func hold(host: String, until: ContinuousClock.Instant, reason: String) {
        hosts.withLock { hosts in
            var entry = hosts[host] ?? newHost()
            if until > entry.holdUntil ?? .now {
                entry.holdUntil = until
                entry.holdReason = reason
            }
            hosts[host] = entry
        }
    }

    /// What is left of the host's hold, and why it holds; nil when there is none.
    func hold(of host: String) -> (remaining: Duration, reason: String)? {
        hosts.withLock { hosts in
            guard let entry = hosts[host], let until = entry.holdUntil, until > .now else { return nil }
            return (until - .now, entry.holdReason)
        }
    }

    /// Waits for the host's hold to end, a free place and a rate slot for `host`, runs `body`, frees the place.
    func run<T: Sendable>(host: String, _ body: () async throws -> T) async throws -> T {
        let (concurrency, slot) = hosts.withLock { hosts in
            let now = ContinuousClock.now
            var entry = hosts[host] ?? newHost()
            let slot = max(now, entry.nextSlot, entry.holdUntil ?? now)
            // A host's own rate and the general one: the slower of the two.
            if let requestsPerSecond = [requestsPerSecondByHost[host], requestsPerSecond].compactMap({ $0 }).min() {
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
