/// What a chaos campaign runs, how often, and where.
public struct ChaosConfiguration: Sendable {
    /// The `widgetsim` executable under test.
    public var binary: String
    /// The scenario to scale up (its first devices are copied `devices` times).
    public var scenario: String
    /// Copies of the scenario's devices: the knob that sets the run's length.
    public var devices: Int
    /// Simulated days (the scenario's own are replaced).
    public var days: Int
    /// Also write `trace.json`: the largest file by far, written last, it
    /// stretches the writing phase to about a sixth of the run, so that many
    /// interruptions land while files are written and just before the swap.
    public var trace: Bool
    /// The campaign's working directory: scratch space and kept evidence.
    public var work: String
    /// The seed of the interruption plans.
    public var seed: UInt64
    /// How many interrupted runs.
    public var interruptions: Int
    /// Only this iteration, with the plan it has in a full campaign.
    public var only: Int?
    /// The run duration the delays are fractions of; measured when nil.
    public var duration: Double?
    /// Clean runs timed before the campaign; their median is the run duration.
    public var calibrationRuns: Int
    /// The command that replays a campaign up to `iteration`, and the one
    /// that replays only that iteration with `duration`; printed on failure.
    public var reproduce: @Sendable (_ iteration: Int, _ duration: Double) -> [String]

    /// The seed of the reports in place before each run (the old ones).
    public static let oldSeed: UInt64 = 1
    /// The seed every interrupted run writes with (the new ones).
    public static let newSeed: UInt64 = 2

    public init(
        binary: String, scenario: String, devices: Int, days: Int, trace: Bool = true, work: String, seed: UInt64, interruptions: Int,
        only: Int? = nil, duration: Double? = nil, calibrationRuns: Int = 3,
        reproduce: @escaping @Sendable (_ iteration: Int, _ duration: Double) -> [String]
    ) {
        self.binary = binary
        self.scenario = scenario
        self.devices = devices
        self.days = days
        self.trace = trace
        self.work = work
        self.seed = seed
        self.interruptions = interruptions
        self.only = only
        self.duration = duration
        self.calibrationRuns = calibrationRuns
        self.reproduce = reproduce
    }

    /// The iterations the campaign runs, numbered from 1.
    public var iterations: [Int] {
        if let only { return [only] }
        return interruptions > 0 ? Array(1...interruptions) : []
    }
}
