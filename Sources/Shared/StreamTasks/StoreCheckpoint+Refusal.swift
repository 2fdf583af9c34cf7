import Foundation
import KafkaClient

extension StoreCheckpoint {
    /// Why the checkpoint cannot be trusted against the cluster now, in words for the log; nil
    /// when it can. Refused: a checkpoint of another layout, another cluster (or one that gives
    /// no id now, where the checkpoint names one), another partition count, or dated ahead of
    /// `now`; a store file (`file`: its size now, nil when it is missing) not the size it was
    /// sealed at; an offset past where its changelog partition ends, or before where it begins
    /// (the topic made again shorter, or records deleted). A partition too old is left out
    /// instead (``leavingOut(olderThan:)``).
    package func refusal(file: Int64?, bounds: KafkaTopicBounds, partitionCount: Int, now: Date) -> String? {
        guard format == Self.currentFormat else {
            return "its checkpoint is of layout \(format), this version reads \(Self.currentFormat)"
        }
        guard let file else { return "its file is missing" }
        guard file == fileBytes else {
            return "its file is \(file) bytes, sealed at \(fileBytes): cut or changed since"
        }
        // A cluster that gave an id must give the same one: one that gives none now is not known
        // to be the same.
        if let cluster, bounds.clusterID != cluster {
            return
                "it was written on Kafka cluster \(cluster), the brokers are cluster \(bounds.clusterID ?? "unknown")"
        }
        guard self.partitionCount == partitionCount else {
            return "it was written for \(self.partitionCount) partitions, the index's topics have \(partitionCount)"
        }
        guard now.timeIntervalSince(written) >= -60 else {
            return "it is dated \(written), ahead of this machine's clock"
        }
        guard let ends = bounds.partitions[topic], ends.count == partitionCount else {
            return "its changelog \(topic) is missing or has another partition count"
        }
        for (partition, mark) in partitions.sorted(by: { $0.key < $1.key }) {
            guard partition >= 0, partition < ends.count else { return "it names partition \(partition)" }
            let (low, high) = ends[partition]
            guard mark.offset <= high else {
                return
                    "\(topic) partition \(partition) ends at \(high), before its offset \(mark.offset): the topic was made again"
            }
            guard mark.offset >= low else {
                return
                    "\(topic) partition \(partition) begins at \(low), past its offset \(mark.offset): records were deleted"
            }
        }
        return nil
    }
}

extension StoreCheckpoint {
    /// The checkpoint without the partitions whose rows stopped following their changelog more
    /// than ``maximumAge`` before `now` (the topic's cleaner may have removed deletions since),
    /// and those partitions: they are restored in full.
    package func leavingOut(olderThan now: Date) -> (kept: StoreCheckpoint, stale: [Int]) {
        var kept = self
        let stale = partitions.filter { now.timeIntervalSince($0.value.asOf ?? written) > Self.maximumAge }.keys
            .sorted()
        for partition in stale { kept.partitions[partition] = nil }
        return (kept, stale)
    }

    /// The checkpoint with its marks' ``Mark/published`` only when `build` (``BuildIdentity``)
    /// wrote it, and the partitions whose mark lost one: another build, or one unknown, may
    /// render the same rows otherwise.
    package func keepingPublished(by build: String?) -> (kept: StoreCheckpoint, dropped: [Int]) {
        guard build == nil || self.build != build else { return (self, []) }
        var kept = self
        let dropped = partitions.filter { $0.value.published != nil }.keys.sorted()
        for partition in dropped { kept.partitions[partition]?.published = nil }
        return (kept, dropped)
    }

    /// The checkpoint without the partitions whose mark is past where `floors` (by partition;
    /// nil: none, the topic's start) says the changelog's reader stands now, and those partitions. For a stage whose input is
    /// its changelog, read up to its group's committed offset: a group moved back below what
    /// the rows show (a replay) asks for them to be made again.
    package func leavingOut(pastFloors floors: [Int64?]) -> (kept: StoreCheckpoint, moved: [Int]) {
        var kept = self
        let moved = partitions.filter { partition, mark in
            let floor = partition < floors.count ? floors[partition] : nil
            // No offset: the reader starts at the topic's start, below any mark but 0.
            return (floor ?? 0) < mark.offset
        }.keys.sorted()
        for partition in moved { kept.partitions[partition] = nil }
        return (kept, moved)
    }
}
