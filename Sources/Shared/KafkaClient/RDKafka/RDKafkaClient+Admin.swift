import CKafka

extension RDKafkaClient {
    /// Sends CreateTopics; returns the names created (existing ones are left out).
    func createTopics(
        _ names: [String], partitions: Int, replicationFactor: Int, settings: [String: [String: String]],
        timeoutMilliseconds: Int32
    ) throws -> [String] {
        var errstr = [CChar](repeating: 0, count: 512)
        var newTopics: [OpaquePointer?] = []
        defer { for topic in newTopics { rd_kafka_NewTopic_destroy(topic) } }
        for name in names {
            guard
                let topic = rd_kafka_NewTopic_new(
                    name, Int32(partitions), Int32(replicationFactor), &errstr, errstr.count)
            else {
                throw KafkaError("cannot describe topic \(name): \(String(errorBuffer: errstr))")
            }
            newTopics.append(topic)
            for (key, value) in (settings[name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let error = rd_kafka_NewTopic_set_config(topic, key, value)
                guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                    throw KafkaError("cannot set \(key)=\(value) on topic \(name)", rdError: error)
                }
            }
        }
        let options = rd_kafka_AdminOptions_new(handle, RD_KAFKA_ADMIN_OP_CREATETOPICS)
        defer { rd_kafka_AdminOptions_destroy(options) }
        _ = rd_kafka_AdminOptions_set_operation_timeout(options, timeoutMilliseconds, &errstr, errstr.count)
        _ = rd_kafka_AdminOptions_set_request_timeout(options, timeoutMilliseconds, &errstr, errstr.count)
        let queue = rd_kafka_queue_new(handle)
        defer { rd_kafka_queue_destroy(queue) }

        rd_kafka_CreateTopics(handle, &newTopics, newTopics.count, options, queue)
        guard let event = rd_kafka_queue_poll(queue, timeoutMilliseconds + 1_000) else {
            throw KafkaError("no answer to CreateTopics within \(timeoutMilliseconds) ms")
        }
        defer { rd_kafka_event_destroy(event) }
        let requestError = rd_kafka_event_error(event)
        guard requestError == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError(
                "CreateTopics failed: \(String(cString: rd_kafka_event_error_string(event)))",
                code: requestError.rawValue)
        }
        guard let result = rd_kafka_event_CreateTopics_result(event) else {
            throw KafkaError("CreateTopics gave no result")
        }
        var count = 0
        guard let results = rd_kafka_CreateTopics_result_topics(result, &count) else { return [] }
        var created: [String] = []
        for index in 0..<count {
            let topicResult = results[index]
            let name = String(cString: rd_kafka_topic_result_name(topicResult))
            let error = rd_kafka_topic_result_error(topicResult)
            switch error {
            case RD_KAFKA_RESP_ERR_NO_ERROR: created.append(name)
            case RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS: continue
            default:
                let reason = rd_kafka_topic_result_error_string(topicResult).map { String(cString: $0) } ?? ""
                throw KafkaError("cannot create topic \(name): \(reason)", code: error.rawValue)
            }
        }
        return created
    }
}
