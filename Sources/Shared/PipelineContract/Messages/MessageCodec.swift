import Foundation
import KafkaClient

/// Turns contract messages into Kafka records and back. All decoding of pipeline messages
/// happens here, so a malformed message fails the same clear way in every worker.
package enum MessageCodec {
    static let contentTypeHeader = "content-type"
    package static let schemaHeader = "artpipe-schema"

    /// The record for `message` on `topic`, keyed by its page id.
    package static func record<Message: ArtpipeMessage>(_ message: Message, topic: String) throws -> KafkaProducerRecord
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return KafkaProducerRecord(
            topic: topic, key: message.key, value: Array(try encoder.encode(message)),
            headers: [
                KafkaHeader(contentTypeHeader, "application/json"),
                KafkaHeader(schemaHeader, Message.schemaHeaderValue),
            ])
    }

    /// Decodes a message, checking the schema header (when present) and the version.
    package static func decode<Message: ArtpipeMessage>(_ type: Message.Type, from message: KafkaConsumerMessage) throws
        -> Message
    {
        if let schema = message.headers.value(of: schemaHeader), schema != Message.schemaHeaderValue {
            throw MessageDecodingError("expected schema \(Message.schemaHeaderValue), got \(schema)")
        }
        let decoded: Message
        do {
            decoded = try JSONDecoder().decode(Message.self, from: Data(message.value))
        } catch let error as DecodingError {
            throw MessageDecodingError("not a valid \(Message.schemaName) message: \(error.summary)")
        } catch {
            throw MessageDecodingError("not a valid \(Message.schemaName) message: \(error)")
        }
        guard decoded.v == Message.schemaVersion else {
            throw MessageDecodingError(
                "\(Message.schemaName) version \(decoded.v) is not supported (expected \(Message.schemaVersion))")
        }
        if let problem = decoded.outOfRange {
            throw MessageDecodingError("not a valid \(Message.schemaName) message: \(problem)")
        }
        return decoded
    }
}
