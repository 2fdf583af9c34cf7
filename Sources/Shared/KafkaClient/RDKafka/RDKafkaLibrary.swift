import CKafka

/// What the loaded librdkafka says about itself.
enum RDKafkaLibrary {
    static var versionString: String { String(cString: rd_kafka_version_str()) }

    static var versionNumber: Int32 { rd_kafka_version() }
}
