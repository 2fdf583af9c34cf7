import ArtpipeSupport
import Foundation
import Testing

@testable import HTTPFetching

/// What the host policy says when it refuses a private address, and how it reads a host a flag names.
@Suite("The host policy's refusals and the host names flags give")
struct HostPolicyRefusalTests {
    static func policy(trusting trusted: [String] = [], flag: String? = nil) -> HostPolicy {
        var policy = HostPolicy(allowedHosts: ["oai.intranet"], trustedHosts: trusted)
        policy.privateHostFlag = flag
        policy.resolver = { _ in .addresses([HostPolicy.Address(bytes: [10, 1, 2, 3])]) }
        return policy
    }

    @Test("a private address is refused for good; with a flag named, the refusal says how to allow that host")
    func privateAddressHint() async throws {
        let url = URL(string: "http://oai.intranet/oai?verb=Identify")!
        let plain = try #require(
            await #expect(throws: HostPolicy.Refusal.self) { try await Self.policy().check(url) })
        #expect(plain.description == "host oai.intranet is a private address (10.1.2.3)")
        #expect(plain.failureClass.isForGood)
        let hinted = try #require(
            await #expect(throws: HostPolicy.Refusal.self) { try await Self.policy(flag: "--private-host").check(url) })
        #expect(
            hinted.description
                == "host oai.intranet is a private address (10.1.2.3); a host of your own network is allowed with --private-host oai.intranet"
        )
        #expect(
            HostPolicy.privateAddressRefusal(host: "h", address: "10.0.0.1", flag: nil).description
                == "host h is a private address (10.0.0.1)")
    }

    @Test(
        "a trusted host is reached at any address, however the flag and the URL write it",
        arguments: [
            "oai.intranet", "OAI.Intranet", "oai.intranet.", "oai.intranet:8080", "http://oai.intranet:8080/oai",
        ])
    func trustedSpellings(written: String) async throws {
        let policy = Self.policy(trusting: [written], flag: "--private-host")
        for url in [
            "http://oai.intranet/oai", "http://OAI.INTRANET/oai", "http://oai.intranet./oai",
            "https://oai.intranet:8443/",
        ] {
            #expect(try await policy.check(URL(string: url)!) == [], "\(written) → \(url)")
        }
    }

    @Test(
        "host names as flags give them",
        arguments: [
            ("oai.intranet", "oai.intranet"), ("OAI.Intranet", "oai.intranet"), (" oai.intranet. ", "oai.intranet"),
            ("oai.intranet:8080", "oai.intranet"), ("http://oai.intranet:8080/oai?verb=Identify", "oai.intranet"),
            ("10.1.2.3", "10.1.2.3"), ("[fd00::1]", "fd00::1"), ("[FD00::1]:8080", "fd00::1"), ("fd00::1", "fd00::1"),
        ])
    func hostNames(text: String, expected: String) {
        #expect(HostPolicy.hostName(text) == expected)
    }

    @Test(
        "text that names no host is refused",
        arguments: [
            "", " ", ".", "oai.intranet/oai", "oai intranet", "oai.intranet:http", "[fd00::1", "user@oai.intranet",
        ])
    func notHostNames(text: String) {
        #expect(HostPolicy.hostName(text) == nil, "'\(text)'")
    }
}
