import Foundation

/// Turns contract messages into Kafka records and back. All decoding of pipeline messages
/// happens here, so a malformed message fails the same clear way in every worker.
public enum MessageCodec {
    public static let contentTypeHeader = "content-type"
    public static let schemaHeader = "artpipe-schema"

    /// The record for `message` on `topic`, keyed by its page id.
    public static func record<Message: ArtpipeMessage>(_ message: Message, topic: String) throws -> KafkaProducerRecord
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return KafkaProducerRecord(
            topic: topic, key: message.pageId, value: Array(try encoder.encode(message)),
            headers: [
                KafkaHeader(contentTypeHeader, "application/json"),
                KafkaHeader(schemaHeader, Message.schemaHeaderValue),
            ])
    }

    /// Decodes a message, checking the schema header (when present) and the version.
    public static func decode<Message: ArtpipeMessage>(_ type: Message.Type, from message: KafkaConsumerMessage) throws
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
        return decoded
    }
}

/// A message that cannot be decoded: poison, sent to the dead letters.
public struct MessageDecodingError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension DecodingError {
    /// One line: what was wrong and where.
    public var summary: String {
        func path(_ context: Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
        }
        switch self {
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context))"
        case .keyNotFound(let key, let context): return "missing \(key.stringValue) at \(path(context))"
        case .typeMismatch(let type, let context): return "expected \(type) at \(path(context))"
        case .valueNotFound(let type, let context): return "null where \(type) was expected at \(path(context))"
        @unknown default: return "\(self)"
        }
    }
}
