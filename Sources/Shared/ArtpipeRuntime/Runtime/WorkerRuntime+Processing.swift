import Dispatch
import Foundation
import KafkaClient
import Logging
import PipelineContract

extension WorkerRuntime {
    /// What happens to a message's offset when the worker is done with it.
    enum Outcome {
        /// Handled, put on a retry topic, dead-lettered, or (nothing at all could be sent)
        /// skipped with a critical line: the offset may be committed.
        case commit
        /// Not committed: Kafka delivers the message again to whoever reads the partition next.
        case redeliver(Redelivery)
    }

    /// Why a message is left for Kafka to deliver again.
    enum Redelivery {
        /// The partition went to another member, or its lease ended while the message waited
        /// (a backoff, a retry copy's due time).
        case partitionGone
        /// The producer failed for good: the worker is stopping with that error.
        case clientFailed
    }

    func process(_ batch: KafkaMessageBatch) async {
        defer { batch.release() }
        if handler.sendsInRuns, configuration.retrySchedule == nil { return await processInRuns(batch) }
        let lease = batch.lease
        for message in batch.messages {
            // A retry copy waits for its time without a place in the limit: other partitions go on.
            let readiness = await waitUntilDue(message, lease: lease)
            if case .leaseEnded = readiness { continue }
            guard await waitWhileHeld(message, lease: lease) else { continue }
            await limit.acquire()
            defer { limit.release() }
            guard lease.beginHandling() else { continue }
            if case .notYet(let state) = readiness {
                switch await park(message, state: state, lease: lease) {
                case .commit: finishHandling(message, lease: lease)
                case .redeliver: lease.abandonHandling()
                }
                continue
            }
            metrics.consumed.increment()
            inFlight.add(1, ordering: .relaxed)
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = await handle(message, lease: lease)
            inFlight.subtract(1, ordering: .relaxed)
            switch outcome {
            case .commit:
                finishHandling(message, lease: lease)
                metrics.handlerLatency.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
            case .redeliver:
                lease.abandonHandling()
            }
        }
    }

    /// Lets `message`'s offset be committed, and tells the handler.
    /// The handler hears it first, while the message still holds its lease (a revoke waits for
    /// it), and only while the lease is active: a partition revoked meanwhile is its next
    /// owner's, and what this copy settled of it says nothing of that owner's state.
    func finishHandling(_ message: KafkaConsumerMessage, lease: KafkaPartitionLease) {
        if lease.isActive { handler.finished(message) }
        lease.finishHandling(offset: message.offset)
    }

    /// What became of a message's wait for its due time.
    private enum Readiness {
        /// Due (or no retry copy at all): handle it.
        case due
        /// Held its partition as long as its topic allows and is still not due: to the back.
        case notYet(RetryState)
        /// The partition went elsewhere, or the worker stops: Kafka delivers it again.
        case leaseEnded
    }

    /// Waits for the time a retry copy is due, or as long as it may hold its partition
    /// (``RetrySchedule/holdUntil(_:topic:)``), in short steps so a revoke or shutdown is not held up.
    private func waitUntilDue(_ message: KafkaConsumerMessage, lease: KafkaPartitionLease) async -> Readiness {
        guard let schedule = configuration.retrySchedule, let state = RetryState(headers: message.headers),
            RetryState.problem(in: message.headers, longestWait: schedule.longestWait) == nil
        else {
            return .due
        }
        let holdUntil = schedule.holdUntil(state, topic: message.topic)
        lease.setWaitingOnPurpose(true)
        defer { lease.setWaitingOnPurpose(false) }
        while true {
            let remaining = holdUntil.timeIntervalSinceNow
            guard remaining > 0 else {
                guard lease.isActive else { return .leaseEnded }
                return state.due.timeIntervalSinceNow > 0 ? .notYet(state) : .due
            }
            guard lease.isActive else { return .leaseEnded }
            try? await Task.sleep(for: .milliseconds(Int64(min(remaining, 0.1) * 1_000) + 1))
        }
    }

    /// Waits while the handler holds the message's partition back; false when the lease ended
    /// meanwhile (Kafka delivers the message again).
    func waitWhileHeld(_ message: KafkaConsumerMessage, lease: KafkaPartitionLease) async -> Bool {
        guard handler.holds(message) else { return true }
        lease.setWaitingOnPurpose(true)
        defer { lease.setWaitingOnPurpose(false) }
        while handler.holds(message) {
            guard lease.isActive else { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return lease.isActive
    }

    /// Puts a copy that is not due yet at the back of its topic, unchanged but for when it was
    /// parked, so the copies behind it, due sooner, do not wait for it.
    private func park(_ message: KafkaConsumerMessage, state: RetryState, lease: KafkaPartitionLease) async -> Outcome {
        var parked = state
        parked.parkedAt = Date()
        if let outcome = await finish(
            produce([parked.record(for: message, topic: message.topic)], for: message, lease: lease),
            outputsOf: message, lease: lease)
        {
            return outcome
        }
        metrics.retryParked.increment()
        logger.describing(message).info(
            "a retry copy due later than its topic's delay goes to the back of the topic; the copies behind it go on",
            metadata: ["retry.due": "\(state.due.formatted(.iso8601))"])
        return .commit
    }

    func handle(_ message: KafkaConsumerMessage, lease: KafkaPartitionLease) async -> Outcome {
        if let schedule = configuration.retrySchedule,
            let problem = RetryState.problem(in: message.headers, longestWait: schedule.longestWait)
        {
            return await deadLetter(message, reason: problem, lease: lease)
        }
        let input: Handler.Input
        do {
            input = try handler.decode(message)
        } catch {
            return await deadLetter(message, reason: "undecodable: \(error)", lease: lease)
        }

        var attempt = 0
        while true {
            attempt += 1
            // The partition is no longer ours (revoked, or handed back): its next owner handles
            // the message, and nothing is committed for it.
            guard lease.isActive else { return .redeliver(.partitionGone) }
            let outputs: [KafkaProducerRecord]
            do {
                outputs = try await handler.handle(
                    input,
                    context: MessageContext(
                        message: message, attempt: attempt, lease: lease,
                        retrySchedule: configuration.retrySchedule, logger: logger))
            } catch {
                // Failed once the partition was no longer ours, or while the worker is cancelled:
                // neither retried nor dead-lettered, nor committed; its next owner handles it.
                guard lease.isActive, !Task.isCancelled else { return .redeliver(.partitionGone) }
                // The one place a handler's failure is classified.
                let failure = (error as? HandlerFailure) ?? HandlerFailure(error)
                if failure.failureClass.isForGood {
                    return await deadLetter(message, reason: failure.reason, lease: lease)
                }
                if configuration.retrySchedule != nil {
                    return await scheduleRetry(message, after: failure, lease: lease)
                }
                guard attempt < configuration.retry.maxAttempts else {
                    return await deadLetter(
                        message, reason: "failed after \(attempt) attempts: \(failure.reason)", lease: lease)
                }
                metrics.retried.increment()
                logger.describing(message).warning(
                    "handler failed; retrying", metadata: ["attempt": "\(attempt)", "reason": "\(failure.reason)"])
                guard
                    await backOff(
                        afterAttempt: attempt, atLeast: failure.failureClass.retryAfter ?? .zero, lease: lease)
                else { return .redeliver(.partitionGone) }
                continue
            }
            let outcome = await finish(produce(outputs, for: message, lease: lease), outputsOf: message, lease: lease)
            await handler.outputsSettled(of: message, acknowledged: outcome == nil)
            if let outcome { return outcome }
            metrics.succeeded.increment()
            return .commit
        }
    }

    /// Puts the message on the retry topic its failure count (and any `Retry-After`) calls for,
    /// or in the dead letters with its history once it has failed for too long.
    private func scheduleRetry(
        _ message: KafkaConsumerMessage, after failure: HandlerFailure, lease: KafkaPartitionLease
    ) async -> Outcome {
        guard let schedule = configuration.retrySchedule else { preconditionFailure("no retry schedule") }
        let (retryAfter, outputs, retryHeaders) = (
            failure.failureClass.retryAfter, failure.outputs, failure.retryHeaders
        )
        let reason = failure.reason
        if let retryAfter, retryAfter > schedule.giveUpAfter {
            return await deadLetter(
                message,
                reason: "asked to wait \(retryAfter.wholeUnitsDescription), longer than it is retried for "
                    + "(\(schedule.giveUpAfter.wholeUnitsDescription)): \(reason)", outputs: outputs, lease: lease)
        }
        let now = Date()
        let previous = RetryState(headers: message.headers)
        let attempts = (previous?.attempts ?? 0) + 1
        let next = schedule.next(afterAttempts: attempts, retryAfter: retryAfter, now: now)
        let state = RetryState.after(previous, failedAt: now, reason: reason, due: next.due)
        if schedule.isExhausted(firstFailure: state.firstFailure, now: now) {
            let tried = Duration.seconds(now.timeIntervalSince(state.firstFailure))
            return await deadLetter(
                message,
                reason: "still failing after \(attempts) attempts over \(tried.wholeUnitsDescription): \(reason)",
                headers: state.headers(replacingIn: []), outputs: outputs, lease: lease)
        }
        var copy = state.record(for: message, topic: next.topic)
        copy.headers = copy.headers.replacing(with: retryHeaders)
        if let outcome = await finish(
            produce(outputs + [copy], for: message, lease: lease), outputsOf: message, lease: lease)
        {
            return outcome
        }
        metrics.retryScheduled.increment()
        logger.describing(message).warning(
            "failed for the moment; retrying later",
            metadata: [
                "attempt": "\(attempts)", "reason": "\(reason)", "retry.topic": "\(next.topic)",
                "retry.due": "\(next.due.formatted(.iso8601))",
            ])
        return .commit
    }

    private func deadLetter(
        _ message: KafkaConsumerMessage, reason: String, headers: [KafkaHeader] = [],
        outputs: [KafkaProducerRecord] = [], lease: KafkaPartitionLease
    ) async -> Outcome {
        var record = DeadLetter.record(
            for: message, reason: reason, worker: configuration.name, topic: configuration.deadLetterTopic)
        record.headers = record.headers.replacing(with: headers)
        switch await produce(outputs + [record], for: message, lease: lease) {
        case .acknowledged: break
        case .unsent(let redelivery): return .redeliver(redelivery)
        case .refused(let error):
            // Too large itself: without the value, then with only why and where the original is,
            // so the partition always moves on and the dead letter still leads to the original.
            logger.describing(message).error(
                "dead letter refused; sending it without its value", metadata: ["reason": "\(error)"])
            var smaller = DeadLetter.withoutValue(record)
            var result = await produce([smaller], for: message, lease: lease)
            if case .refused(let error) = result {
                logger.describing(message).error(
                    "dead letter refused without its value too; sending only why and where the message is",
                    metadata: ["reason": "\(error)"])
                smaller = DeadLetter.bare(record)
                result = await produce([smaller], for: message, lease: lease)
            }
            switch result {
            case .acknowledged:
                record = smaller
            case .unsent(let redelivery):
                return .redeliver(redelivery)
            case .refused(let error):
                // Nothing smaller can be sent. Holding the partition for ever would lose
                // everything behind it: it moves on, and this line says where the message is.
                logger.describing(message).critical(
                    "message skipped: not even a bare dead letter could be produced; it stays at its offset",
                    metadata: ["reason": "\(reason)", "kafka.error": "\(error)"])
                return .commit
            }
        }
        metrics.deadLettered.increment()
        logger.describing(message).warning(
            "message sent to dead letters",
            metadata: ["reason": "\(record.headers.value(of: DeadLetter.errorHeader) ?? reason)"])
        return .commit
    }

    /// Whether records were produced.
    enum ProduceResult {
        case acknowledged
        /// Not sent, and the message they came from is to be delivered again.
        case unsent(Redelivery)
        /// The broker or the client can never take one of the records (too large, invalid).
        case refused(KafkaError)
    }

    /// Produces the records, retrying until acknowledged: they are never dropped. Those of the
    /// handler's ``MessageHandler/changelog`` and the others go one part after the other, in its
    /// order, the second once the first is acknowledged. Gives up when
    /// the partition is no longer ours (the message is delivered again), when a record can never
    /// be taken, and when the client failed for good (the worker then stops with that error).
    func produce(_ records: [KafkaProducerRecord], for message: KafkaConsumerMessage, lease: KafkaPartitionLease)
        async -> ProduceResult
    {
        guard let changelog = handler.changelog, records.contains(where: { $0.topic == changelog.topic }) else {
            return await produceTogether(records, lease: lease)
        }
        // A compacted changelog keeps the last row of each key: the earlier ones of a run are
        // not sent (a work's state changed by its listing and its thumbnails, one row).
        let state = StoreChangelog.lastOfEachKey(records.filter { $0.topic == changelog.topic })
        let outputs = records.filter { $0.topic != changelog.topic }
        let (first, second) = changelog.order == .afterOutputs ? (outputs, state) : (state, outputs)
        // Neither part for a partition gone: its next owner's state is not to be written over.
        guard lease.isActive else { return .unsent(.partitionGone) }
        let result = await produceTogether(first, lease: lease)
        guard case .acknowledged = result else { return result }
        // The partition gone meanwhile: its next owner handles the message again.
        guard lease.isActive else { return .unsent(.partitionGone) }
        return await produceTogether(second, lease: lease)
    }

    /// ``produce(_:for:lease:)`` of records with no order between them.
    private func produceTogether(_ records: [KafkaProducerRecord], lease: KafkaPartitionLease) async -> ProduceResult {
        guard !records.isEmpty else { return .acknowledged }
        var attempt = 0
        while true {
            attempt += 1
            guard await waitWhileFenced(lease: lease) else { return .unsent(.partitionGone) }
            do {
                try await producer.send(records)
                metrics.produced.increment(by: records.count)
                return .acknowledged
            } catch let error as KafkaError where error.isFatal {
                stopFatally(error)
                return .unsent(.clientFailed)
            } catch let error as KafkaError where error.failureClass.isForGood {
                return .refused(error)
            } catch {
                metrics.retried.increment()
                logger.warning(
                    "producing outputs failed; retrying", metadata: ["attempt": "\(attempt)", "reason": "\(error)"])
                guard await backOff(afterAttempt: attempt, lease: lease) else { return .unsent(.partitionGone) }
            }
        }
    }

    /// Waits, in short steps, while the fence says this process may have lost its partitions
    /// (``GroupMembershipFence``); false when the lease ended meanwhile: the partition was
    /// revoked, perhaps as lost, and its next owner handles the message again.
    private func waitWhileFenced(lease: KafkaPartitionLease) async -> Bool {
        guard let fence = configuration.fence, !fence.mayWrite else { return true }
        repeat {
            guard lease.isActive, !Task.isCancelled else { return false }
            try? await Task.sleep(for: .milliseconds(50))
        } while !fence.mayWrite
        return lease.isActive
    }

    /// Outputs that can never be produced make the input poison; anything else passes through.
    private func finish(_ result: ProduceResult, outputsOf message: KafkaConsumerMessage, lease: KafkaPartitionLease)
        async -> Outcome?
    {
        switch result {
        case .acknowledged: return nil
        case .unsent(let redelivery): return .redeliver(redelivery)
        case .refused(let error):
            return await deadLetter(message, reason: "its outputs cannot be produced: \(error)", lease: lease)
        }
    }

    /// Waits out the backoff in short steps, so a revoke or shutdown is not held up by it; a
    /// wait the other side asked for is a floor under it. Returns false when the lease ended meanwhile.
    private func backOff(afterAttempt attempt: Int, atLeast floor: Duration = .zero, lease: KafkaPartitionLease)
        async -> Bool
    {
        let deadline = ContinuousClock.now + max(floor, configuration.retry.delay(afterAttempt: attempt))
        while ContinuousClock.now < deadline {
            guard lease.isActive else { return false }
            try? await Task.sleep(until: min(deadline, .now + .milliseconds(100)))
        }
        return lease.isActive
    }
}
