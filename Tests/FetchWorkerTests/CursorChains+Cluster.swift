import ArtpipeTestKit
import FetchWorker
import KafkaClient
import KafkaTestKit

extension CursorChains {
    /// Chains read from the test cluster's `artpipe.page-requests`, as a fetch worker reads them.
    static func reading(_ cluster: TestCluster) -> CursorChains {
        CursorChains(client: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)
    }
}
