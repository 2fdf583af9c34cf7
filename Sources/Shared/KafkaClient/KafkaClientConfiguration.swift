import NIOPosix

/// Where the brokers are, any librdkafka properties to pass through (TLS, SASL, tuning), and
/// the threads that blocking one-shot calls (metadata, offset look-ups, admin requests) use.
package struct KafkaClientConfiguration: Sendable {
    /// Comma-separated `host:port` list.
    package var brokers: String
    /// librdkafka properties, applied after the client's own defaults so they can override them.
    package var properties: [String: String]
    /// `client.id` of the main clients; helper clients add a suffix (`<id>-offsets`).
    package var clientID: String
    /// Runs the blocking calls that are not part of a poll loop. Poll loops have threads of their own.
    package var threadPool: NIOThreadPool

    package init(
        brokers: String, properties: [String: String] = [:], clientID: String = "rdkafka",
        threadPool: NIOThreadPool = .singleton
    ) {
        self.brokers = brokers
        self.properties = properties
        self.clientID = clientID
        self.threadPool = threadPool
    }

    /// Checks that every property is one librdkafka knows, with a valid value, without
    /// connecting anywhere.
    package func validate() throws {
        try RDKafkaConfig.validate(properties)
    }

    /// The property list of one client, the only place such lists are built: bootstrap servers
    /// and client id, then the client's own `defaults`, then the user's properties, which
    /// override both, then `fixed`, which the client cannot work without.
    func clientProperties(
        clientIDSuffix: String? = nil, defaults: [(String, String)] = [], fixed: [(String, String)] = []
    ) -> [(String, String)] {
        let id = clientIDSuffix.map { "\(clientID)-\($0)" } ?? clientID
        let fixedKeys = Set(fixed.map(\.0))
        return [("bootstrap.servers", brokers), ("client.id", id)] + defaults
            + properties.filter { !fixedKeys.contains($0.key) }.sorted { $0.key < $1.key } + fixed
    }

    /// Runs `body` on ``threadPool``, off Swift's cooperative pool.
    func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await threadPool.runIfActive(body)
    }
}
