import CKafka

extension RDKafkaClient {
    /// The group's member count and state; nil when the broker cannot describe groups.
    func describeGroup(_ group: String, timeoutMilliseconds: Int32) throws -> (members: Int, state: String)? {
        var list: UnsafePointer<rd_kafka_group_list>?
        let error = rd_kafka_list_groups(handle, group, &list, timeoutMilliseconds)
        if error == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE { return nil }
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR, let list else {
            throw KafkaError("cannot describe group \(group)", rdError: error)
        }
        defer { rd_kafka_group_list_destroy(list) }
        for index in 0..<Int(list.pointee.group_cnt) where String(cString: list.pointee.groups[index].group) == group {
            let info = list.pointee.groups[index]
            return (Int(info.member_cnt), info.state.map { String(cString: $0) } ?? "unknown")
        }
        return (0, "Dead")
    }
}
