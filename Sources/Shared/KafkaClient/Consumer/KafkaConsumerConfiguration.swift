/// Settings of a group consumer.
package struct KafkaConsumerConfiguration: Sendable {
    /// A ``startOffset`` meaning the oldest message the partition still holds.
    package static let beginningOffset: Int64 = -2
    package var client: KafkaClientConfiguration
    package var groupID: String
    /// Messages buffered per partition before that partition is paused.
    package var maxBufferedPerPartition: Int = 50_000
    /// Key and value bytes buffered per partition before that partition is paused.
    package var maxBufferedBytesPerPartition: Int = 32 << 20
    /// Key and value bytes buffered over every partition this consumer holds: each partition
    /// gets an equal share of it (at least 64 KiB) when that is less than its own limit, so
    /// partitions whose messages wait (retry copies not yet due) cannot take the process's memory;
    /// librdkafka's prefetch queue gets a quarter of it (`queued.max.messages.kbytes`, at least 1 MiB).
    package var maxBufferedBytesTotal: Int = 256 << 20

    /// One partition's byte limit while the consumer holds `partitions`: its share of the
    /// total, never above its own limit nor below 64 KiB.
    package func partitionByteLimit(holding partitions: Int) -> Int {
        min(maxBufferedBytesPerPartition, max(maxBufferedBytesTotal / max(partitions, 1), 64 << 10))
    }
    /// How long a revoke or a close waits for the message being handled to finish.
    package var drainTimeout: Duration = .seconds(30)
    /// How long closing waits for librdkafka to leave the group once the offsets are committed.
    /// Some librdkafka versions can block in close when a rebalance comes mid-way
    /// (confluentinc/librdkafka#4527): past this the consumer ends without it, and the group
    /// drops the member at its session timeout.
    package var closeTimeout: Duration = .seconds(10)
    /// How often librdkafka reports statistics (consumer lag).
    package var statisticsInterval: Duration = .seconds(5)
    /// For applications that keep their own offsets: where to start reading a partition when
    /// it is assigned, given the group's committed offset if any and the oldest offset the
    /// partition still holds, when the broker said (return nil: the committed offset;
    /// ``beginningOffset``: the oldest message). Called on the poll thread.
    package var startOffset: (@Sendable (KafkaTopicPartition, _ committed: Int64?, _ earliest: Int64?) -> Int64?)?
    /// The topic holding the state the consumer's handling builds, partitioned like its inputs
    /// (Kafka Streams' changelog), for consumers with a ``startOffset``: where that topic's
    /// partition of an assigned partition's number holds nothing, the state is new (a first
    /// run, an upgrade, a changelog deleted), so the group's committed offsets for it are not
    /// used and ``startOffset`` hears none.
    package var changelog: String?
    /// Called on the poll thread when partitions are assigned, with the end offset (the high
    /// watermark) each had then, when the broker said: where a partition whose state is read
    /// from its own topic stands once it has caught up with its assignment.
    package var onAssign: (@Sendable (_ partitions: [(KafkaTopicPartition, endOffset: Int64?)]) -> Void)?
    /// Called on the poll thread when partitions are taken away, after their messages in
    /// flight finished and before the next owner can read them. `lost` is true when they were
    /// lost rather than handed over (a session that timed out): another member may own them
    /// already, so nothing of theirs should be written any more.
    package var onRevoke: (@Sendable (_ partitions: [KafkaTopicPartition], _ lost: Bool) -> Void)?
    /// Told when a rebalance callback begins and ends: a stall's doubt does not end while one
    /// is under way (``GroupMembershipFence``).
    package var fence: GroupMembershipFence?
    /// For tests only: the offsets of a fetched batch to leave out before it is checked, as a
    /// fetch that loses messages would (seen on Tansu), so ``KafkaDeliveryContinuity`` can be
    /// tried through a real broker, which never loses any. Called on the poll thread. (`@_spi`
    /// takes only public declarations; nothing in this package is public.)
    package var fetchLoss: (@Sendable (KafkaTopicPartition, [Int64]) -> Set<Int64>)?

    package init(client: KafkaClientConfiguration, groupID: String) {
        self.client = client
        self.groupID = groupID
    }
}
