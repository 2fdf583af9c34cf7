import ArtpipeSupport
import Foundation
import HTTPFetching
import NIOPosix

/// Which URLs may be fetched, checked before a request and before following each redirect:
/// http(s) only, hosts on the allow-list (a listed name or any subdomain of it), and, unless
/// allowed, no loopback, private or link-local address, whatever name points there. The
/// thumbnailer checks image URLs with it, the sources every request they send.
package struct HostPolicy: Sendable {
    /// The image hosts of the sources: the museum's, Flickr's (`live.staticflickr.com`,
    /// `farmN.staticflickr.com`) and Apple's artwork host (`isN-ssl.mzstatic.com`).
    package static let imageHosts = [
        "googleusercontent.com", "ggpht.com", "iiif.micr.io", "rijksmuseum.nl", "staticflickr.com", "mzstatic.com",
    ]

    var allowedHosts: [String]
    /// Any host name passes; the address checks still apply.
    package var allowsAnyHost = false
    var allowPrivateAddresses: Bool
    /// Hosts the operator named themselves (`--base-url`'s, `--private-host`'s): allowed at whatever address.
    var trustedHosts: [String]
    /// The flag that names a host the policy may reach at a private address (`--private-host`):
    /// the refusal of a private address then says how to allow it. Nil: the refusal names none.
    package var privateHostFlag: String?
    /// Where the blocking name look-ups run.
    var threadPool: NIOThreadPool
    /// The name look-up; blocking (`getaddrinfo`).
    var resolver: @Sendable (String) -> Resolution = HostPolicy.resolve
    /// Which looked-up addresses are refused; tests let loopback through to reach their server.
    var isRefusedAddress: @Sendable (Address) -> Bool = HostPolicy.isPrivate

    package init(
        allowedHosts: [String] = Self.imageHosts, allowPrivateAddresses: Bool = false, trustedHosts: [String] = [],
        threadPool: NIOThreadPool = .singleton
    ) {
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.allowPrivateAddresses = allowPrivateAddresses
        self.trustedHosts = trustedHosts.map { HostPolicy.hostName($0) ?? $0.lowercased() }
        self.threadPool = threadPool
    }

    /// The URL may not be fetched (a scheme, a host not allowed, a private address): for good.
    package struct Refusal: ClassifiedError {
        package let description: String
        package var failureClass: FailureClass { .forGood }
    }

    /// The name could not be looked up now: worth trying again later, never a lasting failure
    /// of the image. A name that does not resolve counts too: DNS outages and a zone being
    /// moved answer NXDOMAIN for a while, and a name that stays unknown ends in the dead
    /// letters once retried long enough.
    package struct LookupUnavailable: ClassifiedError {
        package let description: String
        package var failureClass: FailureClass { .forNow }
    }

    /// What a name look-up gave.
    enum Resolution: Sendable {
        case addresses([Address])
        /// The name does not exist (or has no address): lasting.
        case notFound
        /// The resolver could not answer now.
        case unavailable(String)
    }

    /// Refuses a URL that may not be fetched. Returns the addresses the host was checked at,
    /// for the download to connect to (none when private addresses are allowed: nothing was
    /// looked up).
    @discardableResult
    package func check(_ url: URL) async throws -> [String] {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Refusal(description: "only http and https images are fetched")
        }
        guard let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else {
            throw Refusal(description: "no host")
        }
        // `oai.example.` is `oai.example`, however the operator wrote it.
        if trustedHosts.contains(host.hasSuffix(".") ? String(host.dropLast()) : host) { return [] }
        guard allowsAnyHost || allowedHosts.contains(where: { host == $0 || host.hasSuffix("." + $0) }) else {
            throw Refusal(description: "host \(host) is not an allowed host")
        }
        guard !allowPrivateAddresses else { return [] }
        // The resolver blocks: it runs on the pool, off the cooperative threads.
        let resolver = self.resolver
        let addresses: [Address]
        switch try await threadPool.runIfActive({ resolver(host) }) {
        case .addresses(let found) where !found.isEmpty: addresses = found
        case .addresses, .notFound: throw LookupUnavailable(description: "host \(host) does not resolve")
        case .unavailable(let reason):
            throw LookupUnavailable(description: "name lookup of \(host) failed for now: \(reason)")
        }
        if let address = addresses.first(where: isRefusedAddress) {
            throw Self.privateAddressRefusal(host: host, address: address.description, flag: privateHostFlag)
        }
        return addresses.map(\.description)
    }

    /// The refusal of a host at a private address; with `flag`, it says how the operator allows
    /// that host (`--private-host oai.intranet`).
    package static func privateAddressRefusal(host: String, address: String, flag: String?) -> Refusal {
        let hint = flag.map { "; a host of your own network is allowed with \($0) \(host)" } ?? ""
        return Refusal(description: "host \(host) is a private address (\(address))\(hint)")
    }

    /// A host name as a flag gives it, the way ``check(_:)`` compares it: lower case, without
    /// brackets around an IPv6 address, a port or a trailing dot; a URL gives its host. Nil for
    /// text that names no host (empty, a path, white space inside).
    package static func hostName(_ text: String) -> String? {
        var name = text.trimmingCharacters(in: .whitespaces).lowercased()
        if name.contains("://") {
            guard let host = URL(string: name)?.host, !host.isEmpty else { return nil }
            name = host
        }
        if name.hasPrefix("[") {
            // [::1] or [::1]:8080
            guard let close = name.firstIndex(of: "]") else { return nil }
            let rest = name[name.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(Self.isDigit)) else { return nil }
            name = String(name[name.index(after: name.startIndex)..<close])
        } else if name.filter({ $0 == ":" }).count == 1, let colon = name.firstIndex(of: ":") {
            // host:port; more than one colon is an IPv6 address written bare.
            guard name[name.index(after: colon)...].allSatisfy(Self.isDigit) else { return nil }
            name = String(name[..<colon])
        }
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, !name.contains(where: { "/?#@[]".contains($0) || $0.isWhitespace }) else { return nil }
        return name
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    /// An IPv4 or IPv6 address as bytes.
    struct Address: CustomStringConvertible, Sendable {
        let bytes: [UInt8]
        var description: String {
            bytes.count == 4
                ? bytes.map(String.init).joined(separator: ".")
                : stride(from: 0, to: 16, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }
                    .joined(separator: ":")
        }
    }

    static func resolve(_ host: String) -> Resolution {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        switch status {
        case 0: break
        case EAI_NONAME, EAI_FAIL: return .notFound
        // EAI_AGAIN and anything else (a resolver out of memory, a system error): try again later.
        default: return .unavailable(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch Int32(current.pointee.ai_family) {
                case AF_INET:
                    let ip = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        $0.pointee.sin_addr.s_addr
                    }
                    addresses.append(Address(bytes: withUnsafeBytes(of: ip) { Array($0) }))
                case AF_INET6:
                    let ip = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        $0.pointee.sin6_addr
                    }
                    addresses.append(Address(bytes: withUnsafeBytes(of: ip) { Array($0) }))
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return .addresses(addresses)
    }

    /// True for an address that is not globally reachable: loopback, private, link-local,
    /// shared, documentation, benchmarking, multicast, reserved, and the IPv6 ranges that carry
    /// an IPv4 address or tunnel to one (NAT64, 6to4, Teredo), after IANA's special-purpose
    /// address registries.
    static func isPrivate(_ address: Address) -> Bool {
        let b = address.bytes
        if b.count == 16, b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF {
            return isPrivate(Address(bytes: Array(b[12..<16])))  // IPv4-mapped
        }
        let ranges = b.count == 4 ? specialIPv4 : b.count == 16 ? specialIPv6 : []
        guard !ranges.isEmpty else { return true }
        return ranges.contains { range in range.contains(b) }
    }

    /// An address prefix, such as 198.18.0.0/15.
    struct Prefix: Sendable {
        let bytes: [UInt8]
        let length: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for bit in 0..<length where (address[bit / 8] ^ bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 {
                return false
            }
            return true
        }
    }

    static let specialIPv4: [Prefix] = [
        ([0, 0, 0, 0], 8), ([10, 0, 0, 0], 8), ([100, 64, 0, 0], 10), ([127, 0, 0, 0], 8), ([169, 254, 0, 0], 16),
        ([172, 16, 0, 0], 12), ([192, 0, 0, 0], 24), ([192, 0, 2, 0], 24), ([192, 88, 99, 0], 24),
        ([192, 168, 0, 0], 16), ([198, 18, 0, 0], 15), ([198, 51, 100, 0], 24), ([203, 0, 113, 0], 24),
        ([224, 0, 0, 0], 4), ([240, 0, 0, 0], 4),
    ].map { Prefix(bytes: $0.0, length: $0.1) }

    static let specialIPv6: [Prefix] = [
        ([], 128),  // ::
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128),  // ::1
        ([0, 0x64, 0xFF, 0x9B], 96),  // NAT64
        ([0, 0x64, 0xFF, 0x9B, 0, 1], 48),  // local NAT64
        ([0x01, 0x00], 64),  // discard-only
        ([0x20, 0x01, 0x00, 0x00], 23),  // IETF protocol assignments, Teredo among them
        ([0x20, 0x01, 0x0D, 0xB8], 32),  // documentation
        ([0x20, 0x02], 16),  // 6to4
        ([0x3F, 0xFF], 20),  // documentation
        ([0x5F, 0x00], 16),  // segment routing
        ([0xFC], 7),  // unique local
        ([0xFE, 0x80], 10),  // link-local
        ([0xFF], 8),  // multicast
    ].map { Prefix(bytes: $0.0 + [UInt8](repeating: 0, count: 16 - $0.0.count), length: $0.1) }
}
