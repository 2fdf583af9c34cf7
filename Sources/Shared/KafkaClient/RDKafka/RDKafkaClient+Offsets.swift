import CKafka

extension RDKafkaClient {
    /// The oldest offset `topicPartition` holds and the offset after its newest message.
    func watermarks(_ topicPartition: KafkaTopicPartition, timeoutMilliseconds: Int32) throws -> (
        low: Int64, high: Int64
    ) {
        var (low, high): (Int64, Int64) = (0, 0)
        let error = rd_kafka_query_watermark_offsets(
            handle, topicPartition.topic, topicPartition.partition, &low, &high, timeoutMilliseconds)
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError("cannot read the offsets of \(topicPartition)", rdError: error)
        }
        return (low, high)
    }

    /// The high watermark the last fetch response of `topicPartition` carried (no request is
    /// made); nil before one came.
    func fetchedHighWatermark(_ topicPartition: KafkaTopicPartition) -> Int64? {
        var (low, high): (Int64, Int64) = (0, 0)
        let error = rd_kafka_get_watermark_offsets(handle, topicPartition.topic, topicPartition.partition, &low, &high)
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0 else { return nil }
        return high
    }

    /// The low and high watermarks of every one of `partitions`, as ``watermarks(_:timeoutMilliseconds:)``
    /// gives them, asked of each leader in one request for the lowest and one for the highest:
    /// a service that asks every round does not wait a round trip a partition.
    func watermarks(of partitions: [KafkaTopicPartition], timeoutMilliseconds: Int32) throws -> [(
        low: Int64, high: Int64
    )] {
        guard !partitions.isEmpty else { return [] }
        // ListOffsets' own "times" for the first and the next offset, which every partition has.
        let (low, high) = (
            try offsets(at: Int64(RD_KAFKA_OFFSET_BEGINNING), partitions, timeoutMilliseconds: timeoutMilliseconds),
            try offsets(at: Int64(RD_KAFKA_OFFSET_END), partitions, timeoutMilliseconds: timeoutMilliseconds)
        )
        return try zip(partitions, zip(low, high)).map { partition, offsets in
            guard let low = offsets.0, let high = offsets.1 else {
                throw KafkaError("no offsets for \(partition)")
            }
            return (low, high)
        }
    }

    /// The high watermark (the offset the next message gets) of every one of `partitions`, in
    /// one request a leader: for a service that needs only where the topic ends.
    func highWatermarks(of partitions: [KafkaTopicPartition], timeoutMilliseconds: Int32) throws -> [Int64] {
        guard !partitions.isEmpty else { return [] }
        let high = try offsets(at: Int64(RD_KAFKA_OFFSET_END), partitions, timeoutMilliseconds: timeoutMilliseconds)
        return try zip(partitions, high).map { partition, offset in
            guard let offset else { throw KafkaError("no offsets for \(partition)") }
            return offset
        }
    }

    /// The broker's answer to "the first offset at or after `time`" for each of `partitions`, in
    /// one request a leader; nil for "none".
    private func offsets(at time: Int64, _ partitions: [KafkaTopicPartition], timeoutMilliseconds: Int32) throws
        -> [Int64?]
    {
        try RDKafkaTopicPartitionList.with(partitions.map { ($0, time) }) { list in
            let error = rd_kafka_offsets_for_times(handle, list, timeoutMilliseconds)
            guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                throw KafkaError("cannot look up offsets by time", rdError: error)
            }
            return try (0..<Int(list.pointee.cnt)).map { index in
                let element = list.pointee.elems[index]
                guard element.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                    throw KafkaError("cannot look up the offsets of \(partitions[index])", rdError: element.err)
                }
                return element.offset >= 0 ? element.offset : nil
            }
        }
    }

    /// The group's committed offsets of `partitions`; absent where it has none.
    func committedOffsets(_ partitions: [KafkaTopicPartition], timeoutMilliseconds: Int32) throws
        -> [KafkaTopicPartition: Int64]
    {
        try RDKafkaTopicPartitionList.with(partitions.map { ($0, nil) }) { list in
            let error = rd_kafka_committed(handle, list, timeoutMilliseconds)
            guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                throw KafkaError("cannot read committed offsets", rdError: error)
            }
            var result: [KafkaTopicPartition: Int64] = [:]
            for index in 0..<Int(list.pointee.cnt) {
                let element = list.pointee.elems[index]
                // One partition's error is as unknown as the request's: never "nothing committed".
                guard element.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                    throw KafkaError("cannot read the committed offset of \(partitions[index])", rdError: element.err)
                }
                if element.offset >= 0 { result[partitions[index]] = element.offset }
            }
            return result
        }
    }

    /// The broker's answer to "the first offset at or after `milliseconds`"; nil for "none".
    func offset(atTime milliseconds: Int64, _ topicPartition: KafkaTopicPartition, timeoutMilliseconds: Int32)
        throws -> Int64?
    {
        try offsets(at: milliseconds, [topicPartition], timeoutMilliseconds: timeoutMilliseconds)[0]
    }

    /// Commits `offsets` for the handle's group and waits for the broker's answer.
    func commit(_ offsets: [(KafkaTopicPartition, Int64)]) throws {
        try RDKafkaTopicPartitionList.with(offsets.map { ($0.0, Optional($0.1)) }) { list in
            let error = rd_kafka_commit(handle, list, 0)
            guard error == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError("cannot commit offsets", rdError: error) }
            for index in 0..<Int(list.pointee.cnt) where list.pointee.elems[index].err != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError(
                    "cannot commit offsets of \(offsets[index].0)", rdError: list.pointee.elems[index].err)
            }
        }
    }
}
