import Foundation

/// This consumer's claim on one assigned partition, from assignment to revocation.
///
/// Handlers call ``beginHandling()`` before each message and ``finishHandling(offset:)`` after
/// its effects are durable; only finished offsets are ever committed, and never one below the
/// group's committed offset at the assignment (``commitFloor``): a partition read again from
/// before it (a store restored from its changelog) does not move the group back. Once the partition is
/// revoked (or the consumer stops), `beginHandling` returns false, so the next owner, who
/// starts at the committed offset, never sees a message this one also handled.
///
/// Unchecked: every field is read and written under `condition`, except `paused` and
/// `continuity`, which only the poll thread touches.
package final class KafkaPartitionLease: @unchecked Sendable {
    package let topicPartition: KafkaTopicPartition

    private let condition = NSCondition()
    private var active = true
    private var handling = false
    /// Next offset to commit: one past the last finished message.
    private var finishedOffset: Int64?
    private var storedOffset: Int64?
    /// The group's committed offset when the partition was assigned, where the consumer starts
    /// before it: nothing below it is stored.
    let commitFloor: Int64?
    /// Messages and bytes delivered to the application in batches not yet released.
    private var bufferedMessages = 0
    private var bufferedBytes = 0
    /// When a message of the partition was last finished or given up (or the lease began).
    private var lastProgress = ContinuousClock.now
    /// Set while the application waits on purpose (a retry copy not yet due): no stall.
    private var waitingOnPurpose = false
    /// Only touched by the consumer's poll thread.
    var paused = false
    /// Where delivery stands, and whether batches follow on; only the poll thread touches it.
    var continuity = KafkaDeliveryContinuity()

    init(_ topicPartition: KafkaTopicPartition, commitFloor: Int64? = nil) {
        (self.topicPartition, self.commitFloor) = (topicPartition, commitFloor)
    }

    /// Whether this lease may still handle messages.
    package var isActive: Bool {
        condition.lock()
        defer { condition.unlock() }
        return active
    }

    /// Claims the next message. False when the partition is no longer ours: skip the message.
    package func beginHandling() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard active else { return false }
        handling = true
        return true
    }

    /// Marks the message at `offset` done, so its offset may be committed.
    package func finishHandling(offset: Int64) {
        condition.lock()
        handling = false
        finishedOffset = offset + 1
        lastProgress = .now
        condition.broadcast()
        condition.unlock()
    }

    /// Releases a claimed message without committing it: it will be delivered again.
    ///
    /// The lease stops here, so no later message of the partition is committed past it.
    package func abandonHandling() {
        condition.lock()
        handling = false
        active = false
        condition.broadcast()
        condition.unlock()
    }

    /// Marks the start or end of a wait the application chose (a retry copy not yet due), so
    /// the partition does not count as stalled meanwhile.
    package func setWaitingOnPurpose(_ waiting: Bool) {
        condition.lock()
        waitingOnPurpose = waiting
        if !waiting { lastProgress = .now }
        condition.unlock()
    }

    /// Since when the partition has had work delivered and made no progress on it; nil when
    /// it has nothing waiting, or waits on purpose.
    var stalledSince: ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        guard active, bufferedMessages > 0, !waitingOnPurpose else { return nil }
        return lastProgress
    }

    func addBuffered(messages: Int, bytes: Int) {
        condition.lock()
        // Work arriving at an idle partition starts its clock now, not at its last message.
        if bufferedMessages == 0 { lastProgress = .now }
        bufferedMessages += messages
        bufferedBytes += bytes
        condition.unlock()
    }

    func removeBuffered(messages: Int, bytes: Int) {
        condition.lock()
        bufferedMessages -= messages
        bufferedBytes -= bytes
        condition.unlock()
    }

    var buffered: (messages: Int, bytes: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (bufferedMessages, bufferedBytes)
    }

    /// The offset to store, when it moved since the last call.
    func takeOffsetToStore() -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        guard let finishedOffset, finishedOffset != storedOffset else { return nil }
        if let commitFloor, finishedOffset < commitFloor { return nil }
        storedOffset = finishedOffset
        return finishedOffset
    }

    /// Stops new work and waits for the message being handled, up to `deadline`.
    /// Returns false when the deadline passed first.
    func deactivate(waitingUntil deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        active = false
        while handling {
            if !condition.wait(until: deadline) { return !handling }
        }
        return true
    }
}
