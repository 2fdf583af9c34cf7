import Foundation
import HTTPFetching

extension HostPolicy {
    /// The hosts the sources send requests to: the museum's (`www.`, `data.` and
    /// `id.rijksmuseum.nl`), Flickr's API and iTunes Search.
    static let sourceHosts = ["rijksmuseum.nl", "api.flickr.com", "itunes.apple.com"]

    /// What every source request, and every redirect it follows, may reach: the sources' hosts
    /// at public addresses, and `--base-url`'s host at whatever address it names (a stand-in on
    /// loopback). A redirect anywhere else, or to a private address, is refused.
    package static func sources(baseURL: URL?) -> HostPolicy {
        let named = baseURL?.host.map { [$0] } ?? []
        return HostPolicy(allowedHosts: sourceHosts + named, trustedHosts: named)
    }

    /// Any repository a crawl names (`oai-pmh`): any host, but only at public addresses, and
    /// `--base-url`'s host at whatever address it names (a stand-in on loopback).
    package static func anyPublicHost(trusting baseURL: URL?) -> HostPolicy {
        var policy = HostPolicy(allowedHosts: [], trustedHosts: baseURL?.host.map { [$0] } ?? [])
        policy.allowsAnyHost = true
        return policy
    }
}
