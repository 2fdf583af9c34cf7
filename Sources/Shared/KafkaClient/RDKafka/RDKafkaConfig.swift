import CKafka

/// Builds an `rd_kafka_conf_t` from properties, failing on the first unknown key or bad value.
enum RDKafkaConfig {
    static func make(_ properties: [(String, String)]) throws -> OpaquePointer {
        let conf = rd_kafka_conf_new()!
        var errstr = [CChar](repeating: 0, count: 512)
        for (key, value) in properties {
            let result = rd_kafka_conf_set(conf, key, value, &errstr, errstr.count)
            switch result {
            case RD_KAFKA_CONF_OK:
                continue
            case RD_KAFKA_CONF_UNKNOWN:
                rd_kafka_conf_destroy(conf)
                throw KafkaError("unknown Kafka property '\(key)'")
            default:
                rd_kafka_conf_destroy(conf)
                throw KafkaError("invalid value for Kafka property '\(key)': \(String(errorBuffer: errstr))")
            }
        }
        return conf
    }

    /// Checks that every key is a librdkafka property, without creating a client.
    static func validate(_ properties: [String: String]) throws {
        let conf = try make(properties.sorted { $0.key < $1.key })
        rd_kafka_conf_destroy(conf)
    }
}

extension String {
    /// The text of a NUL-terminated error buffer filled in by librdkafka.
    init(errorBuffer: [CChar]) {
        self.init(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
