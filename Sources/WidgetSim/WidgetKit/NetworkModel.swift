/// The simulated server behind a widget: how long a request takes and how often it fails.
public struct NetworkModel: Equatable, Sendable {
    /// Round-trip time of one request (F22: a slow request can outlast the time limit).
    public var latency: DurationDistribution {
        didSet { latencySampler = DurationSampler(latency) }
    }
    /// `latency`, prepared for drawing on every request.
    private(set) var latencySampler: DurationSampler
    /// Probability that a request fails, in [0, 1].
    public var failureRate: Double

    public init(latency: DurationDistribution = .logNormal(median: 1, p95: 4), failureRate: Double = 0) {
        self.latency = latency
        self.latencySampler = DurationSampler(latency)
        self.failureRate = failureRate
    }

    public static func == (lhs: NetworkModel, rhs: NetworkModel) -> Bool {
        lhs.latency == rhs.latency && lhs.failureRate == rhs.failureRate
    }
}

/// The outcome of one simulated request.
public enum FetchResult: Equatable, Sendable {
    /// The server answered; its data reflects the truth at `dataAsOf`.
    case success(dataAsOf: SimTime)
    /// The request failed after its latency.
    case failure
}
