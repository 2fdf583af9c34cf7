import CKafka

/// One rebalance callback: the partitions it gives or takes, and the calls that answer it.
///
/// Valid only inside the callback, on the thread that serves it.
struct RDKafkaRebalance {
    enum Kind {
        case assign
        case revoke
        case failed(KafkaError)
    }

    let kind: Kind
    let partitions: [KafkaTopicPartition]
    /// Cooperative rebalances give and take partitions incrementally; eager ones replace the
    /// whole assignment.
    let cooperative: Bool
    private let handle: OpaquePointer
    private let list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>

    /// `configuredCooperative` stands in for the group's protocol when librdkafka cannot name it:
    /// `rd_kafka_rebalance_protocol` answers NULL while the consumer's group is being torn down
    /// (a close racing a rebalance).
    init(
        handle: OpaquePointer, error: rd_kafka_resp_err_t, list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>,
        configuredCooperative: Bool
    ) {
        self.handle = handle
        self.list = list
        self.partitions = RDKafkaTopicPartitionList.topicPartitions(list)
        self.cooperative = Self.isCooperative(
            protocolName: rd_kafka_rebalance_protocol(handle), configured: configuredCooperative)
        switch error {
        case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS: kind = .assign
        case RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS: kind = .revoke
        default: kind = .failed(KafkaError("rebalance", rdError: error))
        }
    }

    /// Whether the group's protocol, as librdkafka names it, is cooperative; `configured` when it
    /// names none (NULL).
    static func isCooperative(protocolName: UnsafePointer<CChar>?, configured: Bool) -> Bool {
        guard let protocolName else { return configured }
        return String(cString: protocolName) == "COOPERATIVE"
    }

    /// Whether `partition.assignment.strategy`, as configured, makes the group cooperative:
    /// librdkafka requires every assignor listed to speak one protocol, and only
    /// `cooperative-sticky` speaks the cooperative one. librdkafka's default is eager.
    static func isCooperative(strategy: String?) -> Bool {
        guard let strategy else { return false }
        return strategy.split(separator: ",").contains { $0.filter { !$0.isWhitespace } == "cooperative-sticky" }
    }

    /// Whether the partitions were taken without a chance to commit (the session expired).
    var assignmentLost: Bool { rd_kafka_assignment_lost(handle) != 0 }

    /// Where the partition at `index` of ``partitions`` starts, in place of its committed offset.
    func setStartOffset(_ offset: Int64, at index: Int) {
        list.pointee.elems[index].offset = offset
    }

    /// Takes the partitions given. Returns the error when taking them failed.
    ///
    /// Nothing else may touch the partitions' fetch state here: a resume (even of a partition
    /// not paused) made while librdkafka starts fetching one outdates its start, and it then
    /// never fetches (librdkafka's version barriers; confluentinc/librdkafka#2190). A partition
    /// paused when taken away is resumed then, by ``KafkaConsumerAssignment``.
    @discardableResult
    func accept() -> KafkaError? {
        if cooperative {
            return rd_kafka_incremental_assign(handle, list).map { KafkaError("cannot take partitions", consuming: $0) }
        }
        let error = rd_kafka_assign(handle, list)
        return error == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError("cannot take partitions", rdError: error)
    }

    /// Gives up the partitions taken (all of them for an eager rebalance or a failed one).
    /// Returns the error when giving them up failed.
    @discardableResult
    func release() -> KafkaError? {
        if cooperative, case .revoke = kind {
            return rd_kafka_incremental_unassign(handle, list).map {
                KafkaError("cannot release partitions", consuming: $0)
            }
        }
        _ = rd_kafka_assign(handle, nil)
        return nil
    }
}
