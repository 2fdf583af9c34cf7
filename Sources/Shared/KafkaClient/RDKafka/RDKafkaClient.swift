import CKafka
import Logging
import Synchronization

/// Owns one `rd_kafka_t` handle together with the callbacks it calls.
///
/// Unchecked: it holds a C handle, and librdkafka's API on a handle is thread-safe; the only
/// Swift state is an atomic.
final class RDKafkaClient: @unchecked Sendable {
    /// Which side of the protocol a handle speaks.
    enum Kind {
        case producer
        case consumer
    }

    let handle: OpaquePointer
    let callbacks: RDKafkaCallbacks
    private let destroyOnDeinit = Atomic<Bool>(true)

    /// Creates a handle. `properties` are applied in order, so later ones override earlier ones.
    init(type: Kind, properties: [(String, String)], callbacks: RDKafkaCallbacks) throws {
        let conf = try RDKafkaConfig.make(properties)
        callbacks.install(on: conf, properties: properties)
        var errstr = [CChar](repeating: 0, count: 512)
        // On success rd_kafka_new takes ownership of conf.
        let rdType = type == .producer ? RD_KAFKA_PRODUCER : RD_KAFKA_CONSUMER
        guard let handle = rd_kafka_new(rdType, conf, &errstr, errstr.count) else {
            rd_kafka_conf_destroy(conf)
            throw KafkaError("cannot create Kafka client: \(String(errorBuffer: errstr))")
        }
        self.handle = handle
        self.callbacks = callbacks
        callbacks.client = self
    }

    deinit {
        if destroyOnDeinit.load(ordering: .relaxed) { rd_kafka_destroy(handle) }
    }

    /// For a cooperative-sticky group member that closed before its first assignment:
    /// librdkafka before 2.3 asserts in `rd_kafka_destroy` then (its assignor state is still
    /// NULL, librdkafka issue 4312) and aborts the process. There the handle is left to the
    /// process's exit instead; it is already closed and has left its group.
    func skipDestroyIfItAborts() {
        guard Self.abortsDestroyBeforeAssignment else { return }
        destroyOnDeinit.store(false, ordering: .relaxed)
    }

    /// librdkafka 2.3.0 fixed it.
    static let abortsDestroyBeforeAssignment = !KafkaLibraryVersion.isAtLeast(2, 3)

    /// The cluster's id, from the metadata the handle has (asked for when it has none); nil
    /// when the brokers give none within `timeoutMilliseconds`.
    func clusterID(timeoutMilliseconds: Int32) -> String? {
        guard let id = rd_kafka_clusterid(handle, timeoutMilliseconds) else { return nil }
        defer { rd_kafka_mem_free(handle, id) }
        return String(cString: id)
    }

    /// The broker's view of topics and partitions. Blocks up to `timeoutMilliseconds`.
    func metadata(timeoutMilliseconds: Int32) throws -> KafkaMetadata {
        var raw: UnsafePointer<rd_kafka_metadata>?
        let error = rd_kafka_metadata(handle, 1, nil, &raw, timeoutMilliseconds)
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR, let raw else {
            throw KafkaError("cannot read cluster metadata", rdError: error)
        }
        defer { rd_kafka_metadata_destroy(raw) }
        var topics: [String: Int] = [:]
        for index in 0..<Int(raw.pointee.topic_cnt) {
            let topic = raw.pointee.topics[index]
            guard topic.err == RD_KAFKA_RESP_ERR_NO_ERROR else { continue }
            topics[String(cString: topic.topic)] = Int(topic.partition_cnt)
        }
        return KafkaMetadata(brokerCount: Int(raw.pointee.broker_cnt), partitionsByTopic: topics)
    }
}
