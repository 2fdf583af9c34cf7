/// Faults the sample server injects, for tests and for watching the pipeline cope.
public struct SampleServerFaults: Sendable, Equatable {
    /// Added before every answer (API and images).
    public var latency: Duration = .zero
    /// Each collection page answers this many times with an error before it answers: 503 and
    /// 429 (with `Retry-After: 1`) in turn.
    public var failFirst: Int = 0
    /// Collection pages that always answer 500.
    public var failingPages: Set<Int> = []
    /// Images that answer 503 this many times before they answer.
    public var imageFailFirst: Int = 0
    /// How long an OAI-PMH resumption token stays good; an older one gets `badResumptionToken`.
    public var oaiTokenLifetime: Duration = .seconds(600)

    public init() {}
}
