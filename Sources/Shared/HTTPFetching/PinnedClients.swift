import AsyncHTTPClient
import Synchronization

/// HTTP clients that connect a host to an address a URL check approved, instead of looking
/// the name up again when connecting (which could answer differently: DNS rebinding).
///
/// One client per host, made with a DNS override to its pinned address, so TLS still checks the
/// certificate against the name. While the check keeps approving the pinned address among the
/// host's addresses, the client and its pooled connections are kept; when it no longer does,
/// a client for a new address takes over and the old one is shut down once its requests end.
final class PinnedClients: Sendable {
    private struct Entry {
        let address: String
        let client: HTTPClient
        var inFlight = 0
        var lastUse: UInt64
    }

    private struct State {
        var byHost: [String: Entry] = [:]
        var retired: [Entry] = []
        var uses: UInt64 = 0
    }

    private let configuration: HTTPClient.Configuration
    private let state = Mutex(State())
    /// Hosts kept pinned at once; the least recently used goes beyond it.
    private let maxHosts: Int

    init(configuration: HTTPClient.Configuration, maxHosts: Int = 64) {
        self.configuration = configuration
        self.maxHosts = maxHosts
    }

    /// Runs `body` with a client that connects `host` to one of `addresses`: the one already
    /// pinned if it is still among them, else the first.
    func withClient<Result>(
        host: String, addresses: [String], _ body: (HTTPClient) async throws -> Result
    ) async throws -> Result {
        let (client, idle) = state.withLock { state in
            state.uses += 1
            if var entry = state.byHost[host], addresses.contains(entry.address) {
                entry.inFlight += 1
                entry.lastUse = state.uses
                state.byHost[host] = entry
                return (entry.client, [HTTPClient]())
            }
            var configuration = self.configuration
            configuration.dnsOverride = [host: addresses[0]]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            if let replaced = state.byHost.removeValue(forKey: host) { state.retired.append(replaced) }
            if state.byHost.count >= maxHosts,
                let oldest = state.byHost.min(by: { $0.value.lastUse < $1.value.lastUse })?.key,
                let evicted = state.byHost.removeValue(forKey: oldest)
            {
                state.retired.append(evicted)
            }
            state.byHost[host] = Entry(address: addresses[0], client: client, inFlight: 1, lastUse: state.uses)
            return (client, Self.takeIdle(&state.retired))
        }
        Self.shutDownInBackground(idle)
        defer {
            let idle = state.withLock { state -> [HTTPClient] in
                if state.byHost[host]?.client === client {
                    state.byHost[host]?.inFlight -= 1
                } else if let index = state.retired.firstIndex(where: { $0.client === client }) {
                    state.retired[index].inFlight -= 1
                }
                return Self.takeIdle(&state.retired)
            }
            Self.shutDownInBackground(idle)
        }
        return try await body(client)
    }

    /// Shuts every client down.
    func shutdown() async {
        let clients = state.withLock { state in
            let all = state.byHost.values.map(\.client) + state.retired.map(\.client)
            state = State()
            return all
        }
        for client in clients { try? await client.shutdown() }
    }

    /// Closing a pool waits for its connections to close: never on a request's way.
    private static func shutDownInBackground(_ clients: [HTTPClient]) {
        guard !clients.isEmpty else { return }
        Task { for client in clients { try? await client.shutdown() } }
    }

    private static func takeIdle(_ retired: inout [Entry]) -> [HTTPClient] {
        let idle = retired.filter { $0.inFlight == 0 }.map(\.client)
        retired.removeAll { $0.inFlight == 0 }
        return idle
    }
}
