import ArtpipeSupport
import Foundation
import HTTPFetching

extension HostPolicy {
    /// The hosts the sources send requests to: the museum's (`www.`, `data.` and
    /// `id.rijksmuseum.nl`), Flickr's API and iTunes Search.
    static let sourceHosts = ["rijksmuseum.nl", "api.flickr.com", "itunes.apple.com"]

    /// The flag naming a repository's host that may be reached at a private address.
    package static let privateHostFlagName = "--private-host"
    /// `--private-host`'s fallback, a comma-separated list, set once for `crawl` and `fetch-worker` alike.
    package static let privateHostsVariable = "ARTPIPE_PRIVATE_HOSTS"

    /// What every source request, and every redirect it follows, may reach: the sources' hosts
    /// at public addresses, and `--base-url`'s host at whatever address it names (a stand-in on
    /// loopback). A redirect anywhere else, or to a private address, is refused.
    package static func sources(baseURL: URL?) -> HostPolicy {
        let named = baseURL?.host.map { [$0] } ?? []
        return HostPolicy(allowedHosts: sourceHosts + named, trustedHosts: named)
    }

    /// Any repository a crawl names (`oai-pmh`): any host, but only at public addresses, except
    /// `--base-url`'s host (a stand-in on loopback) and `privateHosts` (`--private-host`: an
    /// in-house repository on a private network), each at whatever address it names. The
    /// refusal of any other private address names `--private-host`.
    package static func anyPublicHost(trusting baseURL: URL?, privateHosts: [String] = []) -> HostPolicy {
        var policy = HostPolicy(allowedHosts: [], trustedHosts: (baseURL?.host.map { [$0] } ?? []) + privateHosts)
        policy.allowsAnyHost = true
        policy.privateHostFlag = privateHostFlagName
        return policy
    }

    /// The hosts `--private-host` names (repeatable), else those of `ARTPIPE_PRIVATE_HOSTS`
    /// (comma-separated), each as ``hostName(_:)`` writes it, so that `OAI.intranet:8080`, a
    /// URL of it and `oai.intranet.` are one host. Text that names no host is a configuration error.
    package static func privateHosts(flags: [String], environment: [String: String]) throws -> [String] {
        var origin = privateHostFlagName
        var given = flags
        if flags.isEmpty, let listed = environment[privateHostsVariable] {
            origin = privateHostsVariable
            given = listed.split(separator: ",").map(String.init)
                .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        var hosts: [String] = []
        for text in given {
            guard let host = hostName(text) else {
                throw ConfigurationError("\(origin): '\(text)' is not a host name (write oai.intranet or 10.1.2.3)")
            }
            if !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }
}
