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
        let lag = KafkaConsumerLag(statistics: try #require(KafkaStatistics(json: json)))
        #expect(lag.total == 12)
        #expect(lag.partitions.count == 2)
    }

    @Test("brokers up are the real ones in state UP; a document without brokers says nothing")
    func brokersUpFromStatistics() throws {
        let json = """
            {"brokers": {"a": {"nodeid": 1, "state": "UP"}, "b": {"nodeid": 2, "state": "DOWN"},
              "c": {"nodeid": -1, "state": "UP"}}}
            """
        #expect(KafkaConsumerHealth.brokersUp(try #require(KafkaStatistics(json: json))) == 1)
        #expect(KafkaConsumerHealth.brokersUp(try #require(KafkaStatistics(json: "{}"))) == nil)
    }

    @Test("partitions held but not being fetched are named with their fetch state; others and active ones are not")
    func fetchStatesFromStatistics() throws {
        let json = """
            {"topics": {"artpipe.pages": {"partitions": {
              "0": {"fetch_state": "active"}, "1": {"fetch_state": "offset-wait"}, "2": {"fetch_state": "none"},
              "-1": {"fetch_state": "none"}}}}}
            """
        let pages = { KafkaTopicPartition(topic: "artpipe.pages", partition: $0) }
        let states = KafkaFetchStates(
            statistics: try #require(KafkaStatistics(json: json)), held: [pages(0), pages(1)])
        #expect(states.notFetching == [pages(1): "offset-wait"])
        #expect(KafkaStatistics(json: "not json") == nil)
    }
}
