import KafkaClient
import Logging

extension Logger {
    /// A copy whose lines carry the message's topic, partition, offset and key. The metadata is
    /// built only when a line is logged, so the common path, which logs nothing, pays no more.
    func describing(_ message: KafkaConsumerMessage) -> Logger {
        var logger = self
        let previous = logger.handler.metadataProvider
        logger.handler.metadataProvider = Logger.MetadataProvider {
            var metadata = previous?.get() ?? [:]
            metadata["kafka.topic"] = "\(message.topic)"
            metadata["kafka.partition"] = "\(message.partition)"
            metadata["kafka.offset"] = "\(message.offset)"
            if let key = message.keyString { metadata["kafka.key"] = "\(key)" }
            return metadata
        }
        return logger
    }
}
