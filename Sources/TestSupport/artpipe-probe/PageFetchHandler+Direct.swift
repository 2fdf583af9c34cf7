import ArtpipeRuntime
import FetchWorker
import KafkaClient
import Logging
import PipelineContract

extension PageFetchHandler {
    /// Runs `request` through decode and handle as the runtime would, without Kafka: the
    /// benchmarks' way to time FetchWorker's own work.
    func outputs(for request: PageRequest, logger: Logger) async throws -> [KafkaProducerRecord] {
        let message = KafkaConsumerMessage(
            topic: ArtpipeTopic.pageRequests, partition: 0, offset: 0, key: nil,
            value: try MessageCodec.record(request, topic: ArtpipeTopic.pageRequests).value)
        return try await handle(decode(message), context: MessageContext(message: message, attempt: 1, logger: logger))
    }
}
