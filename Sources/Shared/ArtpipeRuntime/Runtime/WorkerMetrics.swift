import Metrics

/// The metrics every worker reports, under the labels the `metrics` log line uses.
package struct WorkerMetrics: Sendable {
    /// Messages taken from the input topics.
    let consumed: Counter
    /// Records acknowledged by the broker (outputs and dead letters).
    let produced: Counter
    /// Messages handled and committed-ready, dead letters excluded.
    let succeeded: Counter
    /// Retries after a transient failure, of the handler or of producing its outputs.
    let retried: Counter
    /// Messages put on a retry topic to be tried again later.
    let retryScheduled: Counter
    /// Retry copies not yet due that went to the back of their topic, so copies behind them go on.
    let retryParked: Counter
    /// Messages sent to the dead letters.
    let deadLettered: Counter
    /// Messages being handled now.
    let inFlight: Gauge
    /// Total consumer lag over the assigned partitions.
    let consumerLag: Gauge
    /// From taking a message to its outputs being acknowledged.
    let handlerLatency: Metrics.Timer

    package init(worker: String) {
        let dimensions = [("worker", worker)]
        consumed = Counter(label: "consumed", dimensions: dimensions)
        produced = Counter(label: "produced", dimensions: dimensions)
        succeeded = Counter(label: "succeeded", dimensions: dimensions)
        retried = Counter(label: "retried", dimensions: dimensions)
        retryScheduled = Counter(label: "retry_scheduled", dimensions: dimensions)
        retryParked = Counter(label: "retry_parked", dimensions: dimensions)
        deadLettered = Counter(label: "dead_lettered", dimensions: dimensions)
        inFlight = Gauge(label: "in_flight", dimensions: dimensions)
        consumerLag = Gauge(label: "consumer_lag", dimensions: dimensions)
        handlerLatency = Metrics.Timer(label: "handler_latency", dimensions: dimensions)
    }
}
