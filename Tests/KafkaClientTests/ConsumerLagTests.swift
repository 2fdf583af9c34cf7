import Testing

@testable import KafkaClient

@Suite("Consumer lag")
struct ConsumerLagTests {
    @Test("consumer lag is read from librdkafka's statistics, skipping unknown values")
    func lagFromStatistics() throws {
        let json = """
            {"topics": {"artpipe.pages": {"partitions": {
              "0": {"consumer_lag": 5}, "1": {"consumer_lag": -1}, "2": {"consumer_lag": 7}, "-1": {"consumer_lag": 9}}}}}
            """
        let lag = try #require(KafkaConsumerLag(statisticsJSON: json))
        #expect(lag.total == 12)
        #expect(lag.partitions.count == 2)
    }
}
