import IndexWorker
import KafkaClient
import PipelineContract
import Testing

/// The rule `artpipe status` and the pages stage share: where the index group stands on a
/// state topic against the oldest offset the partition holds.
@Suite("Missing history: the rule")
struct MissingHistoryRuleTests {
    private func rows(_ positions: [(String, Int32, low: Int64, high: Int64, committed: Int64?)])
        -> [KafkaOffsetResetPlan.Row]
    {
        KafkaOffsetResetPlan(
            group: "g", target: .shift(0),
            positions: positions.map {
                .init(
                    topicPartition: KafkaTopicPartition(topic: $0.0, partition: $0.1), low: $0.low, high: $0.high,
                    committed: $0.committed)
            }, offsetAt: { _, _ in 0 }
        ).rows
    }

    @Test("a group behind the oldest offset, or with nothing read, has a gap; one at or past it has none")
    func gapsFromOffsets() {
        let inputs = rows([
            (ArtpipeTopic.pages, 0, 5, 9, 3),  // behind: offsets 3–4 lost
            (ArtpipeTopic.pages, 1, 5, 9, 5),  // at the oldest: none
            (ArtpipeTopic.pages, 2, 5, 9, nil),  // nothing read, but its changelog holds state: a gap from 0
            (ArtpipeTopic.thumbnails, 0, 0, 9, nil),  // holds everything: none
        ])
        let changelog = rows([
            (ArtpipeTopic.indexPages, 0, 0, 4, nil), (ArtpipeTopic.indexPages, 1, 0, 4, nil),
            (ArtpipeTopic.indexPages, 2, 0, 4, nil),
        ])
        let gaps = MissingHistory.gaps(in: inputs, changelog: changelog)
        #expect(
            gaps.map(\.description) == [
                MissingHistory(topic: ArtpipeTopic.pages, partition: 0, needed: 3, earliest: 5).description,
                MissingHistory(topic: ArtpipeTopic.pages, partition: 2, needed: 0, earliest: 5).description,
            ])
    }

    @Test("an empty changelog partition means the state is new: the committed offset does not count")
    func emptyChangelog() {
        let inputs = rows([(ArtpipeTopic.pages, 0, 5, 9, 7)])
        let empty = rows([(ArtpipeTopic.indexPages, 0, 3, 3, nil)])
        #expect(
            MissingHistory.gaps(in: inputs, changelog: empty).map(\.description) == [
                MissingHistory(topic: ArtpipeTopic.pages, partition: 0, needed: 0, earliest: 5).description
            ])
        let held = rows([(ArtpipeTopic.indexPages, 0, 0, 3, nil)])
        #expect(MissingHistory.gaps(in: inputs, changelog: held).isEmpty)
    }

    @Test("the dead letters are not state: their retention is no gap")
    func deadLettersAreNotState() {
        let gap = MissingHistory.gap(
            in: KafkaTopicPartition(topic: ArtpipeTopic.deadLetters, partition: 0), committed: nil, earliest: 100)
        #expect(gap == nil)
    }
}
