import Foundation
import HTTPFetching
import NIOPosix

/// Which image URLs may be downloaded: http(s) only, hosts on the allow-list (a listed
/// name or any subdomain of it), and, unless allowed, no loopback, private or link-local
/// address, whatever name points there.
public struct ImageHostPolicy: Sendable {
    /// The museum's image hosts.
    public static let defaultHosts = ["googleusercontent.com", "ggpht.com", "iiif.micr.io", "rijksmuseum.nl"]

    public var allowedHosts: [String]
    public var allowPrivateAddresses: Bool
    /// Where the blocking name look-ups run.
    public var threadPool: NIOThreadPool
    /// The name look-up; blocking (`getaddrinfo`).
    var resolver: @Sendable (String) -> Resolution = ImageHostPolicy.resolve

    public init(
        allowedHosts: [String] = Self.defaultHosts, allowPrivateAddresses: Bool = false,
        threadPool: NIOThreadPool = .singleton
    ) {
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.allowPrivateAddresses = allowPrivateAddresses
        self.threadPool = threadPool
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The name could not be looked up for now (`EAI_AGAIN`): worth trying again later, never
    /// a lasting failure of the image.
    public struct LookupUnavailable: TransientFailure, CustomStringConvertible {
        public let description: String
    }

    /// What a name look-up gave.
    enum Resolution: Sendable {
        case addresses([Address])
        /// The name does not exist (or has no address): lasting.
        case notFound
        /// The resolver could not answer now.
        case unavailable(String)
    }

    public func check(_ url: URL) async throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Refusal(description: "only http and https images are fetched")
        }
        guard let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else {
            throw Refusal(description: "no host")
        }
        guard allowedHosts.contains(where: { host == $0 || host.hasSuffix("." + $0) }) else {
            throw Refusal(description: "host \(host) is not an allowed image host")
        }
        guard !allowPrivateAddresses else { return }
        // The resolver blocks: it runs on the pool, off the cooperative threads.
        let resolver = self.resolver
        let addresses: [Address]
        switch try await threadPool.runIfActive({ resolver(host) }) {
        case .addresses(let found) where !found.isEmpty: addresses = found
        case .addresses, .notFound: throw Refusal(description: "host \(host) does not resolve")
        case .unavailable(let reason):
            throw LookupUnavailable(description: "name lookup of \(host) failed for now: \(reason)")
        }
        if let address = addresses.first(where: Self.isPrivate) {
            throw Refusal(description: "host \(host) is a private address (\(address.description))")
        }
    }

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

    static func isPrivate(_ address: Address) -> Bool {
        let b = address.bytes
        if b.count == 4 {
            return b[0] == 0 || b[0] == 10 || b[0] == 127 || (b[0] == 169 && b[1] == 254)
                || (b[0] == 172 && (16...31).contains(b[1])) || (b[0] == 192 && b[1] == 168)
                || (b[0] == 100 && (64...127).contains(b[1]))
        }
        guard b.count == 16 else { return true }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {
            return isPrivate(Address(bytes: Array(b[12..<16])))  // IPv4-mapped
        }
        let loopbackOrUnspecified = b[0..<15].allSatisfy { $0 == 0 } && b[15] <= 1
        return loopbackOrUnspecified || (b[0] & 0xFE) == 0xFC || (b[0] == 0xFE && (b[1] & 0xC0) == 0x80)
    }
}
